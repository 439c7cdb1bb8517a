//! Combining the stores of a class graded in shards into one run.
//!
//! The latest run of each input becomes part of one new run in the output
//! store: its problems, submissions (with every test result and cache key,
//! so the merged store serves as a cache too) and unmatched files, all in
//! one transaction.

use super::engine::{DbError, Sql};
use super::schema::{SUBMISSION_COLUMNS, TEST_COLUMNS};
use super::value::{Value, params};
use super::{Location, Store};
use crate::errors::Error;
use crate::report::gradebook::RunInfo;

/// What merging found: the new run and anything a reader should know.
pub struct Merged {
    pub run: i64,
    pub submissions: usize,
    pub warnings: Vec<String>,
}

impl Store {
    /// Merges the latest run of each store in `inputs` into one new run here.
    pub fn merge(&mut self, inputs: &[Location]) -> Result<Merged, Error> {
        let mut sources = Vec::new();
        let mut stores = Vec::new();
        for location in inputs {
            // Opening brings an older store's schema up to date.
            let store = Store::open_at(location)?;
            let Some(run) = store.runs()?.pop() else {
                return Err(Error::Usage(format!("{location} holds no run")));
            };
            sources.push((location.clone(), run));
            stores.push(store);
        }
        let warnings = coverage_warnings(&sources);
        let merged = self
            .try_merge(&sources, &stores)
            .map_err(|e| self.fail(e))?;
        Ok(Merged {
            warnings: warnings.into_iter().chain(merged.1).collect(),
            run: merged.0,
            submissions: merged.2,
        })
    }

    fn try_merge(
        &mut self,
        sources: &[(Location, RunInfo)],
        stores: &[Store],
    ) -> Result<(i64, Vec<String>, usize), DbError> {
        let runs: Vec<&RunInfo> = sources.iter().map(|(_, run)| run).collect();
        let joined = |field: fn(&RunInfo) -> &str| {
            let mut values: Vec<&str> = runs.iter().map(|r| field(r)).collect();
            values.sort_unstable();
            values.dedup();
            values.join(" | ")
        };
        let started = runs.iter().map(|r| r.started_at.as_str()).min();
        let finished = runs.iter().filter_map(|r| r.finished_at.as_deref()).max();
        let merged_from: Vec<String> = sources
            .iter()
            .map(|(location, run)| {
                format!(
                    "{location} run {}{}",
                    run.id,
                    run.partition
                        .as_ref()
                        .map(|p| format!(" ({p})"))
                        .unwrap_or_default()
                )
            })
            .collect();
        let mut tx = self.db().transaction()?;
        let run = tx.insert(
            "INSERT INTO runs (started_at, finished_at, command, judge_version, isolation, \
             machine, partition, source, merged_from, interrupted, deadline, late_rule, policy) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                started,
                finished,
                joined(|r| &r.command),
                joined(|r| &r.judge_version),
                joined(|r| &r.isolation),
                joined(|r| &r.machine),
                runs.first().and_then(|r| r.source.clone()),
                merged_from.join(", "),
                runs.iter().any(|r| r.interrupted),
                runs.first().and_then(|r| r.deadline.clone()),
                runs.first().and_then(|r| r.late_rule.clone()),
                runs.first().and_then(|r| r.policy.clone()),
            ],
        )?;
        for (store, source) in stores.iter().zip(&runs) {
            copy_run(&mut *store.sql(), &mut tx, source.id, run)?;
        }
        // A student's problem graded by two inputs: the later input wins.
        let mut warnings = Vec::new();
        let duplicates = tx.query(
            "SELECT COALESCE(student, path), problem, MAX(id) FROM submissions \
             WHERE run_id = ?1 GROUP BY COALESCE(student, path), problem HAVING COUNT(*) > 1",
            params![run],
        )?;
        for row in duplicates {
            let (student, problem, keep): (String, String, i64) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            warnings.push(format!(
                "{student} / {problem} is in more than one input: the last one is kept"
            ));
            tx.execute(
                "DELETE FROM submissions WHERE run_id = ?1 AND COALESCE(student, path) = ?2 \
                 AND problem = ?3 AND id != ?4",
                params![run, student, problem, keep],
            )?;
        }
        let count: i64 = tx
            .query_one(
                "SELECT COUNT(*) FROM submissions WHERE run_id = ?1 AND verdict IS NOT NULL",
                params![run],
            )?
            .get(0)?;
        tx.commit()?;
        Ok((run, warnings, count.max(0) as usize))
    }
}

/// Shards that do not make up a whole class: missing, repeated or of
/// different counts.
fn coverage_warnings(sources: &[(Location, RunInfo)]) -> Vec<String> {
    let parts: Vec<(usize, usize)> = sources
        .iter()
        .filter_map(|(_, run)| {
            let (k, n) = run.partition.as_deref()?.split_once('/')?;
            Some((k.parse().ok()?, n.parse().ok()?))
        })
        .collect();
    let mut warnings: Vec<String> = sources
        .iter()
        .filter(|(_, run)| run.interrupted)
        .map(|(location, _)| format!("{location} holds an interrupted grading"))
        .collect();
    let Some(&(_, count)) = parts.first() else {
        return warnings;
    };
    if parts.iter().any(|&(_, n)| n != count) {
        warnings.push("the inputs are shards of different partition counts".into());
        return warnings;
    }
    for k in 1..=count {
        match parts.iter().filter(|&&(part, _)| part == k).count() {
            0 => warnings.push(format!(
                "shard {k}/{count} is missing: the gradebook is incomplete"
            )),
            1 => {}
            _ => warnings.push(format!("shard {k}/{count} is given more than once")),
        }
    }
    warnings
}

fn column_count(columns: &str) -> usize {
    columns.split(',').count()
}

fn placeholders(from: usize, count: usize) -> String {
    (from..from + count)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `values` after a first parameter (the new run's or submission's id).
fn after(first: i64, values: Vec<Value>) -> Vec<Value> {
    std::iter::once(Value::Int(first)).chain(values).collect()
}

/// Copies run `from_run` of `from` into run `to_run` of `to`.
fn copy_run(
    from: &mut impl Sql,
    to: &mut impl Sql,
    from_run: i64,
    to_run: i64,
) -> Result<(), DbError> {
    for row in from.query(
        "SELECT problem, title, time_ms, wall_ms, memory_kib, tests FROM problems \
         WHERE run_id = ?1",
        params![from_run],
    )? {
        to.execute(
            "INSERT INTO problems (run_id, problem, title, time_ms, wall_ms, \
             memory_kib, tests) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (run_id, problem) DO NOTHING",
            &after(to_run, row.into_values()),
        )?;
    }
    let insert_submission = format!(
        "INSERT INTO submissions (run_id, {SUBMISSION_COLUMNS}) VALUES (?1, {})",
        placeholders(2, column_count(SUBMISSION_COLUMNS))
    );
    let insert_test = format!(
        "INSERT INTO test_results (submission_id, {TEST_COLUMNS}) VALUES (?1, {})",
        placeholders(2, column_count(TEST_COLUMNS))
    );
    let submissions = from.query(
        &format!("SELECT id, {SUBMISSION_COLUMNS} FROM submissions WHERE run_id = ?1 ORDER BY id"),
        params![from_run],
    )?;
    for row in submissions {
        let mut row = row.into_values();
        let Value::Int(old_id) = row.remove(0) else {
            continue;
        };
        let new_id = to.insert(&insert_submission, &after(to_run, row))?;
        let tests = from.query(
            &format!(
                "SELECT {TEST_COLUMNS} FROM test_results WHERE submission_id = ?1 ORDER BY ordinal"
            ),
            params![old_id],
        )?;
        for test in tests {
            to.execute(&insert_test, &after(new_id, test.into_values()))?;
        }
    }
    for row in from.query(
        "SELECT student, path, reason FROM unmatched WHERE run_id = ?1",
        params![from_run],
    )? {
        to.execute(
            "INSERT INTO unmatched (run_id, student, path, reason) VALUES (?1, ?2, ?3, ?4)",
            &after(to_run, row.into_values()),
        )?;
    }
    Ok(())
}
