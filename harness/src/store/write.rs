//! Recording one grading run: the run, its problems, every submission with
//! its tests, and the files that matched no problem, in one transaction.

use std::time::SystemTime;

use rusqlite::params;

use super::Store;
use super::codec::insert_test;
use super::schema::SUBMISSION_COLUMNS;
use crate::errors::Error;
use crate::report::gradebook::{ProblemInfo, Unmatched};
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
    ) -> rusqlite::Result<i64> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO runs (started_at, finished_at, command, judge_version, isolation, \
             machine, partition, source, interrupted) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
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
            ],
        )?;
        let run = tx.last_insert_rowid();
        for problem in problems {
            tx.execute(
                "INSERT INTO problems (run_id, problem, title, time_ms, wall_ms, memory_kib, \
                 tests) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    run,
                    problem.id,
                    problem.title,
                    problem.time_ms as i64,
                    problem.wall_ms as i64,
                    problem.memory_kib as i64,
                    problem.tests as i64,
                ],
            )?;
        }
        for submission in submissions {
            insert_submission(&tx, run, submission)?;
        }
        for file in unmatched {
            tx.execute(
                "INSERT INTO unmatched (run_id, student, path, reason) VALUES (?1, ?2, ?3, ?4)",
                params![run, file.student, file.path, file.reason],
            )?;
        }
        tx.commit()?;
        Ok(run)
    }
}

/// Inserts one submission of run `run` with its tests, inside the caller's
/// transaction (a grading's, or `judge serve` recording one judging);
/// returns its id.
pub(crate) fn insert_submission(
    tx: &rusqlite::Transaction<'_>,
    run: i64,
    submission: &SubmissionRecord<'_>,
) -> rusqlite::Result<i64> {
    let report = submission.report;
    tx.prepare_cached(&format!(
        "INSERT INTO submissions (run_id, {SUBMISSION_COLUMNS}) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
    ))?
    .execute(params![
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
        report.map_or(0, |r| r.skipped as i64),
    ])?;
    let id = tx.last_insert_rowid();
    for (ordinal, test) in report.iter().flat_map(|r| &r.tests).enumerate() {
        let (key, reused) = submission
            .tests
            .get(ordinal)
            .map_or((None, false), |(k, r)| (k.as_deref(), *r));
        insert_test(tx, id, ordinal, test, key, reused)?;
    }
    Ok(id)
}
