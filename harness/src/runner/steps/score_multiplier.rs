//! 2025-09 `score_multiplier.txt`: instead of a `score.txt`, an output
//! validator (or interactive or static validator) of a scoring problem may
//! leave a number from 0 to 1 in its feedback folder; an accepted test then
//! scores it times the test's maximum score (`formats::test_max_score`).
//! Read after the judging program's own files, from the folder it left
//! (a multi-pass test's after its last pass: the rule holds over every
//! invocation). The specification's judge errors: both files, a number
//! out of range, a test with no bounded maximum, a rejection with the
//! file. A sample's file is ignored, as is the file of a test whose
//! submission failed by itself.

use std::path::Path;

use crate::verdict::JudgeFailure;
use crate::verdict::Verdict;

use super::super::TestReport;
use super::TestRun;

const MULTIPLIER: &str = "score_multiplier.txt";

/// How a `score_multiplier.txt` breaks the specification's rules: each is
/// a judge error, charged to the program that wrote the file.
#[derive(Debug, thiserror::Error)]
enum MultiplierError {
    #[error("rejected the output but wrote {MULTIPLIER}")]
    WithRejection,
    #[error("wrote both score.txt and {MULTIPLIER}: one or the other")]
    BothFiles,
    #[error("wrote an unreadable {MULTIPLIER}: {text:?} (a number from 0 to 1)")]
    Unreadable { text: String },
    #[error(
        "wrote {MULTIPLIER} for {test}, which has no bounded maximum score (a pass-fail or unbounded group, or a problem that is not scored)"
    )]
    NoMaximum { test: String },
}

/// Applies the `score_multiplier.txt` that `role` left in `feedback`, if
/// any, to the accepted `report` of `run`'s test.
pub(crate) fn apply_score_multiplier(
    report: &mut TestReport,
    run: &TestRun<'_>,
    feedback: &Path,
    role: &'static str,
) {
    let Ok(text) = std::fs::read_to_string(feedback.join(MULTIPLIER)) else {
        return;
    };
    // A sample's score is ignored, as its score.txt is (the specification
    // says so of score.txt; a multiplier is read alike).
    if run.test.is_sample() {
        return;
    }
    let rejected = matches!(
        report.verdict,
        Verdict::WrongAnswer | Verdict::PresentationError
    );
    let scored = match report.verdict {
        Verdict::Accepted => multiplied(run, feedback, text.trim()),
        _ if rejected => Err(MultiplierError::WithRejection),
        // The submission failed by itself (or the judge did): that stands.
        _ => return,
    };
    match scored {
        Ok(score) => report.score = Some(score),
        Err(why) => {
            report.verdict = Verdict::JudgeError;
            report.detail = Some(JudgeFailure::program(role, why.to_string()).to_string());
            report.score = None;
        }
    }
}

/// The test's score: the multiplier times its maximum score, or why the
/// file breaks the specification's rules.
fn multiplied(run: &TestRun<'_>, feedback: &Path, text: &str) -> Result<f64, MultiplierError> {
    if feedback.join("score.txt").exists() {
        return Err(MultiplierError::BothFiles);
    }
    let multiplier = text
        .parse::<f64>()
        .ok()
        .filter(|m| (0.0..=1.0).contains(m))
        .ok_or_else(|| MultiplierError::Unreadable {
            text: crate::escape::visible(text).to_string(),
        })?;
    let max = run
        .problem
        .package
        .as_deref()
        .and_then(|package| crate::formats::test_max_score(package, &run.test.name))
        .ok_or_else(|| MultiplierError::NoMaximum {
            test: crate::escape::visible(&run.test.name).to_string(),
        })?;
    Ok(multiplier * max)
}
