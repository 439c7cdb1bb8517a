//! A rejudging under review (migration 10, `docs/store.md`): the jury
//! judges a problem's submissions again as a dry run. Each new judging is
//! kept beside the one in force (`valid = 0`, its report under a run of
//! the review's own), so that the jury sees which verdicts would change
//! before anything changes; applying it puts the new judgings in force
//! (their reports moved into the session's run), cancelling it forgets
//! them.

use super::DbError;
use super::accounts::now_text;
use super::engine::{Db, Sql};
use super::entries::{Claimed, entry, source};
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

/// A review as the jury's pages list it.
#[derive(Debug, Clone)]
pub(crate) struct Review {
    pub(crate) id: i64,
    pub(crate) problem: String,
    pub(crate) created_at: String,
    pub(crate) state: ReviewState,
}

/// One submission of a review: its verdict in force and its new one.
#[derive(Debug, Clone)]
pub(crate) struct ReviewRow {
    pub(crate) entry: i64,
    pub(crate) account: i64,
    pub(crate) username: String,
    pub(crate) before: Option<Verdict>,
    /// `None` while it is judged again.
    pub(crate) after: Option<Verdict>,
}

/// A new review of `problem` in `session`, its reports kept under `run`.
pub(crate) fn open(db: &mut Db, session: i64, problem: &str, run: i64) -> Result<i64, DbError> {
    db.insert(
        "INSERT INTO reviews (session_id, run_id, problem, created_at, state) \
         VALUES (?1, ?2, ?3, ?4, 'open')",
        params![session, run, problem, now_text()],
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
        "SELECT id, problem, created_at, state FROM reviews WHERE session_id = ?1 \
         ORDER BY id DESC",
        params![session],
    )?
    .iter()
    .map(|row| {
        Ok(Review {
            id: row.get(0)?,
            problem: row.get(1)?,
            created_at: row.get(2)?,
            state: state_of(&row.get::<String>(3)?),
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
    let mut tx = db.transaction()?;
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
    let entry = &claimed.entry;
    let record = super::SubmissionRecord {
        student: Some(entry.username.clone()),
        problem: entry.problem.clone(),
        path: Some(format!("#{} {}", entry.id, entry.file_name)),
        content_hash: Some(blake3::hash(&claimed.source).to_hex().to_string()),
        language: Some(entry.language.clone()),
        build_hash: None,
        report: Some(report),
        tests: Vec::new(),
        judged_by: None,
        handin: None,
    };
    let submission = super::write::insert_submission(&mut tx, run, &record)?;
    tx.execute(
        "UPDATE judgings SET finished_at = ?2, submission_id = ?3, verdict = ?4, score = ?5 \
         WHERE id = ?1",
        params![
            claimed.judging,
            now_text(),
            submission,
            report.verdict.short(),
            report.score
        ],
    )?;
    tx.commit()
}

/// Every submission of `review`, with its verdict in force and its new one.
pub(crate) fn rows(db: &mut impl Sql, review: i64) -> Result<Vec<ReviewRow>, DbError> {
    db.query(
        "SELECT e.id, e.account_id, a.username, \
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
            before: verdict(row.get(3)?),
            after: verdict(row.get(4)?),
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
    let mut tx = db.transaction()?;
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
