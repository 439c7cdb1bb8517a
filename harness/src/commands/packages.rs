//! What Kattis and Polygon packages need beyond our own format, for
//! `verify`: their own programs run on their own tests (input validators
//! and invalid inputs, answer checks, generators, the output validator on
//! outputs of known verdict). Their time limit is settled and their
//! expectations are held in the plan stage (`plan/settle.rs`,
//! `plan/expect.rs`).

use super::{Context, answer_checks, findings, generators, self_tests};
use crate::spec::ProblemSpec;

/// The package's own programs on their own tests (see `self_tests`): the
/// input validators on every input and on the invalid inputs, then the
/// output validator or checker on the outputs of known verdict. Returns
/// (what passed, what failed, what was skipped and why).
pub(super) fn check_self_tests(ctx: &mut Context, problem: &ProblemSpec) -> self_tests::Checks {
    let (mut passed, mut failures, mut skipped) = self_tests::check_inputs(ctx, problem);
    if let Some(package) = &problem.package {
        // What the package's own tools would only warn about.
        skipped.extend(package.warnings.iter().map(|w| format!("warning: {w}")));
        if !package.generators.is_empty() {
            skipped.push(format!(
                "{} not run (the package holds the tests they made)",
                crate::report::human::count(package.generators.len(), "generator")
            ));
        }
    }
    let (answers_passed, answers_failed, answers_skipped) =
        findings::into_checks(&answer_checks::check_answers(ctx, problem));
    passed.extend(answers_passed);
    failures.extend(answers_failed);
    skipped.extend(answers_skipped);
    let (made_passed, made_failed, made_skipped) =
        findings::into_checks(&generators::check(ctx, &problem.dir));
    passed.extend(made_passed);
    failures.extend(made_failed);
    skipped.extend(made_skipped);
    let (outputs_passed, outputs_failed, outputs_skipped) = self_tests::check_outputs(ctx, problem);
    passed.extend(outputs_passed);
    failures.extend(outputs_failed);
    skipped.extend(outputs_skipped);
    (passed, failures, skipped)
}
