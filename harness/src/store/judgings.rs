//! Each judging of a served submission as the jury and the CCS API read
//! them (migration 4's `judgings`, `docs/store.md`): every judging of an
//! entry, a rejudged one kept and marked replaced, and the test runs of
//! those whose record remains. Judgings are written by `entries.rs`
//! (claimed, recorded) and `reviews.rs` (judged again under review).

use super::DbError;
use super::engine::Sql;
use super::value::{Row, params};

/// Every finished judging of a session, oldest first: (judging, entry,
/// started, finished, verdict, valid) for the API's judgements.
pub(crate) struct Judging {
    pub(crate) id: i64,
    pub(crate) entry: i64,
    pub(crate) started_at: String,
    pub(crate) finished_at: Option<String>,
    pub(crate) verdict: Option<String>,
    pub(crate) score: Option<f64>,
    pub(crate) valid: bool,
}

/// Every judging of `entry`, oldest first.
pub(crate) fn judgings_of(db: &mut impl Sql, entry: i64) -> Result<Vec<Judging>, DbError> {
    db.query(
        "SELECT id, entry_id, started_at, finished_at, verdict, score, valid FROM judgings \
         WHERE entry_id = ?1 ORDER BY id",
        params![entry],
    )?
    .iter()
    .map(judging_from_row)
    .collect()
}

fn judging_from_row(row: &Row) -> Result<Judging, DbError> {
    Ok(Judging {
        id: row.get(0)?,
        entry: row.get(1)?,
        started_at: row.get(2)?,
        finished_at: row.get(3)?,
        verdict: row.get(4)?,
        score: row.get(5)?,
        valid: row.get(6)?,
    })
}

pub(crate) fn judgings(db: &mut impl Sql, session: i64) -> Result<Vec<Judging>, DbError> {
    db.query(
        "SELECT j.id, j.entry_id, j.started_at, j.finished_at, j.verdict, j.score, j.valid \
         FROM judgings j JOIN entries e ON e.id = j.entry_id WHERE e.session_id = ?1 \
         ORDER BY j.id",
        params![session],
    )?
    .iter()
    .map(judging_from_row)
    .collect()
}

/// One test's run of a finished judging (the CCS API's runs): the test
/// result's id, its judging, its place in the judging's order, verdict
/// and CPU time, and when the judging finished.
#[derive(Debug, Clone)]
pub(crate) struct TestRun {
    pub(crate) id: i64,
    pub(crate) judging: i64,
    pub(crate) ordinal: i64,
    pub(crate) verdict: String,
    pub(crate) cpu_ms: i64,
    pub(crate) finished_at: String,
}

/// The test runs of every finished judging of a session that still has
/// its record (a rejudge drops the earlier record's tests), in order.
pub(crate) fn test_runs(db: &mut impl Sql, session: i64) -> Result<Vec<TestRun>, DbError> {
    db.query(
        "SELECT t.id, j.id, t.ordinal, t.verdict, t.cpu_ms, j.finished_at FROM test_results t \
         JOIN judgings j ON j.submission_id = t.submission_id \
         JOIN entries e ON e.id = j.entry_id \
         WHERE e.session_id = ?1 AND j.finished_at IS NOT NULL ORDER BY j.id, t.ordinal",
        params![session],
    )?
    .iter()
    .map(|row| {
        Ok(TestRun {
            id: row.get(0)?,
            judging: row.get(1)?,
            ordinal: row.get(2)?,
            verdict: row.get(3)?,
            cpu_ms: row.get(4)?,
            finished_at: row.get(5)?,
        })
    })
    .collect()
}
