//! The time limits Kattis packages settled from their own submissions,
//! remembered so that `test` and `grade` judge an unchanged package
//! without running its accepted submissions again. The key (made by the
//! caller, `plan::settle_key`) covers everything the
//! settlement depends on: the judge, the isolation, the machine, the
//! package's limits and rule, its tests, and the programs whose runs
//! decided it.

use std::time::Duration;

use super::Store;
use super::engine::{DbError, Sql};
use super::value::params;
use super::write::timestamp;
use crate::errors::Error;

/// A settled limit, as `formats::derive` explained it.
#[derive(Debug, Clone, PartialEq)]
pub struct SettledLimit {
    pub time: Duration,
    /// Runs that must time out need at least this long.
    pub timeout_floor: Option<Duration>,
    pub explanation: String,
    pub warnings: Vec<String>,
}

fn micros(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX)
}

fn duration(us: i64) -> Duration {
    Duration::from_micros(u64::try_from(us).unwrap_or(0))
}

impl Store {
    /// The limit settled under `key`, if one was remembered.
    pub fn settled_limit(&self, key: &str) -> Result<Option<SettledLimit>, Error> {
        let read = || -> Result<Option<SettledLimit>, DbError> {
            let Some(row) = self.sql().query_opt(
                "SELECT time_us, timeout_floor_us, explanation, warnings \
                 FROM settled_time_limits WHERE key = ?1",
                params![key],
            )?
            else {
                return Ok(None);
            };
            let warnings: String = row.get(3)?;
            Ok(Some(SettledLimit {
                time: duration(row.get(0)?),
                timeout_floor: row.get::<Option<i64>>(1)?.map(duration),
                explanation: row.get(2)?,
                warnings: warnings
                    .lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect(),
            }))
        };
        read().map_err(|e| self.fail(e))
    }

    /// Remembers `limit`, settled for `problem`, under `key`.
    pub fn remember_settled_limit(
        &mut self,
        key: &str,
        problem: &str,
        limit: &SettledLimit,
    ) -> Result<(), Error> {
        let now = timestamp(std::time::SystemTime::now());
        self.sql()
            .execute(
                "INSERT INTO settled_time_limits \
                 (key, problem, time_us, timeout_floor_us, explanation, warnings, recorded_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT (key) DO UPDATE SET problem = excluded.problem, \
                 time_us = excluded.time_us, timeout_floor_us = excluded.timeout_floor_us, \
                 explanation = excluded.explanation, warnings = excluded.warnings, \
                 recorded_at = excluded.recorded_at",
                params![
                    key,
                    problem,
                    micros(limit.time),
                    limit.timeout_floor.map(micros),
                    limit.explanation,
                    limit.warnings.join("\n"),
                    now
                ],
            )
            .map(drop)
            .map_err(|e| self.fail(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_limit_is_remembered_by_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("judge.db")).unwrap();
        assert_eq!(store.settled_limit("k").unwrap(), None);
        let limit = SettledLimit {
            time: Duration::from_millis(1500),
            timeout_floor: Some(Duration::from_micros(2_250_001)),
            explanation: "1.5 s: slowest accepted run ...".into(),
            warnings: vec!["one".into(), "two".into()],
        };
        store
            .remember_settled_limit("k", "nimmove", &limit)
            .unwrap();
        assert_eq!(store.settled_limit("k").unwrap(), Some(limit.clone()));
        assert_eq!(store.settled_limit("other").unwrap(), None);
        // A new settlement under the same key replaces the old one.
        let later = SettledLimit {
            warnings: Vec::new(),
            timeout_floor: None,
            ..limit
        };
        store
            .remember_settled_limit("k", "nimmove", &later)
            .unwrap();
        assert_eq!(store.settled_limit("k").unwrap(), Some(later));
    }
}
