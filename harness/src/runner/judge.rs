//! Judging one submission on one test: the one place a problem's judging
//! kind (`spec::JudgingKind`) is matched, choosing the kind's file
//! (`batch.rs`, `interactive.rs`, `multipass.rs`, `output_only.rs`); then,
//! whatever the kind, the run folder is emptied, and the test judged again
//! when a busy machine may have decided its verdict (`steps::timing`).

use crate::spec::JudgingKind;

use super::steps::{Submission, TestRun, cleaned, judged_steadily};
use super::{TestReport, batch, interactive, multipass, output_only, static_validation};

/// Judges the submission on the test by the problem's kind (again, when a
/// busy machine may have decided a timing verdict).
pub fn judge_test(run: &TestRun<'_>) -> TestReport {
    // Not a run of the submission: the static validator on its files.
    if let Some(args) = &run.test.static_validation {
        return cleaned(
            run.workdir,
            match run.static_validation {
                Some(submission) => static_validation::judge(run, submission, args),
                None => TestReport::judge_error(
                    run.test,
                    "a static validation test case without a static validator".into(),
                ),
            },
        );
    }
    judged_steadily(run.sandbox, &run.problem.limits, || {
        cleaned(run.workdir, judge_by_kind(run))
    })
}

fn judge_by_kind(run: &TestRun<'_>) -> TestReport {
    match (run.problem.kind, run.submission) {
        (JudgingKind::Batch, Submission::Program(exe)) => batch::judge(run, exe),
        (JudgingKind::Interactive, Submission::Program(exe)) => interactive::judge(run, exe),
        (
            JudgingKind::MultiPass {
                passes,
                interactive,
            },
            Submission::Program(exe),
        ) => multipass::judge(run, exe, passes, interactive),
        (JudgingKind::OutputOnly, Submission::Answers(answers)) => output_only::judge(run, answers),
        (JudgingKind::OutputOnly, Submission::Program(_)) => TestReport::judge_error(
            run.test,
            "an output-only problem judges answer files, not a program".into(),
        ),
        (kind, Submission::Answers(_)) => TestReport::judge_error(
            run.test,
            format!("a {kind} problem judges a program, not answer files"),
        ),
    }
}
