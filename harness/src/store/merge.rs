//! Combining the stores of a class graded in shards into one run.
//!
//! The latest run of each input becomes part of one new run in the output
//! store: its problems, submissions (with every test result and cache key,
//! so the merged store serves as a cache too) and unmatched files, all in
//! one transaction.

use std::path::Path;

use rusqlite::types::Value;
use rusqlite::{Connection, Transaction, params, params_from_iter};

use super::Store;
use super::schema::{SUBMISSION_COLUMNS, TEST_COLUMNS};
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
    pub fn merge(&mut self, inputs: &[&Path]) -> Result<Merged, Error> {
        let mut sources = Vec::new();
        let mut stores = Vec::new();
        for path in inputs {
            // Opening brings an older store's schema up to date.
            let store = Store::open(path)?;
            let Some(run) = store.runs()?.pop() else {
                return Err(Error::Usage(format!("{} holds no run", path.display())));
            };
            sources.push((path.to_path_buf(), run));
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
        sources: &[(std::path::PathBuf, RunInfo)],
        stores: &[Store],
    ) -> rusqlite::Result<(i64, Vec<String>, usize)> {
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
            .map(|(path, run)| {
                format!(
                    "{} run {}{}",
                    path.display(),
                    run.id,
                    run.partition
                        .as_ref()
                        .map(|p| format!(" ({p})"))
                        .unwrap_or_default()
                )
            })
            .collect();
        let tx = self.conn.transaction()?;
        tx.execute(
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
        let run = tx.last_insert_rowid();
        for (store, source) in stores.iter().zip(&runs) {
            copy_run(&store.conn, &tx, source.id, run)?;
        }
        // A student's problem graded by two inputs: the later input wins.
        let mut warnings = Vec::new();
        {
            let mut duplicates = tx.prepare(
                "SELECT COALESCE(student, path), problem, MAX(id) FROM submissions \
                 WHERE run_id = ?1 GROUP BY COALESCE(student, path), problem HAVING COUNT(*) > 1",
            )?;
            let rows: Vec<(String, String, i64)> = duplicates
                .query_map(params![run], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
            for (student, problem, keep) in rows {
                warnings.push(format!(
                    "{student} / {problem} is in more than one input: the last one is kept"
                ));
                tx.execute(
                    "DELETE FROM submissions WHERE run_id = ?1 AND COALESCE(student, path) = ?2 \
                     AND problem = ?3 AND id != ?4",
                    params![run, student, problem, keep],
                )?;
            }
        }
        let count: i64 = tx.query_row(
            "SELECT COUNT(*) FROM submissions WHERE run_id = ?1 AND verdict IS NOT NULL",
            params![run],
            |r| r.get(0),
        )?;
        tx.commit()?;
        Ok((run, warnings, count.max(0) as usize))
    }
}

/// Shards that do not make up a whole class: missing, repeated or of
/// different counts.
fn coverage_warnings(sources: &[(std::path::PathBuf, RunInfo)]) -> Vec<String> {
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
        .map(|(path, _)| format!("{} holds an interrupted grading", path.display()))
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

/// The rows `sql` selects from `from`, each as its column values.
fn select(from: &Connection, sql: &str, id: i64) -> rusqlite::Result<Vec<Vec<Value>>> {
    let mut statement = from.prepare_cached(sql)?;
    let width = statement.column_count();
    let rows = statement.query_map(params![id], |row| {
        (0..width).map(|i| row.get::<_, Value>(i)).collect()
    })?;
    rows.collect()
}

/// Copies run `from_run` of `from` into run `to_run` of `to`.
fn copy_run(
    from: &Connection,
    to: &Transaction<'_>,
    from_run: i64,
    to_run: i64,
) -> rusqlite::Result<()> {
    for row in select(
        from,
        "SELECT problem, title, time_ms, wall_ms, memory_kib, tests FROM problems \
         WHERE run_id = ?1",
        from_run,
    )? {
        to.execute(
            "INSERT OR IGNORE INTO problems (run_id, problem, title, time_ms, wall_ms, \
             memory_kib, tests) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params_from_iter(std::iter::once(Value::Integer(to_run)).chain(row)),
        )?;
    }
    let submission_width = column_count(SUBMISSION_COLUMNS);
    let insert_submission = format!(
        "INSERT INTO submissions (run_id, {SUBMISSION_COLUMNS}) VALUES (?1, {})",
        placeholders(2, submission_width)
    );
    let insert_test = format!(
        "INSERT INTO test_results (submission_id, {TEST_COLUMNS}) VALUES (?1, {})",
        placeholders(2, column_count(TEST_COLUMNS))
    );
    let submissions = select(
        from,
        &format!("SELECT id, {SUBMISSION_COLUMNS} FROM submissions WHERE run_id = ?1 ORDER BY id"),
        from_run,
    )?;
    for mut row in submissions {
        let Value::Integer(old_id) = row.remove(0) else {
            continue;
        };
        to.prepare_cached(&insert_submission)?
            .execute(params_from_iter(
                std::iter::once(Value::Integer(to_run)).chain(row),
            ))?;
        let new_id = to.last_insert_rowid();
        let tests = select(
            from,
            &format!(
                "SELECT {TEST_COLUMNS} FROM test_results WHERE submission_id = ?1 ORDER BY ordinal"
            ),
            old_id,
        )?;
        for test in tests {
            to.prepare_cached(&insert_test)?.execute(params_from_iter(
                std::iter::once(Value::Integer(new_id)).chain(test),
            ))?;
        }
    }
    for row in select(
        from,
        "SELECT student, path, reason FROM unmatched WHERE run_id = ?1",
        from_run,
    )? {
        to.execute(
            "INSERT INTO unmatched (run_id, student, path, reason) VALUES (?1, ?2, ?3, ?4)",
            params_from_iter(std::iter::once(Value::Integer(to_run)).chain(row)),
        )?;
    }
    Ok(())
}
