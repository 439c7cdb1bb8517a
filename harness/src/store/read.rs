//! Reading the store: the runs it holds, one run as a gradebook, and the
//! latest reusable result for a cache key.

use super::Store;
use super::codec::{TEST_SELECT, test_from_row};
use super::engine::{DbError, Sql};
use super::value::{Row, params};
use crate::errors::Error;
use crate::owner::Owner;
use crate::report::gradebook::{Gradebook, Handin, ProblemInfo, RunInfo, Submission, Unmatched};
use crate::runner::{TaskReport, TestReport};
use crate::verdict::Verdict;

const RUN_SELECT: &str = "SELECT id, started_at, finished_at, command, judge_version, isolation, \
     machine, partition, source, merged_from, interrupted, deadline, late_rule, policy FROM runs";

fn run_from_row(row: &Row) -> Result<RunInfo, DbError> {
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
        deadline: row.get(11)?,
        late_rule: row.get(12)?,
        policy: row.get(13)?,
    })
}

/// Columns 10 to 13 of a submission row: its commit, time and lateness.
fn handin_from_row(row: &Row) -> Result<Option<Handin>, DbError> {
    let at: Option<String> = row.get(11)?;
    let from: Option<String> = row.get(12)?;
    Ok(match at.zip(from) {
        Some((at, from)) => Some(Handin {
            commit: row.get(10)?,
            at,
            from,
            late_seconds: row.get(13)?,
        }),
        None => None,
    })
}

fn count(value: i64) -> usize {
    usize::try_from(value).unwrap_or(0)
}

impl Store {
    /// Every run, oldest first.
    pub fn runs(&self) -> Result<Vec<RunInfo>, Error> {
        let query = || -> Result<Vec<RunInfo>, DbError> {
            self.sql()
                .query(&format!("{RUN_SELECT} ORDER BY id"), &[])?
                .iter()
                .map(run_from_row)
                .collect()
        };
        query().map_err(|e| self.fail(e))
    }

    /// The latest reusable result stored under `key`.
    pub fn lookup(&self, key: &str) -> Result<Option<TestReport>, Error> {
        let query = || -> Result<Option<TestReport>, DbError> {
            self.sql()
                .query_opt(
                    &format!(
                        "SELECT {TEST_SELECT} FROM test_results WHERE cache_key = ?1 \
                         ORDER BY id DESC LIMIT 1"
                    ),
                    params![key],
                )?
                .map(|row| test_from_row(&row).map(|(r, _)| r))
                .transpose()
        };
        query().map_err(|e| self.fail(e))
    }

    /// One run as a gradebook.
    pub fn gradebook(&self, run: i64) -> Result<Gradebook, Error> {
        read_gradebook(&mut *self.sql(), run).map_err(|e| self.fail(e))
    }

    /// How many test results of `run` were run and how many reused.
    pub fn counts(&self, run: i64) -> Result<(usize, usize), Error> {
        let query = || -> Result<(usize, usize), DbError> {
            // A sum of integers is an integer in SQLite and a NUMERIC in
            // PostgreSQL: cast back, so both engines return a BIGINT.
            let row = self.sql().query_one(
                "SELECT COUNT(*), COALESCE(CAST(SUM(reused) AS BIGINT), 0) \
                 FROM test_results WHERE submission_id IN \
                 (SELECT id FROM submissions WHERE run_id = ?1)",
                params![run],
            )?;
            let (all, reused) = (count(row.get(0)?), count(row.get(1)?));
            Ok((all - reused.min(all), reused))
        };
        query().map_err(|e| self.fail(e))
    }
}

fn read_gradebook(db: &mut impl Sql, run: i64) -> Result<Gradebook, DbError> {
    let info = run_from_row(&db.query_one(&format!("{RUN_SELECT} WHERE id = ?1"), params![run])?)?;
    let problems: Vec<ProblemInfo> = db
        .query(
            "SELECT problem, title, time_ms, wall_ms, memory_kib, tests FROM problems \
             WHERE run_id = ?1 ORDER BY problem",
            params![run],
        )?
        .iter()
        .map(|row| {
            Ok(ProblemInfo {
                id: row.get(0)?,
                title: row.get(1)?,
                time_ms: row.get::<i64>(2)?.max(0) as u64,
                wall_ms: row.get::<i64>(3)?.max(0) as u64,
                memory_kib: row.get::<i64>(4)?.max(0) as u64,
                tests: count(row.get(5)?),
            })
        })
        .collect::<Result<_, DbError>>()?;
    let mut entries = Vec::new();
    // A grading has one submission per student and problem; a served
    // session has many, and the last one read stands in the
    // gradebook: so the best (AC, then the highest score, then the
    // latest) is read last.
    let rows = db.query(
        "SELECT id, student, problem, path, content_hash, language, verdict, score, \
         message, skipped_tests, commit_id, handed_in_at, handed_in_from, late_seconds \
         FROM submissions WHERE run_id = ?1 \
         ORDER BY CASE WHEN verdict = 'AC' THEN 1 ELSE 0 END, COALESCE(score, -1), id",
        params![run],
    )?;
    for row in rows {
        let id: i64 = row.get(0)?;
        let student: Option<String> = row.get(1)?;
        let problem: String = row.get(2)?;
        let path: Option<String> = row.get(3)?;
        let verdict: Option<String> = row.get(6)?;
        // Outside a class the file stands for the student.
        let owner = match (&student, &path) {
            (Some(student), Some(path)) => Some(Owner::Student {
                student: student.clone(),
                problem: problem.clone(),
                file: path.into(),
            }),
            (None, Some(path)) => Some(Owner::File { path: path.into() }),
            (_, None) => None,
        };
        let label = student
            .or_else(|| path.clone())
            .unwrap_or_else(|| "?".into());
        let submission = match (path, owner, verdict) {
            (Some(path), Some(owner), Some(verdict)) => {
                let (tests, reused) = tests_of(db, id)?;
                Some(Submission {
                    report: TaskReport {
                        problem: problem.clone(),
                        submission: path.clone(),
                        owner,
                        verdict: Verdict::from_short(&verdict).unwrap_or(Verdict::JudgeError),
                        score: row.get(7)?,
                        message: row.get(8)?,
                        tests,
                        skipped: count(row.get(9)?),
                    },
                    path,
                    content_hash: row.get(4)?,
                    language: row.get(5)?,
                    reused,
                    handin: handin_from_row(&row)?,
                })
            }
            _ => None,
        };
        entries.push((label, problem, submission));
    }
    let unmatched = db
        .query(
            "SELECT student, path, reason FROM unmatched WHERE run_id = ?1",
            params![run],
        )?
        .iter()
        .map(|row| {
            Ok(Unmatched {
                student: row.get(0)?,
                path: row.get(1)?,
                reason: row.get(2)?,
            })
        })
        .collect::<Result<_, DbError>>()?;
    let mut book = Gradebook::assemble(info, problems, entries, unmatched);
    book.clarifications = super::clarifications::archive(db, run)?;
    Ok(book)
}

/// A stored submission's test results in test order, and whether each was
/// reused (also for `judge serve`).
pub(crate) fn tests_of(
    db: &mut impl Sql,
    submission: i64,
) -> Result<(Vec<TestReport>, Vec<bool>), DbError> {
    let rows = db.query(
        &format!(
            "SELECT {TEST_SELECT} FROM test_results WHERE submission_id = ?1 ORDER BY ordinal"
        ),
        params![submission],
    )?;
    let mut tests = Vec::new();
    let mut reused = Vec::new();
    for row in &rows {
        let (test, was_reused) = test_from_row(row)?;
        tests.push(test);
        reused.push(was_reused);
    }
    Ok((tests, reused))
}
