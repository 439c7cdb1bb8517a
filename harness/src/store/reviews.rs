//! A rejudging under review (migrations 10 and 11, `docs/store.md`):
//! the jury judges again the submissions of a scope (a problem, a
//! participant, a language, those since a time, or any combination) as a
//! dry run. Each new judging is kept beside the one in force (`valid =
//! 0`, its report under a run of the review's own), so that the jury sees
//! which verdicts would change before anything changes; applying it puts
//! the new judgings in force (their reports moved into the session's
//! run), cancelling it forgets them.

use std::time::SystemTime;

use super::DbError;
use super::accounts::now_text;
use super::engine::{Db, Sql};
use super::entries::{Claimed, Filter, Status, entry, source};
use super::value::params;
use crate::runner::TaskReport;
use crate::verdict::Verdict;

/// Where a review stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReviewState {
    /// Its submissions are being judged again, or wait for the jury.
    Open,
    Applied,
    Cancelled,
}

impl ReviewState {
    /// The state as the store and the pages spell it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ReviewState::Open => "open",
            ReviewState::Applied => "applied",
            ReviewState::Cancelled => "cancelled",
        }
    }
}

/// Which submissions a review judges again: those that every given part
/// lets through (none given: every submission of the session).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Scope {
    pub(crate) problem: Option<String>,
    /// The participant's account.
    pub(crate) account: Option<i64>,
    /// The language's key.
    pub(crate) language: Option<String>,
    /// Submitted at this time or later.
    pub(crate) since: Option<SystemTime>,
}

impl Scope {
    /// The entries list's filter for the scope's judged submissions.
    pub(crate) fn filter(&self) -> Filter {
        Filter {
            account: self.account,
            problem: self.problem.clone(),
            language: self.language.clone(),
            since: self.since,
            status: Some(Status::Judged),
            verdict: None,
        }
    }
}

/// A review as the jury's pages list it.
#[derive(Debug, Clone)]
pub(crate) struct Review {
    pub(crate) id: i64,
    pub(crate) scope: Scope,
    /// The username of the scope's participant.
    pub(crate) participant: Option<String>,
    /// How many submissions it judges again (`None`: a review from before
    /// migration 11, which did not count them).
    pub(crate) covered: Option<usize>,
    pub(crate) created_at: String,
    pub(crate) state: ReviewState,
}

/// One submission of a review: its verdict in force and its new one.
#[derive(Debug, Clone)]
pub(crate) struct ReviewRow {
    pub(crate) entry: i64,
    pub(crate) account: i64,
    pub(crate) username: String,
    pub(crate) problem: String,
    pub(crate) before: Option<Verdict>,
    /// `None` while it is judged again.
    pub(crate) after: Option<Verdict>,
}

/// A new review of `scope` in `session` judging `covered` submissions
/// again, its reports kept under `run`.
pub(crate) fn open(
    db: &mut Db,
    session: i64,
    (scope, covered): (&Scope, usize),
    run: i64,
) -> Result<i64, DbError> {
    db.insert(
        "INSERT INTO reviews (session_id, run_id, problem, account_id, language, since, \
         created_at, state, covered) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'open', ?8)",
        params![
            session,
            run,
            // Every problem: '' (the column is NOT NULL since migration 10).
            scope.problem.as_deref().unwrap_or_default(),
            scope.account,
            scope.language,
            scope
                .since
                .map(|t| humantime::format_rfc3339_millis(t).to_string()),
            now_text(),
            covered
        ],
    )
}

fn state_of(text: &str) -> ReviewState {
    match text {
        "applied" => ReviewState::Applied,
        "cancelled" => ReviewState::Cancelled,
        _ => ReviewState::Open,
    }
}

/// The reviews of `session`, newest first.
pub(crate) fn reviews(db: &mut impl Sql, session: i64) -> Result<Vec<Review>, DbError> {
    db.query(
        "SELECT r.id, r.problem, r.account_id, a.username, r.language, r.since, r.created_at, \
         r.state, r.covered FROM reviews r LEFT JOIN accounts a ON a.id = r.account_id \
         WHERE r.session_id = ?1 ORDER BY r.id DESC",
        params![session],
    )?
    .iter()
    .map(|row| {
        let problem: String = row.get(1)?;
        let since: Option<String> = row.get(5)?;
        Ok(Review {
            id: row.get(0)?,
            scope: Scope {
                problem: Some(problem).filter(|p| !p.is_empty()),
                account: row.get(2)?,
                language: row.get(4)?,
                since: since.and_then(|t| humantime::parse_rfc3339(&t).ok()),
            },
            participant: row.get(3)?,
            covered: row.get::<Option<i64>>(8)?.map(|n| n.max(0) as usize),
            created_at: row.get(6)?,
            state: state_of(&row.get::<String>(7)?),
        })
    })
    .collect()
}

/// Entry `id` claimed for `review`: a judging of it opened beside the one
/// in force (the entry stays as it is for everybody else).
pub(crate) fn claim(
    db: &mut Db,
    session: i64,
    review: i64,
    id: i64,
) -> Result<Option<Claimed>, DbError> {
    // The write lock from the start: a read first and a write after it in
    // a deferred transaction fails at once (SQLite's BUSY_SNAPSHOT, no
    // waiting) when another judging thread committed in between, and the
    // submission was lost to the review.
    let mut tx = db.immediate()?;
    let Some(entry) = entry(&mut tx, session, id)? else {
        return Ok(None);
    };
    let judging = tx.insert(
        "INSERT INTO judgings (entry_id, started_at, valid, review_id) VALUES (?1, ?2, 0, ?3)",
        params![id, now_text(), review],
    )?;
    let source = source(&mut tx, id)?;
    tx.commit()?;
    Ok(Some(Claimed {
        judging,
        entry,
        source,
    }))
}

/// Records a review's judging: its report under the review's `run`, the
/// judging finished but not in force.
pub(crate) fn record(
    db: &mut Db,
    run: i64,
    claimed: &Claimed,
    report: &TaskReport,
) -> Result<(), DbError> {
    let mut tx = db.transaction()?;
    super::entries::finish_judging(&mut tx, run, claimed, report, None)?;
    tx.commit()
}

/// Every submission of `review`, with its verdict in force and its new one.
pub(crate) fn rows(db: &mut impl Sql, review: i64) -> Result<Vec<ReviewRow>, DbError> {
    db.query(
        "SELECT e.id, e.account_id, a.username, e.problem, \
         (SELECT verdict FROM judgings WHERE entry_id = e.id AND valid = 1 \
             AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1), \
         r.verdict \
         FROM judgings r JOIN entries e ON e.id = r.entry_id \
         JOIN accounts a ON a.id = e.account_id \
         WHERE r.review_id = ?1 ORDER BY e.id",
        params![review],
    )?
    .iter()
    .map(|row| {
        let verdict = |text: Option<String>| text.as_deref().and_then(Verdict::from_short);
        Ok(ReviewRow {
            entry: row.get(0)?,
            account: row.get(1)?,
            username: row.get(2)?,
            problem: row.get(3)?,
            before: verdict(row.get(4)?),
            after: verdict(row.get(5)?),
        })
    })
    .collect()
}

/// Puts `review`'s finished judgings in force: each replaces its entry's
/// judging in force, its report moved into the session's run `run` (the
/// one it replaces gone from it). Returns the rows whose verdict changed.
pub(crate) fn apply(db: &mut Db, review: i64, run: i64) -> Result<Vec<ReviewRow>, DbError> {
    let changed: Vec<ReviewRow> = rows(db, review)?
        .into_iter()
        .filter(|r| r.after.is_some() && r.after != r.before)
        .collect();
    // Read, then written: the write lock from the start (as in `claim`).
    let mut tx = db.immediate()?;
    let judgings = tx.query(
        "SELECT id, entry_id, submission_id FROM judgings \
         WHERE review_id = ?1 AND finished_at IS NOT NULL",
        params![review],
    )?;
    for row in &judgings {
        let (judging, entry, submission): (i64, i64, Option<i64>) =
            (row.get(0)?, row.get(1)?, row.get(2)?);
        tx.execute(
            "DELETE FROM submissions WHERE id IN (SELECT submission_id FROM judgings \
             WHERE entry_id = ?1 AND id <> ?2 AND valid = 1 AND submission_id IS NOT NULL)",
            params![entry, judging],
        )?;
        tx.execute(
            "UPDATE judgings SET valid = 0 WHERE entry_id = ?1 AND id <> ?2",
            params![entry, judging],
        )?;
        tx.execute(
            "UPDATE judgings SET valid = 1 WHERE id = ?1",
            params![judging],
        )?;
        tx.execute(
            "UPDATE submissions SET run_id = ?2 WHERE id = ?1",
            params![submission, run],
        )?;
    }
    tx.execute(
        "UPDATE reviews SET state = 'applied' WHERE id = ?1",
        params![review],
    )?;
    tx.commit()?;
    Ok(changed)
}

/// Forgets `review`: its judgings and their reports are gone, nothing
/// changed.
pub(crate) fn cancel(db: &mut Db, review: i64) -> Result<(), DbError> {
    let mut tx = db.transaction()?;
    tx.execute(
        "DELETE FROM submissions WHERE id IN (SELECT submission_id FROM judgings \
         WHERE review_id = ?1 AND submission_id IS NOT NULL)",
        params![review],
    )?;
    tx.execute("DELETE FROM judgings WHERE review_id = ?1", params![review])?;
    tx.execute(
        "UPDATE reviews SET state = 'cancelled' WHERE id = ?1",
        params![review],
    )?;
    tx.commit()
}
