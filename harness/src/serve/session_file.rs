//! The session file (`session.toml`) read: in two steps, as
//! `problem.toml` is, the raw TOML mirror (`RawSession`, unknown keys
//! refused) and the validated `Session` (`session.rs`). Every error names
//! the file, the line and the key.

use std::ops::Range;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::Deserialize;
use toml::Spanned;

use super::session::{DEFAULT_PENALTY, Feedback, Medals, Schedule, Scoring, Session};
use crate::spec::{FieldError, SpecError, line_of};

impl Session {
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
