//! Reading the store: the runs it holds, one run as a gradebook, and the
//! latest reusable result for a cache key.

use rusqlite::{OptionalExtension, Row, params};

use super::Store;
use super::codec::{TEST_SELECT, test_from_row};
use crate::errors::Error;
use crate::report::gradebook::{Gradebook, ProblemInfo, RunInfo, Submission, Unmatched};
use crate::runner::{TaskReport, TestReport};
use crate::verdict::Verdict;

const RUN_SELECT: &str = "SELECT id, started_at, finished_at, command, judge_version, isolation, \
     machine, partition, source, merged_from, interrupted FROM runs";

fn run_from_row(row: &Row<'_>) -> rusqlite::Result<RunInfo> {
    Ok(RunInfo {
        id: row.get(0)?,
        started_at: row.get(1)?,
        finished_at: row.get(2)?,
        command: row.get(3)?,
        judge_version: row.get(4)?,
        isolation: row.get(5)?,
        machine: row.get(6)?,
        partition: row.get(7)?,
        source: row.get(8)?,
        merged_from: row.get(9)?,
        interrupted: row.get(10)?,
    })
}

impl Store {
    /// Every run, oldest first.
    pub fn runs(&self) -> Result<Vec<RunInfo>, Error> {
        let query = || -> rusqlite::Result<Vec<RunInfo>> {
            let mut statement = self.conn.prepare(&format!("{RUN_SELECT} ORDER BY id"))?;
            statement.query_map([], run_from_row)?.collect()
        };
        query().map_err(|e| self.fail(e))
    }

    /// The latest reusable result stored under `key`.
    pub fn lookup(&self, key: &str) -> Result<Option<TestReport>, Error> {
        let query = || -> rusqlite::Result<Option<TestReport>> {
            self.conn
                .prepare_cached(&format!(
                    "SELECT {TEST_SELECT} FROM test_results WHERE cache_key = ?1 \
                     ORDER BY id DESC LIMIT 1"
                ))?
                .query_row(params![key], |row| test_from_row(row).map(|(r, _)| r))
                .optional()
        };
        query().map_err(|e| self.fail(e))
    }

    /// One run as a gradebook.
    pub fn gradebook(&self, run: i64) -> Result<Gradebook, Error> {
        self.read_gradebook(run).map_err(|e| self.fail(e))
    }

    fn read_gradebook(&self, run: i64) -> rusqlite::Result<Gradebook> {
        let info = self.conn.query_row(
            &format!("{RUN_SELECT} WHERE id = ?1"),
            params![run],
            run_from_row,
        )?;
        let problems: Vec<ProblemInfo> = self
            .conn
            .prepare(
                "SELECT problem, title, time_ms, wall_ms, memory_kib, tests FROM problems \
                 WHERE run_id = ?1 ORDER BY problem",
            )?
            .query_map(params![run], |row| {
                Ok(ProblemInfo {
                    id: row.get(0)?,
                    title: row.get(1)?,
                    time_ms: row.get::<_, i64>(2)?.max(0) as u64,
                    wall_ms: row.get::<_, i64>(3)?.max(0) as u64,
                    memory_kib: row.get::<_, i64>(4)?.max(0) as u64,
                    tests: row.get::<_, i64>(5)?.max(0) as usize,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut entries = Vec::new();
        // A grading has one submission per student and problem; a served
        // session has many, and the last one read stands in the
        // gradebook: so the best (AC, then the highest score, then the
        // latest) is read last.
        let mut statement = self.conn.prepare(
            "SELECT id, student, problem, path, content_hash, language, verdict, score, \
             message, skipped_tests FROM submissions WHERE run_id = ?1 \
             ORDER BY verdict = 'AC', COALESCE(score, -1), id",
        )?;
        let mut rows = statement.query(params![run])?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let student: Option<String> = row.get(1)?;
            let problem: String = row.get(2)?;
            let path: Option<String> = row.get(3)?;
            let verdict: Option<String> = row.get(6)?;
            // Outside a class the file stands for the student.
            let label = student
                .or_else(|| path.clone())
                .unwrap_or_else(|| "?".into());
            let submission = match (path, verdict) {
                (Some(path), Some(verdict)) => {
                    let (tests, reused) = self.tests_of(id)?;
                    Some(Submission {
                        report: TaskReport {
                            problem: problem.clone(),
                            submission: path.clone(),
                            verdict: Verdict::from_short(&verdict).unwrap_or(Verdict::JudgeError),
                            score: row.get(7)?,
                            message: row.get(8)?,
                            tests,
                            skipped: row.get::<_, i64>(9)?.max(0) as usize,
                        },
                        path,
                        content_hash: row.get(4)?,
                        language: row.get(5)?,
                        reused,
                    })
                }
                _ => None,
            };
            entries.push((label, problem, submission));
        }
        let unmatched = self
            .conn
            .prepare("SELECT student, path, reason FROM unmatched WHERE run_id = ?1")?
            .query_map(params![run], |row| {
                Ok(Unmatched {
                    student: row.get(0)?,
                    path: row.get(1)?,
                    reason: row.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Gradebook::assemble(info, problems, entries, unmatched))
    }

    fn tests_of(&self, submission: i64) -> rusqlite::Result<(Vec<TestReport>, Vec<bool>)> {
        tests_of(&self.conn, submission)
    }

    /// How many test results of `run` were run and how many reused.
    pub fn counts(&self, run: i64) -> Result<(usize, usize), Error> {
        let query = || -> rusqlite::Result<(usize, usize)> {
            self.conn.query_row(
                "SELECT COALESCE(SUM(reused = 0), 0), COALESCE(SUM(reused = 1), 0) \
                 FROM test_results WHERE submission_id IN \
                 (SELECT id FROM submissions WHERE run_id = ?1)",
                params![run],
                |row| {
                    Ok((
                        row.get::<_, i64>(0)?.max(0) as usize,
                        row.get::<_, i64>(1)?.max(0) as usize,
                    ))
                },
            )
        };
        query().map_err(|e| self.fail(e))
    }
}

/// A stored submission's test results in test order, and whether each was
/// reused (also for `judge serve`, on its own connection).
pub(crate) fn tests_of(
    conn: &rusqlite::Connection,
    submission: i64,
) -> rusqlite::Result<(Vec<TestReport>, Vec<bool>)> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {TEST_SELECT} FROM test_results WHERE submission_id = ?1 ORDER BY ordinal"
    ))?;
    let rows = statement.query_map(params![submission], test_from_row)?;
    let mut tests = Vec::new();
    let mut reused = Vec::new();
    for row in rows {
        let (test, was_reused) = row?;
        tests.push(test);
        reused.push(was_reused);
    }
    Ok((tests, reused))
}
