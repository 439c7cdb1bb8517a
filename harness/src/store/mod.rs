//! The result store: one SQLite file (or a PostgreSQL database: the two
//! engines are in `engine.rs`) holding every grading run, submission and
//! test result (schema in `schema.rs`, described in `docs/store.md`). It
//! is also the cache (`cache.rs`): a test whose inputs are all unchanged
//! takes its stored result instead of running again.
//!
//! `write.rs` records a run, `read.rs` reads runs back as gradebooks,
//! `merge.rs` combines the stores of several shards, `tools.rs` remembers
//! what a package's generator and validator said, `settled.rs` the time
//! limits Kattis packages settled.

pub(crate) mod accounts;
mod cache;
pub(crate) mod clarifications;
mod codec;
pub(crate) mod engine;
pub(crate) mod entries;
pub(crate) mod judgings;
mod merge;
#[allow(
    dead_code,
    reason = "notifications serve judge serve's live pages, next"
)]
pub(crate) mod postgres;
pub(crate) mod queue;
pub(crate) mod read;
pub(crate) mod reviews;
mod schema;
pub(crate) mod sessions;
mod settled;
mod tools;
pub(crate) mod value;
pub(crate) mod write;

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use cache::{ResultCache, judge_version};
pub use engine::DbError;
pub use merge::Merged;
pub use queue::{WorkerInfo, WorkerRow};
pub use schema::VERSION as SCHEMA_VERSION;
pub use settled::SettledLimit;
pub use tools::ToolMemo;
pub use write::{JudgedBy, RunMeta, SubmissionRecord};

use engine::{Db, Sql};
use value::params;

use crate::errors::Error;

/// The store's file name when none is given: beside `problems/`.
pub const DEFAULT_FILE: &str = "judge.db";

/// How long a writer waits for another judge holding the file (a second
/// grading, a parallel test) before giving up.
const BUSY_WAIT: Duration = Duration::from_secs(120);

/// Where a store lives: a SQLite file, or a PostgreSQL database named by
/// its URL (`postgres://user@host/db`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    Postgres(String),
}

impl Location {
    /// What `--db` names: a `postgres://` or `postgresql://` URL, else a file.
    pub fn of(text: &Path) -> Location {
        let text_str = text.to_string_lossy();
        if text_str.starts_with("postgres://") || text_str.starts_with("postgresql://") {
            Location::Postgres(text_str.into_owned())
        } else {
            Location::File(text.to_path_buf())
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Location::Postgres(_))
    }

    /// Whether there is a store to read there (a URL is asked when opened).
    pub fn exists(&self) -> bool {
        match self {
            Location::File(path) => path.is_file(),
            Location::Postgres(_) => true,
        }
    }
}

/// A file's path, or a URL without its password.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => f.write_str(&postgres::redact(url)),
        }
    }
}

pub struct Store {
    /// A cell: reading takes `&self` (reports, the cache), as it did when
    /// SQLite's connection read through a shared reference.
    db: RefCell<Db>,
    location: Location,
}

impl Store {
    /// Opens (or creates) the store `path` names (a file, or a PostgreSQL
    /// URL) and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, Error> {
        Store::open_at(&Location::of(path))
    }

    pub fn open_at(location: &Location) -> Result<Store, Error> {
        let fail = |e: DbError| failure(location, e);
        let mut db = match location {
            Location::File(path) => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent).map_err(|source| Error::Report {
                        what: parent.display().to_string(),
                        source,
                    })?;
                }
                let open = || -> Result<rusqlite::Connection, rusqlite::Error> {
                    let conn = rusqlite::Connection::open(path)?;
                    conn.busy_timeout(BUSY_WAIT)?;
                    conn.pragma_update(None, "foreign_keys", "ON")?;
                    Ok(conn)
                };
                Db::Sqlite(open().map_err(|e| fail(e.into()))?)
            }
            Location::Postgres(url) => {
                Db::Postgres(Box::new(postgres::Pg::connect(url).map_err(fail)?))
            }
        };
        migrate(&mut db).map_err(|e| match e {
            Migration::Db(e) => fail(e),
            Migration::Newer(found) => Error::Usage(format!(
                "{location} was written by a newer judge (schema {found}; this judge knows up to {})",
                schema::VERSION
            )),
        })?;
        Ok(Store {
            db: RefCell::new(db),
            location: location.clone(),
        })
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The open, migrated connection, for `judge serve`'s own tables and
    /// the judging queue.
    pub(crate) fn db(&mut self) -> &mut Db {
        self.db.get_mut()
    }

    /// The connection, for a store read through `&self`.
    fn sql(&self) -> std::cell::RefMut<'_, Db> {
        self.db.borrow_mut()
    }

    /// A store error as the judge's error, naming the store.
    pub(crate) fn fail(&self, e: DbError) -> Error {
        failure(&self.location, e)
    }
}

fn failure(location: &Location, e: DbError) -> Error {
    Error::Report {
        what: format!("the result store {location}"),
        source: std::io::Error::other(e),
    }
}

enum Migration {
    Db(DbError),
    Newer(usize),
}

impl From<DbError> for Migration {
    fn from(e: DbError) -> Migration {
        Migration::Db(e)
    }
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Migration {
        Migration::Db(e.into())
    }
}

/// Applies the migrations the store lacks, all in one transaction; two
/// judges opening a new store at once apply them once. SQLite keeps the
/// version in the file's `user_version`, PostgreSQL in a table of its own
/// (`judge_schema`), its transaction holding an advisory lock.
fn migrate(db: &mut Db) -> Result<(), Migration> {
    match db {
        Db::Sqlite(conn) => {
            let version = |conn: &rusqlite::Connection| -> rusqlite::Result<usize> {
                conn.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))
                    .map(|v| v.max(0) as usize)
            };
            if version(conn)? == schema::VERSION {
                return Ok(());
            }
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let found = version(&tx)?;
            if found > schema::VERSION {
                return Err(Migration::Newer(found));
            }
            for sql in &schema::MIGRATIONS[found..] {
                tx.execute_batch(sql)?;
            }
            tx.pragma_update(None, "user_version", schema::VERSION as i64)?;
            tx.commit()?;
            Ok(())
        }
        Db::Postgres(_) => {
            let mut tx = db.transaction()?;
            // Any number: the one lock every judge takes to migrate.
            tx.execute("SELECT pg_advisory_xact_lock(2207202201)", &[])?;
            tx.batch("CREATE TABLE IF NOT EXISTS judge_schema (version BIGINT NOT NULL)")?;
            let found = match tx.query_opt("SELECT version FROM judge_schema", &[])? {
                Some(row) => row.get::<i64>(0)?.max(0) as usize,
                None => {
                    tx.execute("INSERT INTO judge_schema (version) VALUES (0)", &[])?;
                    0
                }
            };
            if found > schema::VERSION {
                return Err(Migration::Newer(found));
            }
            for sql in &schema::MIGRATIONS[found..] {
                tx.batch(&schema::postgres_ddl(sql))?;
            }
            tx.execute(
                "UPDATE judge_schema SET version = ?1",
                params![schema::VERSION],
            )?;
            tx.commit()?;
            Ok(())
        }
    }
}

/// This machine's name, for the record of a run.
pub fn machine() -> String {
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::gradebook::RunInfo;

    #[test]
    fn a_new_store_has_the_current_schema_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/judge.db");
        let store = Store::open(&path).unwrap();
        let version: i64 = match &*store.sql() {
            Db::Sqlite(conn) => conn
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .unwrap(),
            Db::Postgres(_) => unreachable!("a file is a SQLite store"),
        };
        assert_eq!(version as usize, SCHEMA_VERSION);
        drop(store);
        Store::open(&path).unwrap();
    }

    /// `RunMeta` (what a run writes) and `RunInfo` (what reading it
    /// gives) are two structs on purpose (a time written is text read);
    /// every field written must read back. Both are destructured without
    /// `..`: a field added to either fails to compile here until it is
    /// written and read.
    #[test]
    fn every_field_of_a_run_written_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("judge.db")).unwrap();
        let started = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
        let meta = RunMeta {
            started_at: started,
            command: "grade".into(),
            judge_version: "1.2.3".into(),
            isolation: "full".into(),
            machine: "box".into(),
            partition: Some("2/3".into()),
            source: Some("class/".into()),
            interrupted: true,
            deadline: Some("2027-01-15T12:00:00+01:00".into()),
            late_rule: Some("10%/day".into()),
            policy: Some("drop = 1".into()),
        };
        let mut tx = store.db().transaction().unwrap();
        let id = write::insert_run(&mut tx, &meta).unwrap();
        tx.commit().unwrap();
        let RunMeta {
            started_at,
            command,
            judge_version,
            isolation,
            machine,
            partition,
            source,
            interrupted,
            deadline,
            late_rule,
            policy,
        } = meta;
        let RunInfo {
            id: read_id,
            started_at: read_started,
            finished_at,
            command: read_command,
            judge_version: read_version,
            isolation: read_isolation,
            machine: read_machine,
            partition: read_partition,
            source: read_source,
            merged_from,
            interrupted: read_interrupted,
            deadline: read_deadline,
            late_rule: read_late_rule,
            policy: read_policy,
        } = store.runs().unwrap().pop().unwrap();
        assert_eq!(read_id, id);
        assert_eq!(read_started, write::timestamp(started_at));
        assert!(finished_at.is_some());
        assert_eq!(merged_from, None, "only a merge writes it");
        assert_eq!(
            (read_command, read_version, read_isolation, read_machine),
            (command, judge_version, isolation, machine)
        );
        assert_eq!(
            (read_partition, read_source, read_interrupted),
            (partition, source, interrupted)
        );
        assert_eq!(
            (read_deadline, read_late_rule, read_policy),
            (deadline, late_rule, policy)
        );
    }

    #[test]
    fn a_store_from_a_newer_judge_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("judge.db");
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        drop(conn);
        let error = Store::open(&path).err().unwrap().to_string();
        assert!(error.contains("newer judge"), "{error}");
    }
}
