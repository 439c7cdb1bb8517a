//! The output-only kind (Kattis `submit-answer`, `kind = "output-only"`
//! in `problem.toml`): a submission is its answers, one file per test
//! (`compile::AnswerSet`), and each is judged by the problem's output
//! validator (or comparison) as a program's output would be. No program
//! runs.
//!
//! A test without a file is judged as an empty output, as the format's
//! authors settled for missing files (Kattis/problem-package-format issue
//! 46); a file that answers no test is named in the report of the first
//! test and of every test not accepted, never judged.

use crate::verdict::Verdict;

use super::TestReport;
use super::steps::{TestRun, judge_output_into};
use crate::compile::AnswerSet;

/// Judges the submission's answer to the test: the output validator (or
/// the problem's comparison) on the answer file as on a program's output.
/// A missing answer is judged as an empty output, and said so; an answer
/// above the output limit is OLE.
pub(super) fn judge(run: &TestRun<'_>, answers: &AnswerSet) -> TestReport {
    let TestRun { problem, test, .. } = *run;
    let mut report = TestReport::unjudged(test);
    let (output, missing) = match answers.answer_for(test, &problem.tests) {
        Ok(bytes) => (bytes, None),
        Err(why) => (&[][..], Some(why)),
    };
    report.metrics.output_bytes = output.len() as u64;
    if output.len() as u64 > problem.limits.output {
        report.verdict = Verdict::OutputLimitExceeded;
        report.detail = Some(format!(
            "the answer is larger than the output limit ({})",
            bytesize::ByteSize(problem.limits.output)
        ));
        return report;
    }
    judge_output_into(&mut report, run, output);
    // Stray files are named where the submitter looks: on the first test
    // and on every test not accepted.
    let first = problem.tests.first().is_some_and(|t| t.name == test.name);
    let unused = match first || report.verdict != Verdict::Accepted {
        true => answers.unused(&problem.tests),
        false => Vec::new(),
    };
    let notes: Vec<String> = missing
        .map(|why| format!("{why}: judged as an empty answer"))
        .into_iter()
        .chain((!unused.is_empty()).then(|| {
            format!(
                "answer files for no test, not judged: {}",
                unused.join(", ")
            )
        }))
        .collect();
    if !notes.is_empty() {
        report.detail = Some(
            notes
                .into_iter()
                .chain(report.detail.take())
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    report
}
