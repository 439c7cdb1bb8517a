//! Judging a test again when a busy machine may have decided its verdict,
//! and leaving the run folder empty after each judging.

use std::path::Path;

use crate::sandbox::Limits;
use crate::sandbox::Runs;
use crate::verdict::Verdict;

use super::super::{RunTiming, TestReport, Timing};
use super::empty_dir;

/// Runs of a test whose timing was disturbed, all told.
const TIMING_RUNS: usize = 3;

/// `judge_once`'s report (again, when a busy machine may have decided a
/// timing verdict: see `settle_timing`).
pub(crate) fn judged_steadily(
    sandbox: &dyn Runs,
    limits: &Limits,
    judge_once: impl Fn() -> TestReport,
) -> TestReport {
    let first = judge_once();
    if !timing_disturbed(&first, limits) || sandbox.is_cancelled() {
        return first;
    }
    // A busy machine may have decided this verdict: judge again, and keep
    // a verdict only if every run agrees on it.
    let mut runs = vec![first];
    while runs.len() < TIMING_RUNS && !sandbox.is_cancelled() {
        runs.push(judge_once());
    }
    settle_timing(runs)
}

/// `report`, once `workdir` is emptied for the next run (a judge error if
/// it cannot be).
pub(crate) fn cleaned(workdir: &Path, report: TestReport) -> TestReport {
    match empty_dir(workdir) {
        Ok(()) => report,
        Err(e) => TestReport {
            verdict: Verdict::JudgeError,
            detail: Some(format!(
                "failed to clean the run folder {}: {e}",
                workdir.display()
            )),
            ..report
        },
    }
}

/// Whether a busy machine may have decided `report`'s verdict: the verdict
/// depends on time (TLE, or CPU time close to the limit) and the run spent
/// a noticeable share of its wall time waiting for a CPU.
fn timing_disturbed(report: &TestReport, limits: &Limits) -> bool {
    let time_bound = report.verdict == Verdict::TimeLimitExceeded
        || report.metrics.cpu >= limits.time.mul_f64(0.8);
    let metrics = &report.metrics;
    time_bound
        && metrics.waited >= std::time::Duration::from_millis(20)
        && metrics.waited >= metrics.wall / 10
}

/// One report from the runs of a disturbed test. Agreeing runs give their
/// verdict. Runs that disagree are timing-unstable: the time limit is not
/// charged (the verdict is the first run's that did not exceed it), and
/// every run's verdict and times go into the report.
fn settle_timing(runs: Vec<TestReport>) -> TestReport {
    let timings: Vec<RunTiming> = runs
        .iter()
        .map(|r| RunTiming {
            verdict: r.verdict,
            cpu: r.metrics.cpu,
            wall: r.metrics.wall,
        })
        .collect();
    let stable = timings.iter().all(|t| t.verdict == timings[0].verdict);
    let chosen = if stable {
        runs.len() - 1
    } else {
        runs.iter()
            .position(|r| r.verdict != Verdict::TimeLimitExceeded)
            .unwrap_or(0)
    };
    let mut report = runs.into_iter().nth(chosen).expect("at least one run");
    report.timing = Some(Timing {
        unstable: !stable,
        runs: timings,
    });
    report
}
