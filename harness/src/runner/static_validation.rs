//! A Kattis 2025-09 static validation test case: the package's
//! `static_validator/` run on the submission's own files, placed in its
//! working folder, as `validator language entry_point feedback_dir/
//! [static_validator_args]`; it reports as an output validator does (42
//! accepts, 43 rejects, `judgemessage.txt`, `score.txt`), and anything
//! else is a judge error, never the submission's fault. Its verdict and
//! score are a test's of its group (`formats::scoring`).

use std::path::PathBuf;

use crate::checker::{feedback_arg, read_feedback};
use crate::compile::Executable;
use crate::formats::{CheckerOutcome, kattis_output_validator};
use crate::sandbox::TOOL_LIMITS;
use crate::sandbox::{Containment, RunRequest};
use crate::verdict::Verdict;

use super::TestReport;
use super::steps::{TestRun, judges_folder};

/// What a static validation case needs of a submission: the built static
/// validator and the submission's files as it was handed in.
#[derive(Debug, Clone)]
pub struct StaticSubmission {
    pub validator: Executable,
    /// The languages table's code (`cpp`, `python3`, ...).
    pub language: String,
    /// The entry point's file name.
    pub entry: String,
    /// Its files: the name placed in the working folder, and where it is.
    pub files: Vec<(PathBuf, PathBuf)>,
}

/// Judges the static validation case `run.test` (with `args`).
pub(super) fn judge(
    run: &TestRun<'_>,
    submission: &StaticSubmission,
    args: &[String],
) -> TestReport {
    let mut report = TestReport::unjudged(run.test);
    let fail = |mut report: TestReport, why: String| {
        report.verdict = Verdict::JudgeError;
        report.detail = Some(why);
        report
    };
    let mut seed = Vec::new();
    for (name, path) in &submission.files {
        match std::fs::read(path) {
            Ok(bytes) => seed.push((name.clone(), bytes)),
            Err(e) => return fail(report, format!("read {}: {e}", path.display())),
        }
    }
    let feedback = match judges_folder(run.workdir, "static-feedback") {
        Ok(folder) => folder,
        Err(e) => return fail(report, format!("create the feedback folder: {e}")),
    };
    let mut words = vec![
        submission.language.clone().into(),
        submission.entry.clone().into(),
        feedback_arg(feedback.path()),
    ];
    words.extend(args.iter().map(Into::into));
    // A trusted program, run as output validators are, with the
    // submission's files as its working folder's.
    let outcome = run.sandbox.run(&RunRequest {
        seed,
        ..submission
            .validator
            .with_args(words)
            .request(run.workdir, TOOL_LIMITS, Containment::Tool)
    });
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => return fail(report, format!("static validator: {e}")),
    };
    report.metrics = outcome.metrics;
    let (message, score) = match read_feedback(feedback.path(), "static validator") {
        Ok(read) => read,
        Err(e) => return fail(report, e.to_string()),
    };
    let exit = crate::checker::exit_code(outcome.termination);
    report.verdict = match kattis_output_validator(exit) {
        CheckerOutcome::Accepted => Verdict::Accepted,
        CheckerOutcome::WrongAnswer => Verdict::WrongAnswer,
        CheckerOutcome::JudgeError(why) => {
            return fail(report, why.replace("output validator", "static validator"));
        }
        _ => Verdict::JudgeError,
    };
    report.score = score;
    report.detail = message;
    super::steps::apply_score_multiplier(&mut report, run, feedback.path(), "static validator");
    report
}
