//! Running the submission's program in the box on one input.

use std::path::Path;

use crate::compile::Executable;
use crate::sandbox::{Containment, RunRequest, STDERR_KEEP};
use crate::verdict::{Verdict, describe_termination};

use super::super::TestReport;
use super::TestRun;
use super::read_only::ReadOnly;

/// The part of stderr a report keeps.
const STDERR_SHOWN: usize = 2 << 10;

/// The stack a submission may use: the memory limit less a reserve (a
/// quarter, at most 16 MiB) for the heap and the runtime, so that runaway
/// recursion ends as a stack overflow (RE) below the memory limit rather
/// than as MLE, while deep legitimate recursion still has room.
pub(crate) fn submission_stack(memory: u64) -> u64 {
    memory - (memory / 4).min(16 << 20)
}

/// The submission `exe`'s run as its box asks for it: its folder, the
/// test's arguments, the problem's limits, and the stack left for it.
fn submission_request(run: &TestRun<'_>, exe: &Executable) -> RunRequest {
    RunRequest {
        stack: Some(submission_stack(run.problem.limits.memory)),
        ..exe.with_args(&run.test.args).request(
            run.workdir,
            run.problem.limits,
            Containment::Submission,
        )
    }
}

/// The start of a submission's stderr, as a report shows it.
pub(super) fn shown_stderr(stderr: &[u8]) -> String {
    crate::escape::visible_bytes(&stderr[..stderr.len().min(STDERR_SHOWN.min(STDERR_KEEP))])
}

/// The submission's request with the test's `.files` placed in its folder
/// and, when the problem forbids writing there, the watch that tells
/// whether it wrote (`read_only.rs`); `Err` says why the files could not
/// be read (a judge error). Batch runs and conversations alike.
pub(super) fn watched_request(
    run: &TestRun<'_>,
    exe: &Executable,
) -> Result<(RunRequest, Option<ReadOnly>), String> {
    let seed = match &run.test.files {
        Some(files) => {
            files_of(files).map_err(|e| format!("failed to read {}: {e}", files.display()))?
        }
        None => Vec::new(),
    };
    let (collect, read_only) = super::read_only::watch(run, &seed).unzip();
    Ok((
        RunRequest {
            seed,
            collect,
            ..submission_request(run, exe)
        },
        read_only,
    ))
}

/// Runs the submission `exe` on `input` (its stdin) in its folder, with
/// the test's `.files` and arguments: the report so far and its stdout, to
/// be judged. Without stdout, the report is final: the run failed by
/// itself (TLE, RE, MLE, OLE) or could not run (JE).
pub(crate) fn run_program(
    run: &TestRun<'_>,
    exe: &Executable,
    input: &Path,
) -> (TestReport, Option<Vec<u8>>) {
    let TestRun {
        sandbox,
        problem,
        test,
        ..
    } = *run;
    let mut report = TestReport::unjudged(test);
    let (request, read_only) = match watched_request(run, exe) {
        Ok(prepared) => prepared,
        Err(detail) => {
            report.detail = Some(detail);
            return (report, None);
        }
    };
    let outcome = match sandbox.run(&RunRequest {
        stdin: Some(input.to_path_buf()),
        ..request
    }) {
        Ok(outcome) => outcome,
        Err(e) => {
            report.detail = Some(e.to_string());
            return (report, None);
        }
    };
    report.metrics = outcome.metrics;
    report.termination = Some(outcome.termination);
    report.stderr = shown_stderr(&outcome.stderr);
    if let Some(verdict) = Verdict::from_run(&outcome, &problem.limits) {
        report.verdict = verdict;
        report.detail = Some(describe_termination(outcome.termination));
        return (report, None);
    }
    if let Some(written) = read_only.and_then(|r| r.written(outcome.collected.as_ref())) {
        report.verdict = Verdict::RuntimeError;
        report.detail = Some(written);
        return (report, None);
    }
    (report, Some(outcome.stdout))
}

/// The files of `from` (a Kattis `.files` folder, the setter's), each by
/// its path inside it: the sandbox places them in the run's working
/// folder, whatever that folder is at this isolation level.
fn files_of(from: &Path) -> std::io::Result<Vec<crate::sandbox::SeedFile>> {
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
