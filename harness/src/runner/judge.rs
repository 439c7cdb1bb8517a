//! Judging one submission on one test: run it, apply the verdict precedence,
//! compare its output.

use std::path::Path;

use crate::checker::run_checker;
use crate::compare::{Comparison, compare_exact, compare_tokens};
use crate::compile::Executable;
use crate::sandbox::{RunRequest, STDERR_KEEP, Sandbox};
use crate::spec::{CompareMode, ProblemSpec, TestCase};
use crate::verdict::{Verdict, describe_termination};

use super::TestReport;

/// The part of stderr a report keeps.
const STDERR_SHOWN: usize = 2 << 10;

/// The stack a submission may use: the memory limit less a reserve (a
/// quarter, at most 16 MiB) for the heap and the runtime, so that runaway
/// recursion ends as a stack overflow (RE) below the memory limit rather
/// than as MLE, while deep legitimate recursion still has room.
pub(crate) fn submission_stack(memory: u64) -> u64 {
    memory - (memory / 4).min(16 << 20)
}

/// Runs `exe` on `test` in `workdir` (an empty folder, emptied again
/// afterwards: a worker reuses one, as creating a folder per run costs more
/// than the run itself on some filesystems) and judges it. `checker` is the
/// problem's built checker when it has one.
pub fn judge_test(
    sandbox: &Sandbox,
    problem: &ProblemSpec,
    checker: Option<&Executable>,
    exe: &Executable,
    test: &TestCase,
    workdir: &Path,
) -> TestReport {
    let report = judge_in(sandbox, problem, checker, exe, test, workdir);
    if let Err(e) = empty_dir(workdir) {
        let mut report = report;
        report.verdict = Verdict::JudgeError;
        report.detail = Some(format!(
            "failed to clean the run folder {}: {e}",
            workdir.display()
        ));
        return report;
    }
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

fn judge_in(
    sandbox: &Sandbox,
    problem: &ProblemSpec,
    checker: Option<&Executable>,
    exe: &Executable,
    test: &TestCase,
    workdir: &Path,
) -> TestReport {
    let mut report = TestReport::unjudged(test);
    let outcome = match sandbox.run(&RunRequest {
        program: exe.program.clone(),
        args: exe.args.clone(),
        stdin: Some(test.input.clone()),
        workdir: workdir.to_path_buf(),
        limits: problem.limits,
        env: Vec::new(),
        stack: Some(submission_stack(problem.limits.memory)),
        containment: crate::sandbox::Containment::Submission,
    }) {
        Ok(outcome) => outcome,
        Err(e) => {
            report.detail = Some(e.to_string());
            return report;
        }
    };
    report.metrics = outcome.metrics;
    report.termination = Some(outcome.termination);
    report.stderr = String::from_utf8_lossy(
        &outcome.stderr[..outcome.stderr.len().min(STDERR_SHOWN.min(STDERR_KEEP))],
    )
    .into_owned();
    if let Some(verdict) = Verdict::from_run(&outcome, &problem.limits) {
        report.verdict = verdict;
        report.detail = Some(describe_termination(outcome.termination));
        return report;
    }

    let comparison: Result<Comparison, String> = match &problem.compare.mode {
        CompareMode::Checker(tool) => match checker {
            Some(checker) => run_checker(
                sandbox,
                checker,
                &tool.args,
                &test.input,
                &test.answer,
                &outcome.stdout,
                workdir,
            ),
            None => Err("the checker was not built".into()),
        },
        mode => match std::fs::read(&test.answer) {
            Err(e) => Err(format!("failed to read {}: {e}", test.answer.display())),
            Ok(answer) => Ok(match mode {
                CompareMode::Tokens(options) => compare_tokens(&answer, &outcome.stdout, options),
                _ => compare_exact(&answer, &outcome.stdout),
            }),
        },
    };
    match comparison {
        Ok(comparison) => {
            report.verdict = Verdict::from_comparison(&comparison);
            report.score = comparison.score;
            report.detail = comparison.message;
            report.difference = comparison.difference;
        }
        Err(message) => {
            report.verdict = Verdict::JudgeError;
            report.detail = Some(message);
        }
    }
    report
}
