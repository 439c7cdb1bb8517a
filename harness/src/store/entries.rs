//! `judge serve`'s tables in the result store (migrations 4 and 7,
//! `docs/store.md`): its session (and the run its judged submissions are
//! recorded under), the submissions it received (`entries`, with their
//! source, committed before the client hears "received") and each judging
//! of one, by the server's own threads or by a `judge worker` (whose
//! verdict is then announced to every server on PostgreSQL).
//!
//! Exactly once: claiming an entry marks it `running` and opens a judging;
//! recording the result, the judging's end and the entry's `judged` status
//! is one transaction. A server killed in between finds the entry
//! `running` with an open judging on restart: `recover` drops that
//! judging and queues the entry again.

use std::path::Path;
use std::time::SystemTime;

use super::accounts::now_text;
use super::engine::{Db, Sql};
use super::queue::{self, Finished};
use super::value::{Row, params};
use super::{DbError, JudgedBy, Store, SubmissionRecord};
use crate::errors::Error;
use crate::runner::TaskReport;
use crate::verdict::Verdict;

/// Opens the store for the server: migrated, with write-ahead logging so
/// that pages read while a judge thread writes (and `judge report` reads
/// while the server runs).
///
/// The file holds every participant's source and the password hashes: it
/// and its side files (`-wal`, `-shm`, which SQLite makes with the
/// database's own mode) are readable by their owner only.
pub(crate) fn open(path: &Path) -> Result<Store, Error> {
    let mut store = Store::open(path)?;
    if let Db::Sqlite(conn) = store.db() {
        private_files(path)?;
        let wal = conn.pragma_update(None, "journal_mode", "WAL");
        wal.map_err(|e| store.fail(e.into()))?;
        private_files(path)?;
    }
    Ok(store)
}

/// The store for a judging thread: as `open`, but its commits wait for no
/// disk flush each (SQLite's `synchronous = NORMAL` under WAL). A power
/// cut may lose the last results recorded, never a submission (the web's
/// connection commits those in full): their entries are still queued or
/// running in the store, and judged again at the next start.
pub(crate) fn open_for_judging(path: &Path) -> Result<Store, Error> {
    let mut store = open(path)?;
    if let Db::Sqlite(conn) = store.db() {
        let relaxed = conn.pragma_update(None, "synchronous", "NORMAL");
        relaxed.map_err(|e| store.fail(e.into()))?;
    }
    Ok(store)
}

/// The store's file and its side files, readable and writable by their
/// owner only.
fn private_files(path: &Path) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let file = Path::new(&name);
        if file.exists() {
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600)).map_err(
                |source| Error::Report {
                    what: format!("make {} private", file.display()),
                    source,
                },
            )?;
        }
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Queued,
    Running,
    Judged,
}

impl Status {
    fn parse(text: &str) -> Status {
        match text {
            "running" => Status::Running,
            "judged" => Status::Judged,
            _ => Status::Queued,
        }
    }
}

/// A received submission as lists show it.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) id: i64,
    pub(crate) account: i64,
    pub(crate) username: String,
    pub(crate) display_name: String,
    pub(crate) problem: String,
    pub(crate) language: String,
    pub(crate) file_name: String,
    pub(crate) submitted_at: SystemTime,
    pub(crate) status: Status,
    /// The verdict of its latest valid judging.
    pub(crate) verdict: Option<Verdict>,
    pub(crate) score: Option<f64>,
    /// The store's record of that judging (`submissions.id`).
    pub(crate) submission: Option<i64>,
}

/// Which entries a list shows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filter {
    pub(crate) account: Option<i64>,
    pub(crate) problem: Option<String>,
    pub(crate) verdict: Option<String>,
    pub(crate) status: Option<Status>,
    /// The language's key (`python`, `rust`, ...).
    pub(crate) language: Option<String>,
    /// Submitted at this time or later.
    pub(crate) since: Option<SystemTime>,
}

const ENTRY_SELECT: &str = "SELECT e.id, e.account_id, a.username, a.display_name, \
     e.problem, e.language, e.file_name, e.submitted_at, e.status, j.verdict, j.score, \
     j.submission_id \
     FROM entries e JOIN accounts a ON a.id = e.account_id \
     LEFT JOIN judgings j ON j.id = (SELECT MAX(id) FROM judgings \
         WHERE entry_id = e.id AND valid = 1 AND finished_at IS NOT NULL)";

fn entry_from_row(row: &Row) -> Result<Entry, DbError> {
    let submitted: String = row.get(7)?;
    let status: String = row.get(8)?;
    let verdict: Option<String> = row.get(9)?;
    Ok(Entry {
        id: row.get(0)?,
        account: row.get(1)?,
        username: row.get(2)?,
        display_name: row.get(3)?,
        problem: row.get(4)?,
        language: row.get(5)?,
        file_name: row.get(6)?,
        submitted_at: humantime::parse_rfc3339(&submitted).unwrap_or(SystemTime::UNIX_EPOCH),
        status: Status::parse(&status),
        verdict: verdict.as_deref().and_then(Verdict::from_short),
        score: row.get(10)?,
        submission: row.get(11)?,
    })
}

/// Stores a received submission, queued; returns its id. Committed when
/// this returns.
pub(crate) fn insert_entry(
    db: &mut impl Sql,
    session: i64,
    account: i64,
    problem: &str,
    language: &str,
    file_name: &str,
    source: &[u8],
) -> Result<i64, DbError> {
    db.insert(
        "INSERT INTO entries (session_id, account_id, problem, language, file_name, source, \
         submitted_at, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'queued')",
        params![
            session,
            account,
            problem,
            language,
            file_name,
            source,
            now_text()
        ],
    )
}

fn entries_of(rows: Vec<Row>) -> Result<Vec<Entry>, DbError> {
    rows.iter().map(entry_from_row).collect()
}

/// The entries of a session that `filter` lets through, newest first.
pub(crate) fn entries(
    db: &mut impl Sql,
    session: i64,
    filter: &Filter,
    limit: usize,
) -> Result<Vec<Entry>, DbError> {
    let status = filter.status.map(|s| match s {
        Status::Queued => "queued",
        Status::Running => "running",
        Status::Judged => "judged",
    });
    // Each optional filter is `column = ?N` or, when NULL, nothing: spelt
    // `COALESCE(?N, column) = column` so that both engines know ?N's type
    // (the verdict, NULL until judged, by a cast: PostgreSQL must be told).
    entries_of(db.query(
        &format!(
            "{ENTRY_SELECT} WHERE e.session_id = ?1 AND COALESCE(?2, e.account_id) = e.account_id \
             AND COALESCE(?3, e.problem) = e.problem \
             AND (CAST(?4 AS TEXT) IS NULL OR j.verdict = ?4) \
             AND COALESCE(?5, e.status) = e.status \
             AND COALESCE(?7, e.language) = e.language \
             AND (CAST(?8 AS TEXT) IS NULL OR e.submitted_at >= ?8) \
             ORDER BY e.id DESC LIMIT ?6"
        ),
        params![
            session,
            filter.account,
            filter.problem,
            filter.verdict,
            status,
            limit,
            filter.language,
            // `submitted_at` is RFC 3339 in UTC with milliseconds, the
            // same width every time: compared as text, it is in time order.
            filter.since.map(|t| humantime::format_rfc3339_millis(t).to_string())
        ],
    )?)
}

/// How many entries each account has in a session.
pub(crate) fn entry_counts(
    db: &mut impl Sql,
    session: i64,
) -> Result<std::collections::HashMap<i64, usize>, DbError> {
    db.query(
        "SELECT account_id, COUNT(*) FROM entries WHERE session_id = ?1 GROUP BY account_id",
        params![session],
    )?
    .iter()
    .map(|row| Ok((row.get(0)?, row.get::<i64>(1)?.max(0) as usize)))
    .collect()
}

/// Every entry of a session, oldest first (scoreboards, the event feed).
pub(crate) fn all_entries(db: &mut impl Sql, session: i64) -> Result<Vec<Entry>, DbError> {
    entries_of(db.query(
        &format!("{ENTRY_SELECT} WHERE e.session_id = ?1 ORDER BY e.id"),
        params![session],
    )?)
}

pub(crate) fn entry(db: &mut impl Sql, session: i64, id: i64) -> Result<Option<Entry>, DbError> {
    db.query_opt(
        &format!("{ENTRY_SELECT} WHERE e.session_id = ?1 AND e.id = ?2"),
        params![session, id],
    )?
    .map(|row| entry_from_row(&row))
    .transpose()
}

pub(crate) fn source(db: &mut impl Sql, id: i64) -> Result<Vec<u8>, DbError> {
    db.query_one("SELECT source FROM entries WHERE id = ?1", params![id])?
        .get(0)
}

/// A judged entry's stored report (`submission`: its row in the store's
/// submissions): verdict, message and every test.
pub(crate) fn report(
    db: &mut impl Sql,
    submission: i64,
    entry: i64,
) -> Result<TaskReport, DbError> {
    let (tests, _) = crate::store::read::tests_of(db, submission)?;
    let row = db.query_one(
        "SELECT problem, path, verdict, score, message, skipped_tests FROM submissions \
         WHERE id = ?1",
        params![submission],
    )?;
    let verdict: Option<String> = row.get(2)?;
    Ok(TaskReport {
        problem: row.get(0)?,
        submission: row.get::<Option<String>>(1)?.unwrap_or_default(),
        owner: crate::owner::Owner::Submission { id: entry },
        verdict: verdict
            .as_deref()
            .and_then(Verdict::from_short)
            .unwrap_or(Verdict::JudgeError),
        score: row.get(3)?,
        message: row.get(4)?,
        tests,
        skipped: row.get::<i64>(5)?.max(0) as usize,
    })
}

/// After a restart: judgings a killed server left open are dropped and
/// their entries queued again. Returns the queued entries, oldest first,
/// as (entry, account).
pub(crate) fn recover(db: &mut Db, session: i64) -> Result<Vec<(i64, i64)>, DbError> {
    let mut tx = db.transaction()?;
    tx.execute(
        "DELETE FROM judgings WHERE finished_at IS NULL AND entry_id IN \
         (SELECT id FROM entries WHERE session_id = ?1)",
        params![session],
    )?;
    tx.execute(
        "UPDATE entries SET status = 'queued' WHERE session_id = ?1 AND status = 'running'",
        params![session],
    )?;
    let queued = tx
        .query(
            "SELECT id, account_id FROM entries WHERE session_id = ?1 AND status = 'queued' \
             ORDER BY id",
            params![session],
        )?
        .iter()
        .map(|row| Ok((row.get(0)?, row.get(1)?)))
        .collect::<Result<Vec<_>, DbError>>()?;
    tx.commit()?;
    Ok(queued)
}

/// What a judge thread needs of a claimed entry.
#[derive(Debug, Clone)]
pub(crate) struct Claimed {
    pub(crate) judging: i64,
    pub(crate) entry: Entry,
    pub(crate) source: Vec<u8>,
}

/// Marks a queued entry running and opens its judging; `None` if it is
/// not queued (judged already, or claimed by another thread).
pub(crate) fn claim(db: &mut Db, session: i64, id: i64) -> Result<Option<Claimed>, DbError> {
    let mut tx = db.transaction()?;
    let changed = tx.execute(
        "UPDATE entries SET status = 'running' WHERE id = ?1 AND status = 'queued'",
        params![id],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    let judging = tx.insert(
        "INSERT INTO judgings (entry_id, started_at) VALUES (?1, ?2)",
        params![id, now_text()],
    )?;
    let entry = entry(&mut tx, session, id)?;
    let source = source(&mut tx, id)?;
    tx.commit()?;
    Ok(entry.map(|entry| Claimed {
        judging,
        entry,
        source,
    }))
}

/// Gives a claimed entry back to the queue: its judging is dropped and it
/// is `queued` again (a judging that met no descriptors left is retried,
/// never recorded as the submission's JE).
pub(crate) fn unclaim(db: &mut Db, claimed: &Claimed) -> Result<(), DbError> {
    let mut tx = db.transaction()?;
    tx.execute(
        "DELETE FROM judgings WHERE id = ?1 AND finished_at IS NULL",
        params![claimed.judging],
    )?;
    tx.execute(
        "UPDATE entries SET status = 'queued' WHERE id = ?1 AND status = 'running'",
        params![claimed.entry.id],
    )?;
    tx.commit()
}

/// Records a finished judging, in one transaction: the result as a
/// submission of the session's run (student = the username), the
/// judging's end, the entry judged. An earlier judging of the entry (a
/// rejudge) loses its place in the run, so the gradebook counts one.
pub(crate) fn record(
    db: &mut Db,
    run: i64,
    claimed: &Claimed,
    report: &TaskReport,
) -> Result<(), DbError> {
    let mut tx = db.transaction()?;
    record_in(&mut tx, run, claimed, report, None)?;
    tx.commit()
}

/// `record` inside the caller's transaction (a worker's, whose fencing
/// check shares it); returns the submission's id.
pub(crate) fn record_in(
    tx: &mut impl Sql,
    run: i64,
    claimed: &Claimed,
    report: &TaskReport,
    judged_by: Option<crate::store::JudgedBy>,
) -> Result<i64, DbError> {
    let entry = &claimed.entry;
    tx.execute(
        "DELETE FROM submissions WHERE id IN (SELECT submission_id FROM judgings \
         WHERE entry_id = ?1 AND id <> ?2 AND submission_id IS NOT NULL)",
        params![entry.id, claimed.judging],
    )?;
    tx.execute(
        "UPDATE judgings SET valid = 0 WHERE entry_id = ?1 AND id <> ?2",
        params![entry.id, claimed.judging],
    )?;
    let submission = finish_judging(tx, run, claimed, report, judged_by)?;
    tx.execute(
        "UPDATE entries SET status = 'judged' WHERE id = ?1",
        params![entry.id],
    )?;
    Ok(submission)
}

/// The claimed judging's report kept under `run` and the judging closed
/// with its verdict (the one in force or a review's); the submission's id.
pub(crate) fn finish_judging(
    tx: &mut impl Sql,
    run: i64,
    claimed: &Claimed,
    report: &TaskReport,
    judged_by: Option<crate::store::JudgedBy>,
) -> Result<i64, DbError> {
    let entry = &claimed.entry;
    let record = SubmissionRecord {
        student: Some(entry.username.clone()),
        problem: entry.problem.clone(),
        path: Some(format!("#{} {}", entry.id, entry.file_name)),
        content_hash: Some(blake3::hash(&claimed.source).to_hex().to_string()),
        language: Some(entry.language.clone()),
        build_hash: None,
        report: Some(report),
        tests: Vec::new(),
        judged_by,
        handin: None,
    };
    let submission = crate::store::write::insert_submission(tx, run, &record)?;
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
    Ok(submission)
}

/// Queues judged entries again (a rejudge); returns (entry, account) of
/// those queued.
pub(crate) fn requeue(db: &mut Db, session: i64, ids: &[i64]) -> Result<Vec<(i64, i64)>, DbError> {
    let mut tx = db.transaction()?;
    let mut queued = Vec::new();
    for &id in ids {
        let changed = tx.execute(
            "UPDATE entries SET status = 'queued' WHERE id = ?1 AND session_id = ?2 \
             AND status = 'judged'",
            params![id, session],
        )?;
        if changed > 0 {
            let account: i64 = tx
                .query_one("SELECT account_id FROM entries WHERE id = ?1", params![id])?
                .get(0)?;
            queued.push((id, account));
        }
    }
    tx.commit()?;
    Ok(queued)
}

/// A `judge worker` took entry `entry`: its page says it is being judged.
pub(crate) fn started(db: &mut Db, entry: i64) -> Result<(), DbError> {
    db.execute(
        "UPDATE entries SET status = 'running' WHERE id = ?1 AND status = 'queued'",
        params![entry],
    )?;
    Ok(())
}

/// Records a worker's judging of entry `entry` if its claim of `job`
/// still holds: the judging, the submission and the job's `done` in one
/// transaction. Then announces the verdict to every server.
pub(crate) fn record_remote(
    db: &mut Db,
    worker: &str,
    job: &queue::Claimed,
    entry: i64,
    report: &TaskReport,
    judged_by: JudgedBy,
) -> Result<Finished, DbError> {
    let session: i64 = db
        .query_one(
            "SELECT session_id FROM entries WHERE id = ?1",
            params![entry],
        )?
        .get(0)?;
    let finished = queue::finish_with(db, worker, job, |tx| {
        let entry = self::entry(tx, session, entry)?.ok_or(DbError::NoRow)?;
        let judging = tx.insert(
            "INSERT INTO judgings (entry_id, started_at) VALUES (?1, ?2)",
            params![entry.id, now_text()],
        )?;
        let claimed = Claimed {
            judging,
            entry,
            source: job.source.clone(),
        };
        record_in(tx, job.run, &claimed, report, Some(judged_by))
    })?;
    if finished != Finished::Refused {
        if let Err(error) = announce(db, session, entry) {
            // The verdict is stored; the pages show it on reload.
            eprintln!("judge worker: announcing a verdict: {error}");
        }
    }
    Ok(finished)
}

/// The PostgreSQL channel on which verdicts are announced to every server
/// of a store (`serve/notify.rs` listens).
pub(crate) const VERDICTS_CHANNEL: &str = "judge_verdicts";

/// Who this process is among those sharing the store: a server skips its
/// own announcements, which its pages have already been told.
pub(crate) fn origin() -> &'static str {
    static ORIGIN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(|| format!("{:016x}", rand::random::<u64>()))
}

/// Announces that `entry` of `session` has its verdict (PostgreSQL's
/// `NOTIFY`; on SQLite there is one server and nothing to announce).
pub(crate) fn announce(db: &mut Db, session: i64, entry: i64) -> Result<(), DbError> {
    if matches!(db, Db::Postgres(_)) {
        // `execute`: pg_notify returns `void`, no value to read.
        db.execute(
            "SELECT pg_notify(?1, ?2)",
            params![VERDICTS_CHANNEL, format!("{session}:{entry}:{}", origin())],
        )?;
    }
    Ok(())
}
