//! The judging queue in the store (migration 6): `grade --class --queue`
//! puts a class's files on it, `judge worker`s on any number of machines
//! take them. A job is claimed under a lease on the database's clock
//! (never a worker's own) and a fencing number: each claim adds one to
//! `fence`, so a worker that vanished (killed, stopped, cut off) has its
//! job taken again once the lease has passed, and its late result, which
//! carries the old number, is refused. The result and the job's `done`
//! are written in one transaction: a submission is recorded once.
//!
//! PostgreSQL claims with `FOR UPDATE SKIP LOCKED` (workers pass over each
//! other's rows); SQLite's immediate transaction is the one writer.

use super::engine::{Db, DbError, Dialect, Sql, Tx};
use super::value::{Value, params};
use super::write::{SubmissionRecord, insert_submission};

/// A file to judge, as `grade --class --queue` puts it on the queue.
pub(crate) struct NewJob<'a> {
    pub(crate) run: i64,
    pub(crate) problem: &'a str,
    /// Names the exact package the file is judged with.
    pub(crate) package_hash: &'a str,
    /// The problem's (settled) limits on the queuing machine.
    pub(crate) time_us: u64,
    pub(crate) wall_us: u64,
    pub(crate) student: Option<&'a str>,
    /// The file as reports show it.
    pub(crate) path: &'a str,
    pub(crate) file_name: &'a str,
    pub(crate) language: &'a str,
    pub(crate) source: &'a [u8],
    pub(crate) fail_fast: bool,
    /// The student's how-manieth file: jobs are taken turn by turn, so
    /// every student's first file goes before anyone's second.
    pub(crate) turn: usize,
    /// The `judge serve` submission this job judges (`serve --workers 0`),
    /// recorded as that entry's judging; `None` for a class's file.
    pub(crate) entry: Option<i64>,
}

/// The channel on which a new job is announced (PostgreSQL), so that an
/// idle worker wakes at once instead of at its next look.
const JOBS_CHANNEL: &str = "judge_jobs";

pub(crate) fn enqueue(db: &mut impl Sql, job: &NewJob<'_>) -> Result<i64, DbError> {
    let now = db.dialect().now_ms();
    db.insert(
        &format!(
            "INSERT INTO jobs (run_id, problem, package_hash, time_us, wall_us, student, path, \
             file_name, language, source, fail_fast, turn, entry_id, state, queued_at) VALUES \
             (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'queued', {now})"
        ),
        params![
            job.run,
            job.problem,
            job.package_hash,
            job.time_us,
            job.wall_us,
            job.student,
            job.path,
            job.file_name,
            job.language,
            job.source,
            job.fail_fast,
            job.turn,
            job.entry,
        ],
    )
}

/// Wakes the idle workers after jobs were queued (PostgreSQL's `NOTIFY`,
/// delivered when the queuing transaction commits; nothing on SQLite,
/// whose workers look every `IDLE_POLL`).
pub(crate) fn announce(db: &mut impl Sql) -> Result<(), DbError> {
    if db.dialect() == Dialect::Postgres {
        db.execute(&format!("NOTIFY {JOBS_CHANNEL}"), &[])?;
    }
    Ok(())
}

/// Lets this connection hear `announce` (PostgreSQL).
pub(crate) fn listen(db: &mut Db) -> Result<(), DbError> {
    if let Db::Postgres(pg) = db {
        pg.batch(&format!("LISTEN {JOBS_CHANNEL}"))?;
    }
    Ok(())
}

/// Waits up to `wait` for new jobs to be announced on a connection that
/// `listen`s (PostgreSQL), or simply `wait` (SQLite).
pub(crate) fn wait_for_jobs(db: &mut Db, wait: std::time::Duration) -> Result<(), DbError> {
    match db {
        Db::Postgres(pg) => pg.notifications(wait).map(drop),
        Db::Sqlite(_) => {
            std::thread::sleep(wait);
            Ok(())
        }
    }
}

/// A job a worker holds: its row, and the fencing number of this claim.
#[derive(Debug, Clone)]
pub(crate) struct Claimed {
    pub(crate) id: i64,
    pub(crate) fence: i64,
    pub(crate) run: i64,
    pub(crate) problem: String,
    pub(crate) package_hash: String,
    pub(crate) time_us: i64,
    pub(crate) wall_us: i64,
    pub(crate) student: Option<String>,
    pub(crate) path: String,
    pub(crate) file_name: String,
    pub(crate) language: String,
    pub(crate) source: Vec<u8>,
    pub(crate) fail_fast: bool,
    /// The `judge serve` submission it judges, if it is one.
    pub(crate) entry: Option<i64>,
}

/// Takes the next job judged with one of `hashes` (a worker never takes
/// one whose package it does not have): a queued one, or a running one
/// whose lease has passed. `None`: nothing to take.
pub(crate) fn claim(
    db: &mut Db,
    worker: &str,
    hashes: &[String],
    lease_ms: i64,
) -> Result<Option<Claimed>, DbError> {
    if hashes.is_empty() {
        return Ok(None);
    }
    let dialect = db.dialect();
    let now = dialect.now_ms();
    let wanted: Vec<String> = (0..hashes.len()).map(|i| format!("?{}", i + 1)).collect();
    let mut tx = db.immediate()?;
    let hash_values: Vec<Value> = hashes.iter().map(|h| Value::Text(h.clone())).collect();
    let Some(row) = tx.query_opt(
        &format!(
            "SELECT id FROM jobs WHERE (state = 'queued' OR (state = 'running' AND \
             lease_until < {now})) AND package_hash IN ({}) ORDER BY turn, id LIMIT 1{}",
            wanted.join(", "),
            dialect.lock_skipping_taken()
        ),
        &hash_values,
    )?
    else {
        return Ok(None);
    };
    let id: i64 = row.get(0)?;
    let row = tx.query_one(
        &format!(
            "UPDATE jobs SET state = 'running', fence = fence + 1, worker = ?2, \
             lease_until = {now} + ?3, claims = claims + 1, claimed_at = {now} WHERE id = ?1 \
             RETURNING fence, run_id, problem, package_hash, time_us, wall_us, student, path, \
             file_name, language, source, fail_fast, entry_id"
        ),
        params![id, worker, lease_ms],
    )?;
    tx.execute(
        "UPDATE workers SET running = running + 1 WHERE name = ?1",
        params![worker],
    )?;
    tx.commit()?;
    Ok(Some(Claimed {
        id,
        fence: row.get(0)?,
        run: row.get(1)?,
        problem: row.get(2)?,
        package_hash: row.get(3)?,
        time_us: row.get(4)?,
        wall_us: row.get(5)?,
        student: row.get(6)?,
        path: row.get(7)?,
        file_name: row.get(8)?,
        language: row.get(9)?,
        source: row.get(10)?,
        fail_fast: row.get(11)?,
        entry: row.get(12)?,
    }))
}

/// Extends the leases of the jobs `held` ((id, fence) of this worker's
/// claims; a claim taken over since is left alone) and says the worker is
/// alive.
pub(crate) fn heartbeat(
    db: &mut Db,
    worker: &str,
    held: &[(i64, i64)],
    lease_ms: i64,
) -> Result<(), DbError> {
    let now = db.dialect().now_ms();
    let mut tx = db.transaction()?;
    for (id, fence) in held {
        tx.execute(
            &format!(
                "UPDATE jobs SET lease_until = {now} + ?3 \
                 WHERE id = ?1 AND fence = ?2 AND state = 'running'"
            ),
            params![id, fence, lease_ms],
        )?;
    }
    tx.execute(
        &format!("UPDATE workers SET heartbeat_at = {now}, running = ?2 WHERE name = ?1"),
        params![worker, held.len()],
    )?;
    tx.commit()
}

/// What became of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finished {
    /// Recorded as this submission.
    Recorded(i64),
    /// Refused: the lease passed and the job was claimed again (or is
    /// done) since this claim.
    Refused,
}

/// Records the result of `job` if this claim still holds it: the
/// submission and the job's `done` in one transaction.
pub(crate) fn finish(
    db: &mut Db,
    worker: &str,
    job: &Claimed,
    record: &SubmissionRecord<'_>,
) -> Result<Finished, DbError> {
    finish_with(db, worker, job, |tx| insert_submission(tx, job.run, record))
}

/// `finish` with the result written by `write` (which returns the
/// submission's id) inside the transaction that checks the claim.
pub(crate) fn finish_with(
    db: &mut Db,
    worker: &str,
    job: &Claimed,
    write: impl FnOnce(&mut Tx<'_>) -> Result<i64, DbError>,
) -> Result<Finished, DbError> {
    let dialect = db.dialect();
    let now = dialect.now_ms();
    let mut tx = db.immediate()?;
    let row = tx.query_one(
        &format!(
            "SELECT fence, state FROM jobs WHERE id = ?1{}",
            dialect.lock_row()
        ),
        params![job.id],
    )?;
    let (fence, state): (i64, String) = (row.get(0)?, row.get(1)?);
    if fence != job.fence || state != "running" {
        drop(tx);
        db.execute(
            "UPDATE workers SET refused = refused + 1 WHERE name = ?1",
            params![worker],
        )?;
        return Ok(Finished::Refused);
    }
    let submission = write(&mut tx)?;
    tx.execute(
        &format!(
            "UPDATE jobs SET state = 'done', finished_at = {now}, lease_until = NULL, \
             submission_id = ?2 WHERE id = ?1"
        ),
        params![job.id, submission],
    )?;
    tx.execute(
        "UPDATE workers SET judged = judged + 1 WHERE name = ?1",
        params![worker],
    )?;
    tx.commit()?;
    Ok(Finished::Recorded(submission))
}

/// Gives a job back unjudged (its worker is stopping): queued again at
/// once, if this claim still holds it.
pub(crate) fn hand_back(db: &mut Db, job: &Claimed) -> Result<(), DbError> {
    db.execute(
        "UPDATE jobs SET state = 'queued', worker = NULL, lease_until = NULL \
         WHERE id = ?1 AND fence = ?2 AND state = 'running'",
        params![job.id, job.fence],
    )?;
    Ok(())
}

/// How many of run `run`'s jobs are done, of how many.
pub(crate) fn progress(db: &mut Db, run: i64) -> Result<(usize, usize), DbError> {
    let row = db.query_one(
        "SELECT COUNT(CASE WHEN state = 'done' THEN 1 END), COUNT(*) FROM jobs WHERE run_id = ?1",
        params![run],
    )?;
    let count = |i| row.get::<i64>(i).map(|n| n.max(0) as usize);
    Ok((count(0)?, count(1)?))
}

/// A worker as it says itself in the `workers` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerInfo {
    pub name: String,
    pub machine: String,
    pub judge_version: String,
    pub isolation: String,
    pub threads: usize,
}

/// A row of `judge workers`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerRow {
    pub info: WorkerInfo,
    pub state: String,
    pub running: i64,
    pub judged: i64,
    pub refused: i64,
    /// Milliseconds since its last heartbeat, on the database's clock.
    pub silent_ms: i64,
}

/// Says a worker is starting (again, under the same name).
pub(crate) fn register(db: &mut Db, worker: &WorkerInfo) -> Result<(), DbError> {
    let now = db.dialect().now_ms();
    db.execute(
        &format!(
            "INSERT INTO workers (name, machine, judge_version, isolation, threads, state, \
             started_at, heartbeat_at) VALUES (?1, ?2, ?3, ?4, ?5, 'running', {now}, {now}) \
             ON CONFLICT (name) DO UPDATE SET machine = excluded.machine, \
             judge_version = excluded.judge_version, isolation = excluded.isolation, \
             threads = excluded.threads, state = 'running', running = 0, \
             started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at"
        ),
        params![
            worker.name,
            worker.machine,
            worker.judge_version,
            worker.isolation,
            worker.threads,
        ],
    )?;
    Ok(())
}

/// Says a worker has stopped.
pub(crate) fn stopped(db: &mut Db, worker: &str) -> Result<(), DbError> {
    let now = db.dialect().now_ms();
    db.execute(
        &format!(
            "UPDATE workers SET state = 'stopped', running = 0, heartbeat_at = {now} \
             WHERE name = ?1"
        ),
        params![worker],
    )?;
    Ok(())
}

/// Every worker that ever registered, by name.
pub(crate) fn workers(db: &mut Db) -> Result<Vec<WorkerRow>, DbError> {
    let now = db.dialect().now_ms();
    db.query(
        &format!(
            "SELECT name, machine, judge_version, isolation, threads, state, running, judged, \
             refused, {now} - heartbeat_at FROM workers ORDER BY name"
        ),
        &[],
    )?
    .into_iter()
    .map(|row| {
        Ok(WorkerRow {
            info: WorkerInfo {
                name: row.get(0)?,
                machine: row.get(1)?,
                judge_version: row.get(2)?,
                isolation: row.get(3)?,
                threads: row.get::<i64>(4)?.max(0) as usize,
            },
            state: row.get(5)?,
            running: row.get(6)?,
            judged: row.get(7)?,
            refused: row.get(8)?,
            silent_ms: row.get(9)?,
        })
    })
    .collect()
}

impl Dialect {
    /// What ends a `SELECT` of one row the transaction is about to
    /// change: PostgreSQL locks it; SQLite's immediate transaction
    /// already holds the one write lock.
    pub(crate) fn lock_row(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn job<'a>(run: i64, student: &'a str, turn: usize) -> NewJob<'a> {
        NewJob {
            run,
            problem: "sum",
            package_hash: "h1",
            time_us: 1_000_000,
            wall_us: 3_000_000,
            student: Some(student),
            path: "a/sum.py",
            file_name: "sum.py",
            language: "python",
            source: b"print(1)",
            fail_fast: false,
            turn,
            entry: None,
        }
    }

    fn record(student: &str) -> SubmissionRecord<'static> {
        SubmissionRecord {
            student: Some(student.to_string()),
            problem: "sum".into(),
            path: Some("a/sum.py".into()),
            content_hash: None,
            language: Some("python".into()),
            build_hash: None,
            report: None,
            tests: Vec::new(),
            judged_by: None,
            handin: None,
        }
    }

    #[test]
    fn a_claim_whose_lease_passed_is_taken_again_and_its_late_result_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("judge.db")).unwrap();
        let db = store.db();
        let run = db
            .insert(
                "INSERT INTO runs (started_at, command, judge_version, isolation, machine, \
                 interrupted) VALUES ('t', 'grade', 'v', 'i', 'm', 1)",
                &[],
            )
            .unwrap();
        enqueue(db, &job(run, "bob", 1)).unwrap();
        enqueue(db, &job(run, "amy", 0)).unwrap();
        let hashes = ["h1".to_string()];
        assert!(claim(db, "w", &["other".into()], 60_000).unwrap().is_none());
        // Turn 0 (amy's first file) goes first; a lease already passed.
        let first = claim(db, "w1", &hashes, -1).unwrap().unwrap();
        assert_eq!(first.student.as_deref(), Some("amy"));
        let second = claim(db, "w2", &hashes, 60_000).unwrap().unwrap();
        assert_eq!(second.id, first.id, "the lapsed claim is taken again");
        assert_eq!(second.fence, first.fence + 1);
        assert_eq!(
            finish(db, "w1", &first, &record("amy")).unwrap(),
            Finished::Refused
        );
        assert!(matches!(
            finish(db, "w2", &second, &record("amy")).unwrap(),
            Finished::Recorded(_)
        ));
        assert_eq!(progress(db, run).unwrap(), (1, 2));
        let third = claim(db, "w2", &hashes, 60_000).unwrap().unwrap();
        hand_back(db, &third).unwrap();
        let again = claim(db, "w1", &hashes, 60_000).unwrap().unwrap();
        assert_eq!((again.id, again.fence), (third.id, third.fence + 1));
        assert!(claim(db, "w1", &hashes, 60_000).unwrap().is_none());
    }
}
