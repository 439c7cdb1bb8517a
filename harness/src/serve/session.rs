//! A session: what a practice session or contest serves and how, as its
//! file says (`session_file.rs` reads it) and as the jury changed it while
//! it runs (`JuryChanges`).

use std::time::{Duration, SystemTime};

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
pub(super) const DEFAULT_TOKEN_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// ICPC's 20 minutes per rejected try.
pub(super) const DEFAULT_PENALTY: Duration = Duration::from_secs(20 * 60);

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
