//! Recording one grading run: the run, its problems, every submission with
//! its tests, and the files that matched no problem, in one transaction.

use std::time::SystemTime;

use super::Store;
use super::codec::insert_test;
use super::engine::{DbError, Sql};
use super::schema::SUBMISSION_COLUMNS;
use super::value::params;
use crate::errors::Error;
use crate::report::gradebook::{Handin, ProblemInfo, Unmatched};
use crate::runner::TaskReport;

/// What a run says about itself.
#[derive(Debug, Clone)]
pub struct RunMeta {
    pub started_at: SystemTime,
    /// `grade` or `verify`.
    pub command: String,
    pub judge_version: String,
    /// The sandbox's one-line description.
    pub isolation: String,
    pub machine: String,
    /// `K/N` for one shard of a class.
    pub partition: Option<String>,
    /// The class folder or manifest.
    pub source: Option<String>,
    pub interrupted: bool,
    /// `--deadline` (RFC 3339), `--late` and the grading policy's text.
    pub deadline: Option<String>,
    pub late_rule: Option<String>,
    pub policy: Option<String>,
}

/// Who judged a submission that a worker judged, not the run's own machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgedBy {
    /// The worker's name (`judge worker --name`).
    pub worker: String,
    /// Its sandbox's one-line description.
    pub isolation: String,
    /// Its judge's version and executable hash.
    pub judge_version: String,
}

/// One submission to record (or a student's "no submission" for a problem).
pub struct SubmissionRecord<'a> {
    /// `None` outside a class (`verify`, `grade ID FILE...`).
    pub student: Option<String>,
    pub problem: String,
    /// `None`: the student has no submission for the problem.
    pub path: Option<String>,
    pub content_hash: Option<String>,
    pub language: Option<String>,
    pub build_hash: Option<String>,
    pub report: Option<&'a TaskReport>,
    /// Per test of `report.tests`: its cache key (`None`: never to be
    /// reused) and whether it was itself reused.
    pub tests: Vec<(Option<String>, bool)>,
    /// `None`: judged by the run's own machine.
    pub judged_by: Option<JudgedBy>,
    /// When it was handed in, against a deadline.
    pub handin: Option<Handin>,
}

impl SubmissionRecord<'_> {
    /// A student's "no submission" for a problem.
    pub(crate) fn missing(student: &str, problem: &str) -> SubmissionRecord<'static> {
        SubmissionRecord {
            student: Some(student.to_string()),
            problem: problem.to_string(),
            path: None,
            content_hash: None,
            language: None,
            build_hash: None,
            report: None,
            tests: Vec::new(),
            judged_by: None,
            handin: None,
        }
    }
}

pub(super) fn timestamp(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

impl Store {
    /// Records a finished run; returns its id.
    pub fn record_run(
        &mut self,
        meta: &RunMeta,
        problems: &[ProblemInfo],
        submissions: &[SubmissionRecord<'_>],
        unmatched: &[Unmatched],
    ) -> Result<i64, Error> {
        self.try_record(meta, problems, submissions, unmatched)
            .map_err(|e| self.fail(e))
    }

    fn try_record(
        &mut self,
        meta: &RunMeta,
        problems: &[ProblemInfo],
        submissions: &[SubmissionRecord<'_>],
        unmatched: &[Unmatched],
    ) -> Result<i64, DbError> {
        let db = self.db();
        let mut tx = db.transaction()?;
        let run = insert_run(&mut tx, meta)?;
        insert_problems(&mut tx, run, problems)?;
        for submission in submissions {
            insert_submission(&mut tx, run, submission)?;
        }
        insert_unmatched(&mut tx, run, unmatched)?;
        tx.commit()?;
        Ok(run)
    }
}

/// Records the files of a class that were not graded, with why.
pub(crate) fn insert_unmatched(
    tx: &mut impl Sql,
    run: i64,
    unmatched: &[Unmatched],
) -> Result<(), DbError> {
    for file in unmatched {
        tx.execute(
            "INSERT INTO unmatched (run_id, student, path, reason) VALUES (?1, ?2, ?3, ?4)",
            params![run, file.student, file.path, file.reason],
        )?;
    }
    Ok(())
}

/// Records when a student's file for a problem was handed in, once a
/// worker has recorded its judging (a queued grading against a deadline).
pub(crate) fn set_handin(
    tx: &mut impl Sql,
    run: i64,
    student: &str,
    problem: &str,
    handin: &Handin,
) -> Result<(), DbError> {
    tx.execute(
        "UPDATE submissions SET commit_id = ?4, handed_in_at = ?5, handed_in_from = ?6, \
         late_seconds = ?7 WHERE run_id = ?1 AND student = ?2 AND problem = ?3",
        params![
            run,
            student,
            problem,
            handin.commit,
            handin.at,
            handin.from,
            handin.late_seconds,
        ],
    )?;
    Ok(())
}

/// Marks a run begun unfinished (a queued grading) as finished now.
pub(crate) fn close_run(tx: &mut impl Sql, run: i64) -> Result<(), DbError> {
    tx.execute(
        "UPDATE runs SET finished_at = ?2, interrupted = 0 WHERE id = ?1",
        params![run, timestamp(SystemTime::now())],
    )?;
    Ok(())
}

/// Inserts a run's row; returns its id.
pub(crate) fn insert_run(tx: &mut impl Sql, meta: &RunMeta) -> Result<i64, DbError> {
    tx.insert(
        "INSERT INTO runs (started_at, finished_at, command, judge_version, isolation, \
         machine, partition, source, interrupted, deadline, late_rule, policy) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            timestamp(meta.started_at),
            timestamp(SystemTime::now()),
            meta.command,
            meta.judge_version,
            meta.isolation,
            meta.machine,
            meta.partition,
            meta.source,
            meta.interrupted,
            meta.deadline,
            meta.late_rule,
            meta.policy,
        ],
    )
}

/// Inserts (or brings up to date) the problems a run graded.
pub(crate) fn insert_problems(
    tx: &mut impl Sql,
    run: i64,
    problems: &[ProblemInfo],
) -> Result<(), DbError> {
    for problem in problems {
        tx.execute(
            "INSERT INTO problems (run_id, problem, title, time_ms, wall_ms, memory_kib, \
             tests) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (run_id, problem) DO UPDATE SET title = excluded.title, \
             time_ms = excluded.time_ms, wall_ms = excluded.wall_ms, \
             memory_kib = excluded.memory_kib, tests = excluded.tests",
            params![
                run,
                problem.id,
                problem.title,
                problem.time_ms,
                problem.wall_ms,
                problem.memory_kib,
                problem.tests,
            ],
        )?;
    }
    Ok(())
}

/// Inserts one submission of run `run` with its tests, inside the caller's
/// transaction (a grading's, a worker's or `judge serve` recording one
/// judging); returns its id.
pub(crate) fn insert_submission(
    tx: &mut impl Sql,
    run: i64,
    submission: &SubmissionRecord<'_>,
) -> Result<i64, DbError> {
    let report = submission.report;
    let judged_by = submission.judged_by.as_ref();
    let handin = submission.handin.as_ref();
    let id = tx.insert(
        &format!(
            "INSERT INTO submissions (run_id, {SUBMISSION_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, \
             ?16, ?17, ?18)"
        ),
        params![
            run,
            submission.student,
            submission.problem,
            submission.path,
            submission.content_hash,
            submission.language,
            submission.build_hash,
            report.map(|r| r.verdict.short()),
            report.and_then(|r| r.score),
            report.and_then(|r| r.message.as_deref()),
            report.map_or(0, |r| r.skipped),
            handin.and_then(|h| h.commit.as_deref()),
            handin.map(|h| h.at.as_str()),
            handin.map(|h| h.from.as_str()),
            handin.and_then(|h| h.late_seconds),
            judged_by.map(|j| j.worker.as_str()),
            judged_by.map(|j| j.isolation.as_str()),
            judged_by.map(|j| j.judge_version.as_str()),
        ],
    )?;
    for (ordinal, test) in report.iter().flat_map(|r| &r.tests).enumerate() {
        let (key, reused) = submission
            .tests
            .get(ordinal)
            .map_or((None, false), |(k, r)| (k.as_deref(), *r));
        insert_test(tx, id, ordinal, test, key, reused)?;
    }
    Ok(id)
}
