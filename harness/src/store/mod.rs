//! The result store: one SQLite file holding every grading run, submission
//! and test result (schema in `schema.rs`, described in `docs/store.md`).
//! It is also the cache (`cache.rs`): a test whose inputs are all unchanged
//! takes its stored result instead of running again.
//!
//! `write.rs` records a run, `read.rs` reads runs back as gradebooks,
//! `merge.rs` combines the stores of several shards, `tools.rs` remembers
//! what a package's generator and validator said, `settled.rs` the time
//! limits Kattis packages settled.

mod cache;
mod codec;
mod merge;
pub(crate) mod read;
mod schema;
mod settled;
mod tools;
pub(crate) mod write;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};

pub use cache::{ResultCache, judge_version};
pub use merge::Merged;
pub use schema::VERSION as SCHEMA_VERSION;
pub use settled::SettledLimit;
pub use tools::ToolMemo;
pub use write::{RunMeta, SubmissionRecord};

use crate::errors::Error;

/// The store's file name when none is given: beside `problems/`.
pub const DEFAULT_FILE: &str = "judge.db";

/// How long a writer waits for another judge holding the file (a second
/// grading, a parallel test) before giving up.
const BUSY_WAIT: Duration = Duration::from_secs(120);

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (or creates) the store at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, Error> {
        let fail = |e: rusqlite::Error| failure(path, e);
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| Error::Report {
                what: parent.display().to_string(),
                source,
            })?;
        }
        let mut conn = Connection::open(path).map_err(fail)?;
        conn.busy_timeout(BUSY_WAIT).map_err(fail)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(fail)?;
        migrate(&mut conn).map_err(|e| match e {
            Migration::Db(e) => fail(e),
            Migration::Newer(found) => Error::Usage(format!(
                "{} was written by a newer judge (schema {found}; this judge knows up to {})",
                path.display(),
                schema::VERSION
            )),
        })?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open, migrated connection, for `judge serve`'s own tables.
    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }

    pub(crate) fn connection_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// A store error as the judge's error, naming the file.
    fn fail(&self, e: rusqlite::Error) -> Error {
        failure(&self.path, e)
    }
}

fn failure(path: &Path, e: rusqlite::Error) -> Error {
    Error::Report {
        what: format!("the result store {}", path.display()),
        source: std::io::Error::other(e),
    }
}

enum Migration {
    Db(rusqlite::Error),
    Newer(usize),
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Migration {
        Migration::Db(e)
    }
}

/// Applies the migrations the file lacks, all in one transaction; two
/// judges opening a new file at once apply them once.
fn migrate(conn: &mut Connection) -> Result<(), Migration> {
    let version = |conn: &Connection| -> rusqlite::Result<usize> {
        conn.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))
            .map(|v| v.max(0) as usize)
    };
    if version(conn)? == schema::VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_store_has_the_current_schema_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/judge.db");
        let store = Store::open(&path).unwrap();
        let version: i64 = store
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version as usize, SCHEMA_VERSION);
        drop(store);
        Store::open(&path).unwrap();
    }

    #[test]
    fn a_store_from_a_newer_judge_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("judge.db");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        drop(conn);
        let error = Store::open(&path).err().unwrap().to_string();
        assert!(error.contains("newer judge"), "{error}");
    }
}
