//! `judge serve`'s sessions in the result store: a session's row, found
//! by its name (the same name continues it after a restart), and the run
//! its judged submissions are recorded under.

use super::accounts::now_text;
use super::engine::{Db, Sql};
use super::value::params;
use super::{DbError, RunMeta, Store};
use crate::errors::Error;
use crate::report::gradebook::ProblemInfo;

/// A session as the store knows it: its key and its title.
pub(crate) struct SessionName<'a> {
    pub(crate) name: &'a str,
    pub(crate) title: &'a str,
}

/// The session's row and the run its submissions are recorded under.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SessionIds {
    pub(crate) session: i64,
    pub(crate) run: i64,
}

/// Finds the session by name, or creates it with its run (`command` =
/// `serve`, `source` = the session's name); the problems' limits are
/// brought up to date either way.
pub(crate) fn ensure_session(
    store: &mut Store,
    session: &SessionName<'_>,
    meta: &RunMeta,
    problems: &[ProblemInfo],
) -> Result<SessionIds, Error> {
    let found = find_session(store.db(), session.name);
    let ids = match found.map_err(|e| store.fail(e))? {
        Some(ids) => ids,
        None => {
            let run = store.record_run(meta, problems, &[], &[])?;
            let made = make_session(store.db(), session, run);
            made.map_err(|e| store.fail(e))?
        }
    };
    let updated = update_session(store.db(), ids, session.title, problems);
    updated.map_err(|e| store.fail(e))?;
    Ok(ids)
}

fn find_session(db: &mut Db, name: &str) -> Result<Option<SessionIds>, DbError> {
    db.query_opt(
        "SELECT id, run_id FROM sessions WHERE name = ?1",
        params![name],
    )?
    .map(|row| {
        Ok(SessionIds {
            session: row.get(0)?,
            run: row.get(1)?,
        })
    })
    .transpose()
}

/// A new session row under `run`. Two servers starting one session at
/// once: the second finds the first's row (its own run stays empty).
fn make_session(db: &mut Db, session: &SessionName<'_>, run: i64) -> Result<SessionIds, DbError> {
    db.execute(
        "INSERT INTO sessions (name, run_id, title, created_at) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (name) DO NOTHING",
        params![session.name, run, session.title, now_text()],
    )?;
    find_session(db, session.name)?.ok_or(DbError::NoRow)
}

/// The session's title and its problems' limits brought up to date.
fn update_session(
    db: &mut Db,
    ids: SessionIds,
    title: &str,
    problems: &[ProblemInfo],
) -> Result<(), DbError> {
    db.execute(
        "UPDATE sessions SET title = ?2 WHERE id = ?1",
        params![ids.session, title],
    )?;
    super::write::insert_problems(db, ids.run, problems)
}

/// When a session was first served (an open-ended session's start, for
/// the CCS API's contest times).
pub(crate) fn session_created(
    db: &mut impl Sql,
    session: i64,
) -> Result<std::time::SystemTime, DbError> {
    let created: String = db
        .query_one(
            "SELECT created_at FROM sessions WHERE id = ?1",
            params![session],
        )?
        .get(0)?;
    Ok(humantime::parse_rfc3339(&created).unwrap_or(std::time::SystemTime::UNIX_EPOCH))
}

/// A session of the store, as `judge report` lists and picks them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredSession {
    pub(crate) name: String,
    pub(crate) title: String,
    /// The run its judged submissions are recorded under.
    pub(crate) run: i64,
}

impl Store {
    /// Every session of `judge serve` in the store, oldest first.
    pub(crate) fn sessions(&self) -> Result<Vec<StoredSession>, Error> {
        let query = || -> Result<Vec<StoredSession>, DbError> {
            self.sql()
                .query("SELECT name, title, run_id FROM sessions ORDER BY id", &[])?
                .iter()
                .map(|row| {
                    Ok(StoredSession {
                        name: row.get(0)?,
                        title: row.get(1)?,
                        run: row.get(2)?,
                    })
                })
                .collect()
        };
        query().map_err(|e| self.fail(e))
    }
}

/// What the jury set of a session's times on the web: start, end and
/// freeze (each `None` where the session file's holds), and when the
/// frozen scoreboard was released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SetTimes {
    pub(crate) start: Option<std::time::SystemTime>,
    pub(crate) end: Option<std::time::SystemTime>,
    pub(crate) freeze: Option<std::time::SystemTime>,
    pub(crate) released: Option<std::time::SystemTime>,
}

fn time_text(time: Option<std::time::SystemTime>) -> Option<String> {
    time.map(|t| humantime::format_rfc3339_seconds(t).to_string())
}

fn time_of(text: Option<String>) -> Option<std::time::SystemTime> {
    text.and_then(|t| humantime::parse_rfc3339(&t).ok())
}

/// The times the jury set of `session`.
pub(crate) fn set_times(db: &mut Db, session: i64) -> Result<SetTimes, DbError> {
    let row = db.query_one(
        "SELECT start_at, end_at, freeze_at, released_at FROM sessions WHERE id = ?1",
        params![session],
    )?;
    Ok(SetTimes {
        start: time_of(row.get(0)?),
        end: time_of(row.get(1)?),
        freeze: time_of(row.get(2)?),
        released: time_of(row.get(3)?),
    })
}

/// Keeps the times the jury set of `session`.
pub(crate) fn keep_times(db: &mut Db, session: i64, times: &SetTimes) -> Result<(), DbError> {
    db.execute(
        "UPDATE sessions SET start_at = ?2, end_at = ?3, freeze_at = ?4, released_at = ?5 \
         WHERE id = ?1",
        params![
            session,
            time_text(times.start),
            time_text(times.end),
            time_text(times.freeze),
            time_text(times.released)
        ],
    )?;
    Ok(())
}
