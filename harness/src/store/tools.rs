//! What a package's own programs said, remembered for `verify`: a
//! generator's output (as a hash) for its arguments, and a validator's
//! acceptance of an input. Keys cover the judge's build, the isolation, the
//! program's build, its arguments and its input, as for test results; only
//! successes are remembered (a failure is shown, and run again next time).
//!
//! All remembered outcomes are read at the start and new ones written at
//! the end, so the package checks, which run on several threads, never
//! touch the database.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use super::Store;
use super::cache::{FileHashes, judge_version};
use super::engine::{DbError, Sql};
use super::value::params;
use super::write::timestamp;
use crate::compile::Executable;
use crate::errors::Error;

pub struct ToolMemo {
    prefix: String,
    fresh: bool,
    known: HashMap<String, String>,
    learned: Mutex<Vec<(String, String)>>,
    files: Mutex<FileHashes>,
}

impl ToolMemo {
    /// Everything `store` remembers (nothing when `fresh`).
    pub fn load(store: &Store, isolation: &str, fresh: bool) -> Result<ToolMemo, Error> {
        let read = || -> Result<HashMap<String, String>, DbError> {
            store
                .sql()
                .query("SELECT key, outcome FROM tool_results", &[])?
                .iter()
                .map(|row| Ok((row.get(0)?, row.get(1)?)))
                .collect()
        };
        Ok(ToolMemo {
            prefix: format!("judge-tool-1\0{}\0{isolation}", judge_version()),
            fresh,
            known: if fresh {
                HashMap::new()
            } else {
                read().map_err(|e| store.fail(e))?
            },
            learned: Mutex::default(),
            files: Mutex::default(),
        })
    }

    /// The key of running `exe` with `args` on `input`; `None` when a
    /// file cannot be read.
    pub fn key(&self, exe: &Executable, args: &[String], input: Option<&Path>) -> Option<String> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let build = files.executable(exe)?;
        let input = match input {
            Some(path) => files.of(path)?,
            None => "-".into(),
        };
        let text = format!("{}\0{build}\0{args:?}\0{input}", self.prefix);
        Some(blake3::hash(text.as_bytes()).to_hex().to_string())
    }

    /// The remembered outcome of `key`, else `run`'s; `run`'s success
    /// (`Ok`) is remembered.
    pub fn outcome<E>(
        &self,
        key: Option<String>,
        run: impl FnOnce() -> Result<String, E>,
    ) -> Result<String, E> {
        if let Some(known) = key
            .as_ref()
            .filter(|_| !self.fresh)
            .and_then(|k| self.known.get(k))
        {
            return Ok(known.clone());
        }
        let outcome = run()?;
        if let Some(key) = key {
            let mut learned = self.learned.lock().unwrap_or_else(|e| e.into_inner());
            learned.push((key, outcome.clone()));
        }
        Ok(outcome)
    }

    /// Writes what was learned.
    pub fn save(&self, store: &mut Store) -> Result<(), Error> {
        let learned = std::mem::take(&mut *self.learned.lock().unwrap_or_else(|e| e.into_inner()));
        let now = timestamp(std::time::SystemTime::now());
        let write = |store: &mut Store| -> Result<(), DbError> {
            let mut tx = store.db().transaction()?;
            for (key, outcome) in &learned {
                tx.execute(
                    "INSERT INTO tool_results (key, outcome, recorded_at) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (key) DO UPDATE SET outcome = excluded.outcome, \
                     recorded_at = excluded.recorded_at",
                    params![key, outcome, now],
                )?;
            }
            tx.commit()
        };
        write(store).map_err(|e| store.fail(e))
    }
}
