//! The multi-pass kind (Kattis multi-pass problems): after a pass, an
//! output validator that accepts (exit 42) and writes `nextpass.in` in its
//! feedback folder asks for another pass, on that file as the submission's
//! input, up to `limits.validation_passes` passes. The feedback folder
//! persists between passes (`nextpass.in` is taken out before the next
//! one), so the validator can keep its state there. The validator gets the
//! pass's input as its input file (the test's `.in`, then each
//! `nextpass.in`, as BAPCtools and DOMjudge run it), the test's own
//! `.ans`, and on stdin the pass's output. Each pass starts in an empty
//! working folder. The limits apply to each pass on its own, so a test's
//! times and memory are those of its most demanding pass. A pass is a
//! batch run (`steps::run_program`) or a conversation with an interactive
//! validator (`steps::interact`). An output visualizer runs once, after the
//! last pass, on that pass's output (empty when interactive) and the
//! test's own input, in the shared feedback folder.

use std::path::Path;

use crate::checker::run_checker;
use crate::compile::Executable;
use crate::sandbox::Metrics;
use crate::spec::{CompareMode, Protocol, TestCase};
use crate::verdict::JudgeFailure;
use crate::verdict::Verdict;

use super::TestReport;
use super::steps::{
    TestRun, apply_comparison, apply_score_multiplier, empty_dir, interact, judges_folder,
    run_program, visualize,
};

/// The file an output validator writes to ask for another pass.
const NEXT_PASS: &str = "nextpass.in";

/// Judges the submission `exe` on the test in up to `passes` passes, each
/// a batch run or (`interactive`) a conversation with the interactive
/// validator. The run's checker is the built output validator (batch) or
/// interactive validator.
pub(super) fn judge(
    run: &TestRun<'_>,
    exe: &Executable,
    passes: u32,
    interactive: bool,
) -> TestReport {
    let test = run.test;
    let dir = match judges_folder(run.workdir, "passes") {
        Ok(dir) => dir,
        Err(e) => {
            return TestReport::judge_error(test, format!("failed to create a pass folder: {e}"));
        }
    };
    let feedback = dir.path().join("feedback");
    if let Err(e) = std::fs::create_dir(&feedback) {
        return TestReport::judge_error(test, format!("failed to create a feedback folder: {e}"));
    }
    let (mut report, last_output) =
        run_passes(run, exe, passes, interactive, dir.path(), &feedback);
    apply_score_multiplier(&mut report, run, &feedback, "output validator");
    if let Some(output) = last_output {
        visualize(run, &output, dir.path(), &feedback);
    }
    report
}

/// The passes of the test, in the judge's folder `dir` with the shared
/// `feedback` folder: the report, and the output of the last pass the
/// validator saw (empty for an interactive one; `None` when no validator
/// ran), which an output visualizer draws.
fn run_passes(
    run: &TestRun<'_>,
    exe: &Executable,
    passes: u32,
    interactive: bool,
    dir: &Path,
    feedback: &Path,
) -> (TestReport, Option<Vec<u8>>) {
    let (test, workdir) = (run.test, run.workdir);
    let mut input = test.input.clone();
    let mut heaviest = Metrics::default();
    let mut pass_cpu = Vec::new();
    let mut last_output = None;
    let mut pass = 1;
    loop {
        if pass > 1 {
            if let Err(e) = empty_dir(workdir) {
                let error = format!("failed to empty the run folder: {e}");
                return (TestReport::judge_error(test, error), last_output);
            }
        }
        let (mut report, output) = one_pass(run, exe, interactive, &input, dir, feedback);
        last_output = output.or(last_output);
        pass_cpu.push(report.metrics.cpu);
        report.pass_cpu.clone_from(&pass_cpu);
        heaviest = heavier(heaviest, report.metrics);
        report.metrics = heaviest;
        let next = feedback.join(NEXT_PASS);
        let asked = next.exists();
        let error = match (report.verdict, asked) {
            (_, false) => return (name_pass(report, pass), last_output),
            (Verdict::Accepted, true) if pass < passes => None,
            (Verdict::Accepted, true) => Some(format!(
                "the output validator asked for pass {} (nextpass.in), but limits.validation_passes is {passes}",
                pass + 1
            )),
            (Verdict::WrongAnswer | Verdict::PresentationError, true) => Some(
                "the output validator wrote nextpass.in and rejected the output: only an acceptance (exit 42) may ask for another pass".to_string(),
            ),
            // The submission failed by itself, or the validator did: that
            // verdict stands.
            (_, true) => return (name_pass(report, pass), last_output),
        };
        if let Some(error) = error {
            report.verdict = Verdict::JudgeError;
            report.detail = Some(error);
            report.score = None;
            return (name_pass(report, pass), last_output);
        }
        pass += 1;
        input = dir.join(format!("pass{pass}.in"));
        if let Err(e) = std::fs::rename(&next, &input) {
            let error = format!("failed to take {NEXT_PASS}: {e}");
            return (TestReport::judge_error(test, error), last_output);
        }
    }
}

/// One pass on `input`: the submission, then the output validator with the
/// shared `feedback` folder (its other files go to `scratch`); the report
/// and the output the validator judged, if it ran. The
/// validator (or interactive validator) gets `input` as the test's input,
/// the pass's `nextpass.in` after the first, as BAPCtools and DOMjudge
/// give it; the answer stays the test's.
fn one_pass(
    run: &TestRun<'_>,
    exe: &Executable,
    interactive: bool,
    input: &Path,
    scratch: &Path,
    feedback: &Path,
) -> (TestReport, Option<Vec<u8>>) {
    let pass_test = TestCase {
        input: input.to_path_buf(),
        ..run.test.clone()
    };
    let run = &TestRun {
        test: &pass_test,
        ..*run
    };
    let TestRun {
        sandbox,
        problem,
        checker,
        test,
        ..
    } = *run;
    if interactive {
        // The interactive validator reads the test's input itself (its
        // state from the feedback folder); the submission never sees one.
        let kattis_only = TestRun {
            output_checker: None,
            ..*run
        };
        return (interact(&kattis_only, exe, feedback), Some(Vec::new()));
    }
    let (mut report, stdout) = run_program(run, exe, input);
    let Some(stdout) = stdout else {
        return (report, None);
    };
    let comparison = match (&problem.compare.mode, checker) {
        (CompareMode::Checker(tool), Some(checker)) if tool.protocol == Protocol::Kattis => {
            run_checker(sandbox, checker, tool, test, &stdout, scratch, feedback)
        }
        _ => Err(JudgeFailure::program(
            "output validator",
            "is missing: a multi-pass problem needs a Kattis output validator",
        )),
    };
    apply_comparison(&mut report, comparison, problem.presentation_errors);
    (report, Some(stdout))
}

/// A verdict given after the first pass says which pass it was.
fn name_pass(mut report: TestReport, pass: u32) -> TestReport {
    if pass > 1 && report.verdict != Verdict::Accepted {
        report.detail = Some(match report.detail {
            Some(detail) => format!("pass {pass}: {detail}"),
            None => format!("pass {pass}"),
        });
    }
    report
}

/// The larger of each measure: the limits apply to every pass alone.
fn heavier(a: Metrics, b: Metrics) -> Metrics {
    Metrics {
        cpu: a.cpu.max(b.cpu),
        wall: a.wall.max(b.wall),
        waited: a.waited.max(b.waited),
        peak_memory_kib: a.peak_memory_kib.max(b.peak_memory_kib),
        output_bytes: a.output_bytes.max(b.output_bytes),
    }
}

#[cfg(test)]
#[path = "multipass_tests.rs"]
mod tests;
