//! The session file (`session.toml`): what a practice session or contest
//! serves and how. Read in two steps, as `problem.toml` is: the raw TOML
//! mirror (`RawSession`, unknown keys refused) and the validated
//! [`Session`]. Every error names the file, the line and the key.

use std::ops::Range;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::Deserialize;
use toml::Spanned;

use crate::spec::{FieldError, SpecError, line_of};

/// How submissions are ranked on the scoreboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scoring {
    /// Problems solved, then penalty minutes: the minutes from the start to
    /// each first AC plus `penalty` per rejected try before it.
    Icpc { penalty: Duration },
    /// The sum over problems of each participant's best score (1 for AC on
    /// a problem without scores).
    Points,
}

/// What a participant sees of a judged submission of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Feedback {
    /// The final verdict only.
    Verdict,
    /// Samples in full; of the secret tests only the first failing one's
    /// number and verdict.
    FirstFailure,
    /// Samples in full (first difference, diff); every secret test as its
    /// verdict, time and memory, never its data.
    Tests,
}

/// When the session runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Schedule {
    /// Always open, no clock, no freeze.
    OpenEnded,
    Timed {
        start: SystemTime,
        end: SystemTime,
        /// The scoreboard shows no result submitted after this moment
        /// (to participants and the public) until the end.
        freeze: Option<SystemTime>,
    },
}

/// What the jury changed of a running session on the web (kept in the
/// store, so that a restart keeps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct JuryChanges {
    /// Start, end and freeze set by the jury, in place of the file's.
    pub(crate) schedule: Option<Schedule>,
    /// The frozen scoreboard released to everybody at this moment.
    pub(crate) released: Option<SystemTime>,
}

impl JuryChanges {
    /// The changes the store kept (`set`), over the file's `planned`
    /// times: a time the jury did not set stays the file's.
    pub(crate) fn from_set(
        planned: Schedule,
        set: &crate::store::sessions::SetTimes,
    ) -> JuryChanges {
        let schedule = match planned {
            Schedule::Timed { start, end, freeze }
                if set.start.is_some() || set.end.is_some() || set.freeze.is_some() =>
            {
                Some(Schedule::Timed {
                    start: set.start.unwrap_or(start),
                    end: set.end.unwrap_or(end),
                    freeze: set.freeze.or(freeze),
                })
            }
            _ => None,
        };
        JuryChanges {
            schedule,
            released: set.released,
        }
    }

    /// As the store keeps them.
    pub(crate) fn to_set(self) -> crate::store::sessions::SetTimes {
        let (start, end, freeze) = match self.schedule {
            Some(Schedule::Timed { start, end, freeze }) => (Some(start), Some(end), freeze),
            _ => (None, None, None),
        };
        crate::store::sessions::SetTimes {
            start,
            end,
            freeze,
            released: self.released,
        }
    }
}

/// How many participants get each medal (the CCS API's awards), by place
/// on the scoreboard among those who scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Medals {
    pub(crate) gold: u32,
    pub(crate) silver: u32,
    pub(crate) bronze: u32,
}

/// A validated session.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The session's key in the store: the same name continues the same
    /// session after a restart.
    pub(crate) name: String,
    pub(crate) title: String,
    /// Problem ids in the order shown; empty means every problem.
    pub(crate) problems: Vec<String>,
    /// When it runs as the session file says; `schedule()` is what holds
    /// now (the jury may change it on the web, `JuryChanges`).
    pub(crate) planned: Schedule,
    /// What the jury changed while it runs, shared by every copy.
    pub(crate) changes: std::sync::Arc<std::sync::RwLock<JuryChanges>>,
    pub(crate) scoring: Scoring,
    /// Language keys of the language table; empty means all.
    pub(crate) languages: Vec<String>,
    pub(crate) feedback: Feedback,
    /// Only logged-in users see anything (problems, scoreboard, API).
    pub(crate) private: bool,
    /// Anyone may create a participant account.
    pub(crate) registration: bool,
    /// The largest source accepted, in bytes.
    pub(crate) max_source: u64,
    /// Submissions a participant may make per minute.
    pub(crate) submissions_per_minute: u32,
    /// Submissions one client address may make per minute, all accounts
    /// together (a class behind one NAT address shares it).
    pub(crate) submissions_per_minute_per_address: u32,
    /// Accounts one client address may sign up per hour.
    pub(crate) signups_per_hour: u32,
    /// The code a sign-up must give, when set (`invitation`).
    pub(crate) invitation: Option<String>,
    /// How long an API token lasts.
    pub(crate) token_lifetime: Duration,
    /// Medals to award, if any (`[medals]`).
    pub(crate) medals: Option<Medals>,
}

/// How long an API token lasts unless the session file says otherwise.
const DEFAULT_TOKEN_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// ICPC's 20 minutes per rejected try.
const DEFAULT_PENALTY: Duration = Duration::from_secs(20 * 60);

impl Session {
    /// The session without a file: open-ended practice over every problem.
    pub(crate) fn practice() -> Session {
        Session {
            name: "practice".into(),
            title: "Practice".into(),
            problems: Vec::new(),
            planned: Schedule::OpenEnded,
            changes: std::sync::Arc::default(),
            scoring: Scoring::Icpc {
                penalty: DEFAULT_PENALTY,
            },
            languages: Vec::new(),
            feedback: Feedback::Tests,
            private: false,
            registration: false,
            max_source: 64 << 10,
            submissions_per_minute: 6,
            submissions_per_minute_per_address: 60,
            signups_per_hour: 3,
            invitation: None,
            token_lifetime: DEFAULT_TOKEN_LIFETIME,
            medals: None,
        }
    }

    /// Reads and validates a session file.
    pub(crate) fn load(path: &Path) -> Result<Session, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Session::parse(&text, path)
    }

    pub(crate) fn parse(text: &str, path: &Path) -> Result<Session, SpecError> {
        let raw: RawSession = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(1, |span| line_of(text, span.start));
            SpecError::Parse {
                path: path.to_path_buf(),
                message: format!("line {line}: {}", e.message()),
            }
        })?;
        let file = SessionFile { path, text };
        let invalid = |span, key: &str, message| file.invalid(span, key, message);
        let mut session = Session::practice();
        session.name = file.name(raw.name)?;
        if let Some(title) = raw.title {
            session.title = title;
        }
        session.problems = raw.problems.unwrap_or_default();
        session.languages = raw.languages.unwrap_or_default();
        session.planned = file.schedule(raw.start, raw.end, raw.duration, raw.freeze)?;
        session.scoring = match raw.scoring.as_ref().map(|s| s.get_ref().as_str()) {
            None | Some("icpc") => Scoring::Icpc {
                penalty: file
                    .duration(raw.penalty, "penalty")?
                    .unwrap_or(DEFAULT_PENALTY),
            },
            Some("points") => Scoring::Points,
            Some(other) => {
                return Err(invalid(
                    raw.scoring.as_ref().map(Spanned::span).unwrap_or(0..0),
                    "scoring",
                    format!("`{other}`: write `icpc` or `points`"),
                ));
            }
        };
        session.feedback = match raw.feedback.as_ref().map(|s| s.get_ref().as_str()) {
            None | Some("tests") => Feedback::Tests,
            Some("first-failure") => Feedback::FirstFailure,
            Some("verdict") => Feedback::Verdict,
            Some(other) => {
                return Err(invalid(
                    raw.feedback.as_ref().map(Spanned::span).unwrap_or(0..0),
                    "feedback",
                    format!("`{other}`: write `tests`, `first-failure` or `verdict`"),
                ));
            }
        };
        session.private = raw.private.unwrap_or(false);
        session.registration = raw.registration.unwrap_or(false);
        session.medals = raw.medals.map(|m| Medals {
            gold: m.gold.unwrap_or(0),
            silver: m.silver.unwrap_or(0),
            bronze: m.bronze.unwrap_or(0),
        });
        if let Some(limits) = raw.limits {
            file.limits(limits, &mut session)?;
        }
        if let Some(code) = raw.invitation {
            if code.get_ref().trim().is_empty() {
                let why = "a code to give to the class, e.g. `lab3-spring`".into();
                return Err(invalid(code.span(), "invitation", why));
            }
            session.invitation = Some(code.into_inner());
        }
        Ok(session)
    }

    /// When it runs now: the jury's times, else the file's.
    pub(crate) fn schedule(&self) -> Schedule {
        self.jury_changes().schedule.unwrap_or(self.planned)
    }

    pub(crate) fn jury_changes(&self) -> JuryChanges {
        *self.changes.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Applies the jury's `changes` (from the web, or the store at start).
    pub(crate) fn change(&self, changes: JuryChanges) {
        *self.changes.write().unwrap_or_else(|e| e.into_inner()) = changes;
    }

    /// Whether submissions are taken at `now`.
    pub(crate) fn is_open(&self, now: SystemTime) -> bool {
        match self.schedule() {
            Schedule::OpenEnded => true,
            Schedule::Timed { start, end, .. } => start <= now && now < end,
        }
    }

    /// When the scoreboard froze, if it is frozen at `now` for those who
    /// are not jury.
    pub(crate) fn frozen_since(&self, now: SystemTime) -> Option<SystemTime> {
        let released = self.jury_changes().released.is_some_and(|r| r <= now);
        match self.schedule() {
            Schedule::Timed {
                freeze: Some(freeze),
                end,
                ..
            } if freeze <= now && now < end && !released => Some(freeze),
            _ => None,
        }
    }

    /// The moment contest time counts from (ICPC penalty minutes).
    pub(crate) fn start(&self) -> Option<SystemTime> {
        match self.schedule() {
            Schedule::OpenEnded => None,
            Schedule::Timed { start, .. } => Some(start),
        }
    }

    pub(crate) fn end(&self) -> Option<SystemTime> {
        match self.schedule() {
            Schedule::OpenEnded => None,
            Schedule::Timed { end, .. } => Some(end),
        }
    }
}

/// The session file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSession {
    name: Option<Spanned<String>>,
    title: Option<String>,
    problems: Option<Vec<String>>,
    start: Option<Spanned<String>>,
    end: Option<Spanned<String>>,
    duration: Option<Spanned<String>>,
    freeze: Option<Spanned<String>>,
    scoring: Option<Spanned<String>>,
    penalty: Option<Spanned<String>>,
    languages: Option<Vec<String>>,
    feedback: Option<Spanned<String>>,
    private: Option<bool>,
    registration: Option<bool>,
    invitation: Option<Spanned<String>>,
    limits: Option<RawLimits>,
    medals: Option<RawMedals>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMedals {
    gold: Option<u32>,
    silver: Option<u32>,
    bronze: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLimits {
    source: Option<Spanned<String>>,
    submissions_per_minute: Option<Spanned<u32>>,
    submissions_per_minute_per_address: Option<Spanned<u32>>,
    signups_per_hour: Option<Spanned<u32>>,
    token_lifetime: Option<Spanned<String>>,
}

/// A session file being read: a refusal names its path, line and key.
struct SessionFile<'a> {
    path: &'a Path,
    text: &'a str,
}

impl SessionFile<'_> {
    /// The `[limits]` table, onto `session`.
    fn limits(&self, limits: RawLimits, session: &mut Session) -> Result<(), SpecError> {
        let invalid = |span, key: &str, message| self.invalid(span, key, message);
        if let Some(size) = limits.source {
            session.max_source = size
                .get_ref()
                .parse::<bytesize::ByteSize>()
                .map(|b| b.as_u64())
                .ok()
                .filter(|&b| b > 0 && b <= 16 << 20)
                .ok_or_else(|| {
                    invalid(
                        size.span(),
                        "limits.source",
                        "a size up to 16 MiB, e.g. `64KiB`".into(),
                    )
                })?;
        }
        let positive = |rate: Option<Spanned<u32>>, key: &str, default: u32| match rate {
            Some(rate) if *rate.get_ref() == 0 => {
                Err(invalid(rate.span(), key, "at least 1".into()))
            }
            Some(rate) => Ok(rate.into_inner()),
            None => Ok(default),
        };
        session.submissions_per_minute = positive(
            limits.submissions_per_minute,
            "limits.submissions-per-minute",
            session.submissions_per_minute,
        )?;
        session.submissions_per_minute_per_address = positive(
            limits.submissions_per_minute_per_address,
            "limits.submissions-per-minute-per-address",
            session.submissions_per_minute_per_address,
        )?;
        session.signups_per_hour = positive(
            limits.signups_per_hour,
            "limits.signups-per-hour",
            session.signups_per_hour,
        )?;
        let lifetime = limits.token_lifetime.as_ref().map(Spanned::span);
        if let Some(life) = self.duration(limits.token_lifetime, "limits.token-lifetime")? {
            if life < Duration::from_secs(1) {
                let span = lifetime.unwrap_or(0..0);
                return Err(invalid(span, "limits.token-lifetime", "at least 1s".into()));
            }
            session.token_lifetime = life;
        }
        Ok(())
    }

    fn invalid(&self, span: Range<usize>, key: &str, message: String) -> SpecError {
        SpecError::Invalid(FieldError::at(self.path, self.text, span, key, message))
    }

    /// The session's name: `name`, or the file's stem.
    fn name(&self, name: Option<Spanned<String>>) -> Result<String, SpecError> {
        let Some(name) = name else {
            return Ok(self
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "session".into()));
        };
        let ok = !name.get_ref().is_empty()
            && name
                .get_ref()
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !ok {
            let why = "letters, digits, `-` and `_` only".into();
            return Err(self.invalid(name.span(), "name", why));
        }
        Ok(name.into_inner())
    }

    fn time(
        &self,
        value: Option<Spanned<String>>,
        key: &str,
    ) -> Result<Option<SystemTime>, SpecError> {
        let example = "2026-05-01T09:00:00Z";
        self.parsed(value, key, humantime::parse_rfc3339_weak, example)
    }

    fn duration(
        &self,
        value: Option<Spanned<String>>,
        key: &str,
    ) -> Result<Option<Duration>, SpecError> {
        self.parsed(value, key, humantime::parse_duration, "5h or 20m")
    }

    /// `value` read by `parse`, or a refusal that shows an `example`.
    fn parsed<T, E: std::fmt::Display>(
        &self,
        value: Option<Spanned<String>>,
        key: &str,
        parse: impl Fn(&str) -> Result<T, E>,
        example: &str,
    ) -> Result<Option<T>, SpecError> {
        let Some(value) = value else {
            return Ok(None);
        };
        parse(value.get_ref()).map(Some).map_err(|e| {
            let why = format!("{e}; write e.g. {example}");
            self.invalid(value.span(), key, why)
        })
    }

    /// Open-ended, or timed from `start` to `end` (or for `duration`), with
    /// the scoreboard frozen `freeze` before the end.
    fn schedule(
        &self,
        start: Option<Spanned<String>>,
        end: Option<Spanned<String>>,
        duration: Option<Spanned<String>>,
        freeze: Option<Spanned<String>>,
    ) -> Result<Schedule, SpecError> {
        let start_span = start.as_ref().map(Spanned::span);
        let end_span = end.as_ref().map(Spanned::span);
        let freeze_span = freeze.as_ref().map(Spanned::span);
        let start = self.time(start, "start")?;
        let end = self.time(end, "end")?;
        let length = self.duration(duration, "duration")?;
        let freeze = self.duration(freeze, "freeze")?;
        let Some(start) = start else {
            if end.is_some() || length.is_some() {
                let why = "a session with an end or a duration needs a start".into();
                return Err(self.invalid(end_span.unwrap_or(0..0), "start", why));
            }
            if let Some(span) = freeze_span {
                let why = "an open-ended session has no freeze: give it a start and an end".into();
                return Err(self.invalid(span, "freeze", why));
            }
            return Ok(Schedule::OpenEnded);
        };
        let end = match (end, length) {
            (Some(end), None) => end,
            (None, Some(length)) => start + length,
            _ => {
                let span = end_span.or(start_span).unwrap_or(0..0);
                return Err(self.invalid(span, "end", "give either `end` or `duration`".into()));
            }
        };
        if end <= start {
            let why = "the session ends before it starts".into();
            return Err(self.invalid(end_span.unwrap_or(0..0), "end", why));
        }
        let freeze = match freeze {
            Some(before_end) if start + before_end > end => {
                let why = "the freeze is longer than the session".into();
                return Err(self.invalid(freeze_span.unwrap_or(0..0), "freeze", why));
            }
            Some(before_end) => Some(end - before_end),
            None => None,
        };
        Ok(Schedule::Timed { start, end, freeze })
    }
}

/// An item of a list of the session file (`problems`, `languages`) that
/// names nothing known, as an error on the line that names it.
pub(crate) fn unknown_item(path: &Path, key: &str, item: &str, message: String) -> SpecError {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let line = text
        .find(&format!("\"{item}\""))
        .map_or(1, |at| line_of(&text, at));
    SpecError::Invalid(FieldError::on_line(path, line, key, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Session, SpecError> {
        Session::parse(text, Path::new("s.toml"))
    }

    /// The message of the error `text` gives.
    fn error_of(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_contest_with_a_freeze_is_read() {
        let session = parse(
            "title = \"Regional warm-up\"\nproblems = [\"sum\"]\n\
             start = \"2026-05-01T09:00:00Z\"\nduration = \"5h\"\nfreeze = \"1h\"\n\
             feedback = \"first-failure\"\n[limits]\nsource = \"10KiB\"\n",
        )
        .unwrap();
        assert_eq!(session.name, "s");
        assert_eq!(session.feedback, Feedback::FirstFailure);
        assert_eq!(session.max_source, 10 * 1024);
        let start = humantime::parse_rfc3339("2026-05-01T09:00:00Z").unwrap();
        assert_eq!(
            session.schedule(),
            Schedule::Timed {
                start,
                end: start + Duration::from_secs(5 * 3600),
                freeze: Some(start + Duration::from_secs(4 * 3600)),
            }
        );
        assert!(
            session
                .frozen_since(start + Duration::from_secs(4 * 3600 + 1))
                .is_some()
        );
        assert!(session.frozen_since(start).is_none());
    }

    #[test]
    fn errors_name_the_file_line_and_key() {
        let error = error_of("title = \"x\"\nscoring = \"elo\"\n");
        assert_eq!(
            error,
            "s.toml:2: key `scoring`: `elo`: write `icpc` or `points`"
        );
        let error = error_of("start = \"2026-05-01T09:00:00Z\"\nend = \"2026-04-01T09:00:00Z\"\n");
        assert!(error.starts_with("s.toml:2: key `end`"), "{error}");
        let error = error_of("title = \"x\"\n\ncolour = 3\n");
        assert!(
            error.contains("line 3") && error.contains("colour"),
            "{error}"
        );
        let error = error_of("freeze = \"1h\"\n");
        assert!(error.contains("open-ended"), "{error}");
    }

    #[test]
    fn every_refused_name_and_schedule_names_its_line_and_key() {
        const START: &str = "start = \"2026-05-01T09:00:00Z\"\n";
        let cases = [
            (
                "name = \"a b\"\n".to_string(),
                "s.toml:1: key `name`: letters, digits",
            ),
            (
                "end = \"2026-05-01T09:00:00Z\"\n".into(),
                "s.toml:1: key `start`: a session with an end or a duration needs a start",
            ),
            ("start = \"yesterday\"\n".into(), "s.toml:1: key `start`: "),
            (
                format!("{START}end = \"2026-05-01T10:00:00Z\"\nduration = \"1h\"\n"),
                "s.toml:2: key `end`: give either `end` or `duration`",
            ),
            (
                START.to_string(),
                "s.toml:1: key `end`: give either `end` or `duration`",
            ),
            (
                format!("{START}duration = \"an hour\"\n"),
                "s.toml:2: key `duration`: ",
            ),
            (
                format!("{START}duration = \"1h\"\nfreeze = \"2h\"\n"),
                "s.toml:3: key `freeze`: the freeze is longer than the session",
            ),
        ];
        for (text, wanted) in cases {
            let error = error_of(&text);
            assert!(error.starts_with(wanted), "{text:?} gave {error:?}");
        }
    }

    #[test]
    fn no_file_is_open_ended_practice() {
        let session = parse("").unwrap();
        assert_eq!(session.schedule(), Schedule::OpenEnded);
        assert!(session.is_open(SystemTime::now()));
        assert_eq!(
            session.scoring,
            Scoring::Icpc {
                penalty: DEFAULT_PENALTY
            }
        );
    }

    #[test]
    fn the_open_network_limits_are_read_and_refused_by_line_and_key() {
        let session = parse(
            "invitation = \"lab-3\"\n[limits]\nsignups-per-hour = 5\n\
             submissions-per-minute-per-address = 90\ntoken-lifetime = \"7d\"\n",
        )
        .unwrap();
        assert_eq!(session.invitation.as_deref(), Some("lab-3"));
        assert_eq!(session.signups_per_hour, 5);
        assert_eq!(session.submissions_per_minute_per_address, 90);
        assert_eq!(session.token_lifetime, Duration::from_secs(7 * 24 * 3600));
        let cases = [
            ("invitation = \" \"\n", "s.toml:1: key `invitation`: a code"),
            (
                "[limits]\nsignups-per-hour = 0\n",
                "s.toml:2: key `limits.signups-per-hour`: at least 1",
            ),
            (
                "[limits]\ntoken-lifetime = \"0s\"\n",
                "s.toml:2: key `limits.token-lifetime`: at least 1s",
            ),
            (
                "[limits]\ntoken-lifetime = \"forever\"\n",
                "s.toml:2: key `limits.token-lifetime`: ",
            ),
        ];
        for (text, wanted) in cases {
            let error = error_of(text);
            assert!(error.starts_with(wanted), "{text:?} gave {error:?}");
        }
    }
}
