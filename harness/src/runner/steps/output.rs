//! Judging an output (a program's stdout, an interactor's output file, an
//! answer file) against a test's answer by the problem's `compare`: a
//! built-in comparison, or the problem's checker.

use std::path::Path;

use crate::checker::{feedback_folder, run_checker};
use crate::compare::{Comparison, TokenOptions, compare_exact, compare_tokens};
use crate::compile::Executable;
use crate::sandbox::Runs;
use crate::spec::{CompareMode, ProblemSpec, TestCase};
use crate::verdict::JudgeFailure;
use crate::verdict::Verdict;

use super::super::TestReport;
use super::{TestRun, judges_folder};

/// Judges `output` on the run's test into `report`. A checker's files
/// (the output it reads, its feedback folder) go into a folder of the
/// judge's own: the run's folder was the run's, and a name in it may lead
/// anywhere by now. Built-in comparisons write none.
pub(crate) fn judge_output_into(report: &mut TestReport, run: &TestRun<'_>, output: &[u8]) {
    // A checker, and an output visualizer after any comparison, work in
    // a folder of the judge's.
    let visualized = run.output_visualization.is_some();
    let checked = matches!(run.problem.compare.mode, CompareMode::Checker(_));
    let folder = match visualized || checked {
        true => match judges_folder(run.workdir, "checker") {
            Ok(folder) => Some(folder),
            Err(e) => {
                let failure = JudgeFailure::judge("create a folder for the checker", e);
                apply_comparison(report, Err(failure), false);
                return;
            }
        },
        false => None,
    };
    // (Only a checker uses the folder it is given.)
    let scratch = folder.as_ref().map_or(run.workdir, |f| f.path());
    let judge = OutputJudge {
        sandbox: run.sandbox,
        problem: run.problem,
        checker: run.checker,
    };
    let comparison = judge.compare(run.test, output, scratch);
    apply_comparison(report, comparison, run.problem.presentation_errors);
    if let Some(folder) = folder.as_ref().filter(|_| checked) {
        let feedback = folder.path().join("feedback");
        super::apply_score_multiplier(report, run, &feedback, "output validator");
    }
    // After the validator, in its feedback folder; never judged.
    if let Some(folder) = folder.as_ref().filter(|_| visualized) {
        super::visualize(run, output, folder.path(), &folder.path().join("feedback"));
    }
}

/// How a problem judges an output: by its `compare` mode, with `checker`
/// the built checker for `mode = "checker"`, run in `sandbox`.
#[derive(Clone, Copy)]
pub(crate) struct OutputJudge<'a> {
    pub(crate) sandbox: &'a dyn Runs,
    pub(crate) problem: &'a ProblemSpec,
    pub(crate) checker: Option<&'a Executable>,
}

impl OutputJudge<'_> {
    /// Judges `output` against `test`'s answer: a batch submission's
    /// stdout, or the output file a testlib interactor wrote. The checker
    /// runs in `scratch`. `Err` is the judge's failure.
    pub(crate) fn compare(
        &self,
        test: &TestCase,
        output: &[u8],
        scratch: &Path,
    ) -> Result<Comparison, JudgeFailure> {
        match &self.problem.compare.mode {
            CompareMode::Checker(tool) => match self.checker {
                Some(checker) => {
                    let feedback = feedback_folder(scratch)?;
                    run_checker(
                        self.sandbox,
                        checker,
                        tool,
                        test,
                        output,
                        scratch,
                        &feedback,
                    )
                }
                None => Err(JudgeFailure::program("checker", "was not built")),
            },
            mode => compare_with_answer(mode, test, output),
        }
    }

    /// The verdict `output` gets on `test`, with the checker's message or
    /// the judge error: a package's own tests of its output validator or
    /// checker (`valid_output/`, Polygon checker tests) are judged as a
    /// submission's output would be.
    pub(crate) fn verdict(
        &self,
        test: &TestCase,
        output: &[u8],
        scratch: &Path,
    ) -> (Verdict, Option<String>) {
        let mut report = TestReport::unjudged(test);
        let comparison = self.compare(test, output, scratch);
        apply_comparison(&mut report, comparison, self.problem.presentation_errors);
        (report.verdict, report.detail)
    }
}

/// The verdict, score and message of a comparison, or its judge error.
/// Without presentation errors (Kattis packages), a PE is a wrong answer.
pub(crate) fn apply_comparison(
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
