//! The one access rule of the server: who may see which problem, entry,
//! result, feedback and scoreboard, at this moment. Every page, API
//! endpoint and event stream asks an [`Access`] (DOMjudge's
//! `SubmissionRestriction` is the model); nobody re-spells "own entry or
//! jury", the freeze or the start.
//!
//! - Problems (statements, samples, the API's list, the play page) exist
//!   for the jury always, for everybody else from the session's start on:
//!   before it, the clock is all there is to see.
//! - An entry exists for its owner and the jury; for anybody else it is
//!   not there (404, so that ids are not confirmed).
//! - A result is seen by its owner and the jury; by anybody else (through
//!   the scoreboard) unless it was submitted after the freeze.
//! - Feedback: the jury everything; the owner what `feedback` allows, and
//!   of a secret test never more than whether it stayed within its limits.
//! - Live progress ("test 3 of 5") only where the feedback shows tests.
//! - A clarification reaches the jury always; a participant when it is
//!   their own question, a message to them, or a message to everybody; the
//!   public only messages to everybody.

use std::time::SystemTime;

use super::error::AppError;
use super::http::Viewer;
use super::problem_page::ProblemPage;
use super::session::{Feedback, Session};
use crate::store::clarifications::Clarification;
use crate::store::entries::Entry;
use crate::store::entries::Status;
use crate::verdict::Verdict;

/// Whether `clarification` reaches `viewer` (the rule of the pages and the
/// CCS API alike; it does not depend on the hour).
pub(crate) fn clarification_reaches(viewer: &Viewer, clarification: &Clarification) -> bool {
    let to_everybody = clarification.from.is_none() && clarification.to.is_none();
    match viewer.account() {
        Some(account) if account.is_jury() => true,
        Some(account) => {
            to_everybody
                || clarification.from == Some(account.id)
                || clarification.to == Some(account.id)
        }
        None => to_everybody,
    }
}

/// Which scoreboard a viewer gets; each is computed once and cached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum BoardView {
    /// Every result.
    Jury,
    /// Results up to the freeze, when frozen.
    Public { frozen_since: Option<SystemTime> },
}

/// How much of a judged entry a viewer may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FeedbackLevel {
    /// Every test in full, by its name.
    Jury,
    /// Its owner, under the session's `feedback`.
    Owner(Feedback),
}

/// Where an entry stands, as a viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Standing {
    Queued,
    /// Compiling, "test 3 of 5" (where the feedback shows tests), or
    /// `running`.
    Running(String),
    Judged(Verdict),
}

impl Standing {
    /// As a status cell shows it: the state, or the verdict's short name.
    pub(crate) fn text(&self) -> String {
        match self {
            Standing::Queued => super::live::QUEUED.into(),
            Standing::Running(progress) => progress.clone(),
            Standing::Judged(verdict) => verdict.short().into(),
        }
    }
}

/// The access rule for one viewer at one moment.
pub(crate) struct Access<'a> {
    session: &'a Session,
    viewer: &'a Viewer,
    now: SystemTime,
}

impl<'a> Access<'a> {
    pub(crate) fn new(session: &'a Session, viewer: &'a Viewer) -> Access<'a> {
        Access::at(session, viewer, SystemTime::now())
    }

    pub(crate) fn at(session: &'a Session, viewer: &'a Viewer, now: SystemTime) -> Access<'a> {
        Access {
            session,
            viewer,
            now,
        }
    }

    pub(crate) fn is_jury(&self) -> bool {
        self.viewer.is_jury()
    }

    fn account_id(&self) -> Option<i64> {
        self.viewer.account().map(|a| a.id)
    }

    /// Whether the problems exist for this viewer: the jury's always,
    /// everybody's once the session has started (a private session's
    /// login wall is the guard's, in `routes.rs`).
    pub(crate) fn sees_problems(&self) -> bool {
        self.is_jury() || self.session.start().is_none_or(|start| start <= self.now)
    }

    /// `problem`, if it exists for this viewer.
    pub(crate) fn problem<'p>(
        &self,
        problem: Option<&'p ProblemPage>,
    ) -> Result<&'p ProblemPage, AppError> {
        problem
            .filter(|_| self.sees_problems())
            .ok_or(AppError::NotFound)
    }

    /// Whether submissions are taken from this viewer now.
    pub(crate) fn may_submit(&self) -> bool {
        self.is_jury() || self.session.is_open(self.now)
    }

    /// Whether this viewer may play `problem` on its play page: an
    /// interactive problem with sample tests (a game is only ever played
    /// on a sample: a secret test's referee would show its secret), during
    /// the session's hours (the jury at any time).
    pub(crate) fn may_play(&self, problem: &ProblemPage) -> bool {
        problem.interactive && problem.sample_tests > 0 && self.may_submit()
    }

    /// Whether `entry` exists for this viewer: their own, or the jury's.
    pub(crate) fn sees_entry(&self, entry: &Entry) -> bool {
        self.is_jury() || self.account_id() == Some(entry.account)
    }

    /// `entry`, if it exists for this viewer (else 404, never 403).
    pub(crate) fn entry(&self, entry: Option<Entry>) -> Result<Entry, AppError> {
        entry
            .filter(|e| self.sees_entry(e))
            .ok_or(AppError::NotFound)
    }

    /// Whether this viewer may learn the result of a submission by
    /// `account` made at `submitted_at`: its owner and the jury always,
    /// anybody else unless the freeze hides it.
    pub(crate) fn sees_result(&self, account: i64, submitted_at: SystemTime) -> bool {
        self.is_jury()
            || self.account_id() == Some(account)
            || self
                .session
                .frozen_since(self.now)
                .is_none_or(|freeze| submitted_at < freeze)
    }

    /// How much of `entry`'s judging this viewer sees (`sees_entry` first).
    pub(crate) fn feedback(&self) -> FeedbackLevel {
        if self.is_jury() {
            FeedbackLevel::Jury
        } else {
            FeedbackLevel::Owner(self.session.feedback)
        }
    }

    /// Which scoreboard this viewer gets.
    pub(crate) fn board(&self) -> BoardView {
        if self.is_jury() {
            BoardView::Jury
        } else {
            BoardView::Public {
                frozen_since: self.session.frozen_since(self.now),
            }
        }
    }

    /// Whether `clarification` reaches this viewer.
    pub(crate) fn sees_clarification(&self, clarification: &Clarification) -> bool {
        clarification_reaches(self.viewer, clarification)
    }

    /// Where `entry` stands for this viewer (`progress`: its judging's live
    /// status, while it runs).
    pub(crate) fn standing(&self, entry: &Entry, progress: Option<String>) -> Standing {
        match (entry.status, entry.verdict) {
            (Status::Judged, Some(verdict)) => Standing::Judged(verdict),
            (Status::Running, _) => Standing::Running(self.progress(progress)),
            _ => Standing::Queued,
        }
    }

    /// A running entry's status as this viewer may see it: "test 3 of 5"
    /// only where the feedback shows tests (verdict-only feedback says
    /// `running` until the verdict: the test count would tell how far a
    /// submission got).
    pub(crate) fn progress(&self, progress: Option<String>) -> String {
        match (self.feedback(), progress) {
            (FeedbackLevel::Owner(Feedback::Verdict), Some(p)) if p.starts_with("test ") => {
                "running".into()
            }
            (_, Some(p)) => p,
            (_, None) => "running".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::serve::accounts::{Account, Login, Role};
    use crate::serve::session::Schedule;

    fn viewer(id: i64, role: Role) -> Viewer {
        Viewer {
            login: Some(Login {
                account: Account {
                    id,
                    username: format!("u{id}"),
                    display_name: format!("U{id}"),
                    team: None,
                    role,
                    disabled: false,
                },
                csrf: String::new(),
            }),
            ..Viewer::default()
        }
    }

    fn contest(start: SystemTime) -> Session {
        let mut session = Session::practice();
        session.planned = Schedule::Timed {
            start,
            end: start + Duration::from_secs(5 * 3600),
            freeze: Some(start + Duration::from_secs(4 * 3600)),
        };
        session
    }

    #[test]
    fn before_the_start_only_the_jury_sees_problems() {
        let now = SystemTime::now();
        let session = contest(now + Duration::from_secs(7200));
        let alice = viewer(1, Role::Participant);
        let jury = viewer(2, Role::Jury);
        let nobody = Viewer::default();
        assert!(!Access::at(&session, &alice, now).sees_problems());
        assert!(!Access::at(&session, &nobody, now).sees_problems());
        assert!(Access::at(&session, &jury, now).sees_problems());
        let later = now + Duration::from_secs(7200);
        assert!(Access::at(&session, &nobody, later).sees_problems());
    }

    #[test]
    fn the_freeze_hides_others_results_but_never_ones_own() {
        let start = SystemTime::now();
        let session = contest(start);
        let during = start + Duration::from_secs(4 * 3600 + 60);
        let late = start + Duration::from_secs(4 * 3600 + 30);
        let early = start + Duration::from_secs(60);
        let alice = viewer(1, Role::Participant);
        let bob = viewer(3, Role::Participant);
        let jury = viewer(2, Role::Jury);
        assert!(Access::at(&session, &alice, during).sees_result(1, late));
        assert!(!Access::at(&session, &bob, during).sees_result(1, late));
        assert!(Access::at(&session, &bob, during).sees_result(1, early));
        assert!(Access::at(&session, &jury, during).sees_result(1, late));
        assert_eq!(
            Access::at(&session, &bob, during).board(),
            BoardView::Public {
                frozen_since: session.frozen_since(during)
            }
        );
    }

    #[test]
    fn verdict_only_feedback_shows_no_test_count() {
        let mut session = Session::practice();
        session.feedback = Feedback::Verdict;
        let alice = viewer(1, Role::Participant);
        let jury = viewer(2, Role::Jury);
        let progress = Some("test 3 of 4".to_string());
        assert_eq!(
            Access::new(&session, &alice).progress(progress.clone()),
            "running"
        );
        assert_eq!(
            Access::new(&session, &alice).progress(Some("compiling".into())),
            "compiling"
        );
        assert_eq!(
            Access::new(&session, &jury).progress(progress),
            "test 3 of 4"
        );
    }
}
