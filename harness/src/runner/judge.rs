//! Judging one submission on one test: run it, apply the verdict precedence,
//! compare its output.

use std::path::Path;

use crate::checker::run_checker;
use crate::compare::{Comparison, TokenOptions, compare_exact, compare_tokens};
use crate::compile::Executable;
use crate::errors::JudgeFailure;
use crate::sandbox::{RunRequest, Runs, STDERR_KEEP};
use crate::spec::{CompareMode, ProblemSpec, TestCase};
use crate::verdict::{Verdict, describe_termination};

use super::{RunTiming, TestReport, Timing};

/// The part of stderr a report keeps.
pub(super) const STDERR_SHOWN: usize = 2 << 10;

/// The stack a submission may use: the memory limit less a reserve (a
/// quarter, at most 16 MiB) for the heap and the runtime, so that runaway
/// recursion ends as a stack overflow (RE) below the memory limit rather
/// than as MLE, while deep legitimate recursion still has room.
pub(crate) fn submission_stack(memory: u64) -> u64 {
    memory - (memory / 4).min(16 << 20)
}

/// One submission on one test, and what judging it needs.
#[derive(Clone, Copy)]
pub struct TestRun<'a> {
    pub sandbox: &'a dyn Runs,
    pub problem: &'a ProblemSpec,
    /// The problem's built judging program (checker or interactor), when it
    /// has one.
    pub checker: Option<&'a Executable>,
    /// The built checker of a testlib interactor's output file.
    pub output_checker: Option<&'a Executable>,
    /// The submission.
    pub exe: &'a Executable,
    pub test: &'a TestCase,
    /// An empty folder to run in, emptied again afterwards: a worker reuses
    /// one, as creating a folder per run costs more than the run itself on
    /// some filesystems.
    pub workdir: &'a Path,
}

/// Runs the submission on the test and judges it (again, when a busy
/// machine may have decided a timing verdict).
pub fn judge_test(run: &TestRun<'_>) -> TestReport {
    let TestRun {
        sandbox,
        problem,
        workdir,
        ..
    } = *run;
    let judge_once = || {
        let report = if let Some(passes) = multi_pass(problem) {
            super::multipass::judge_passes(run, passes)
        } else if problem.interactor.is_some() {
            super::interactive::judge_interactive(run)
        } else {
            judge_in(run)
        };
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
    };
    let first = judge_once();
    if !timing_disturbed(&first, &problem.limits) || sandbox.is_cancelled() {
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

/// The most passes a Kattis multi-pass problem may run, `None` for others.
fn multi_pass(problem: &ProblemSpec) -> Option<u32> {
    match problem.package.as_deref()?.interaction {
        crate::formats::Interaction::MultiPass { passes, .. } => Some(passes),
        _ => None,
    }
}

/// Runs of a test whose timing was disturbed, all told.
const TIMING_RUNS: usize = 3;

/// Whether a busy machine may have decided `report`'s verdict: the verdict
/// depends on time (TLE, or CPU time close to the limit) and the run spent
/// a noticeable share of its wall time waiting for a CPU.
fn timing_disturbed(report: &TestReport, limits: &crate::spec::Limits) -> bool {
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

/// Removes everything inside `dir`, keeping `dir`.
pub(crate) fn empty_dir(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

fn judge_in(run: &TestRun<'_>) -> TestReport {
    let (mut report, stdout) = run_batch(run, &run.test.input);
    let Some(stdout) = stdout else {
        return report;
    };
    // A checker's files (the output it reads, its feedback folder) go into
    // a folder of the judge's own: the run's folder was the run's, and a
    // name in it may lead anywhere by now. Built-in comparisons write none.
    let folder = match &run.problem.compare.mode {
        CompareMode::Checker(_) => match judges_folder(run.workdir, "checker") {
            Ok(folder) => Some(folder),
            Err(e) => {
                let failure = JudgeFailure::judge("create a folder for the checker", e);
                apply_comparison(&mut report, Err(failure), false);
                return report;
            }
        },
        _ => None,
    };
    // (Only a checker uses the folder it is given.)
    let scratch = folder.as_ref().map_or(run.workdir, |f| f.path());
    let comparison = judge_output(
        run.sandbox,
        run.problem,
        run.checker,
        run.test,
        &stdout,
        scratch,
    );
    apply_comparison(&mut report, comparison, run.problem.presentation_errors);
    report
}

/// A new folder of the judge's own beside the run folder `workdir` (never
/// inside a folder a run had), removed when dropped.
pub(super) fn judges_folder(workdir: &Path, prefix: &str) -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(workdir.parent().unwrap_or(workdir))
}

/// Runs the submission on `input` (its stdin) in its folder, with the
/// test's `.files` and arguments: the report so far and its stdout, to be
/// judged. Without stdout, the report is final: the run failed by itself
/// (TLE, RE, MLE, OLE) or could not run (JE).
pub(super) fn run_batch(run: &TestRun<'_>, input: &Path) -> (TestReport, Option<Vec<u8>>) {
    let TestRun {
        sandbox,
        problem,
        exe,
        test,
        workdir,
        ..
    } = *run;
    let mut report = TestReport::unjudged(test);
    let seed = match &test.files {
        Some(files) => match files_of(files) {
            Ok(seed) => seed,
            Err(e) => {
                report.detail = Some(format!("failed to read {}: {e}", files.display()));
                return (report, None);
            }
        },
        None => Vec::new(),
    };
    let outcome = match sandbox.run(&RunRequest {
        stdin: Some(input.to_path_buf()),
        stack: Some(submission_stack(problem.limits.memory)),
        seed,
        ..exe.with_args(&test.args).request(
            workdir,
            problem.limits,
            crate::sandbox::Containment::Submission,
        )
    }) {
        Ok(outcome) => outcome,
        Err(e) => {
            report.detail = Some(e.to_string());
            return (report, None);
        }
    };
    report.metrics = outcome.metrics;
    report.termination = Some(outcome.termination);
    report.stderr = crate::escape::visible_bytes(
        &outcome.stderr[..outcome.stderr.len().min(STDERR_SHOWN.min(STDERR_KEEP))],
    );
    if let Some(verdict) = Verdict::from_run(&outcome, &problem.limits) {
        report.verdict = verdict;
        report.detail = Some(describe_termination(outcome.termination));
        return (report, None);
    }
    (report, Some(outcome.stdout))
}

/// Judges `output` against `test`'s answer by the problem's `compare` mode:
/// a batch submission's stdout, or the output file a testlib interactor
/// wrote. `checker` is the built checker for `mode = "checker"`; it runs in
/// `scratch`. `Err` is the judge's failure.
pub(super) fn judge_output(
    sandbox: &dyn Runs,
    problem: &ProblemSpec,
    checker: Option<&Executable>,
    test: &TestCase,
    output: &[u8],
    scratch: &Path,
) -> Result<Comparison, JudgeFailure> {
    match &problem.compare.mode {
        CompareMode::Checker(tool) => match checker {
            Some(checker) => run_checker(sandbox, checker, tool, test, output, scratch),
            None => Err(JudgeFailure::program("checker", "was not built")),
        },
        mode => compare_with_answer(mode, test, output),
    }
}

/// The verdict the problem's judging of output files gives `output` on
/// `test`, with the checker's message or the judge error: a package's own
/// tests of its output validator or checker (`valid_output/`, Polygon
/// checker tests) are judged as a submission's output would be.
pub(crate) fn judge_output_file(
    sandbox: &dyn Runs,
    problem: &ProblemSpec,
    checker: Option<&Executable>,
    test: &TestCase,
    output: &[u8],
    scratch: &Path,
) -> (Verdict, Option<String>) {
    let mut report = TestReport::unjudged(test);
    let comparison = judge_output(sandbox, problem, checker, test, output, scratch);
    apply_comparison(&mut report, comparison, problem.presentation_errors);
    (report.verdict, report.detail)
}

/// The verdict, score and message of a comparison, or its judge error.
/// Without presentation errors (Kattis packages), a PE is a wrong answer.
pub(super) fn apply_comparison(
    report: &mut TestReport,
    comparison: Result<Comparison, JudgeFailure>,
    presentation_errors: bool,
) {
    match comparison {
        Ok(comparison) => {
            report.verdict = Verdict::from_comparison(&comparison);
            if report.verdict == Verdict::PresentationError && !presentation_errors {
                report.verdict = Verdict::WrongAnswer;
            }
            report.score = comparison.score;
            report.detail = comparison.message;
            report.difference = comparison.difference;
        }
        Err(failure) => {
            report.verdict = Verdict::JudgeError;
            report.detail = Some(failure.to_string());
        }
    }
}

/// The built-in comparisons of `output` with the test's answer.
fn compare_with_answer(
    mode: &CompareMode,
    test: &TestCase,
    output: &[u8],
) -> Result<Comparison, JudgeFailure> {
    let answer = std::fs::read(&test.answer)
        .map_err(|e| JudgeFailure::judge(format!("read {}", test.answer.display()), e))?;
    Ok(match mode {
        CompareMode::Tokens(options) => compare_tokens(&answer, output, options),
        CompareMode::KattisFlags => compare_tokens(
            &answer,
            output,
            &TokenOptions::from_kattis_flags(&test.checker_args).map_err(|why| {
                JudgeFailure::program("default output validator", format!("flags: {why}"))
            })?,
        ),
        _ => compare_exact(&answer, output),
    })
}

/// The files of `from` (a Kattis `.files` folder, the setter's), each by
/// its path inside it: the sandbox places them in the run's working
/// folder, whatever that folder is at this isolation level.
pub(super) fn files_of(from: &Path) -> std::io::Result<Vec<crate::sandbox::SeedFile>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(from).min_depth(1).sort_by_file_name() {
        let entry = entry?;
        if !entry.file_type().is_dir() {
            let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
            files.push((relative.to_path_buf(), std::fs::read(entry.path())?));
        }
    }
    Ok(files)
}
