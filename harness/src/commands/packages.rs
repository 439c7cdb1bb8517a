//! What Kattis and Polygon packages need beyond our own format, for
//! `verify`: their own programs run on their own tests (input validators
//! and invalid inputs, answer checks, generators, the output validator on
//! outputs of known verdict). Their time limit is settled and their
//! expectations are held in the plan stage (`plan/settle.rs`,
//! `plan/expect.rs`).

use super::findings::Finding;
use super::{Context, answer_checks, generators, self_tests};
use crate::spec::ProblemSpec;

/// The package's own programs on their own tests (see `self_tests`): the
/// input validators on every input and on the invalid inputs, then the
/// output validator or checker on the outputs of known verdict.
pub(super) fn check_self_tests(ctx: &mut Context, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = self_tests::check_inputs(ctx, problem);
    if let Some(package) = &problem.package {
        // What the package's own tools would only warn about.
        findings.extend(
            package
                .warnings
                .iter()
                .map(|w| Finding::warning("", w.clone())),
        );
        if !package.generators.is_empty() {
            findings.push(Finding::skipped(
                "",
                format!(
                    "{} not run (the package holds the tests they made)",
                    crate::report::human::count(package.generators.len(), "generator")
                ),
            ));
        }
    }
    findings.extend(answer_checks::check_answers(ctx, problem));
    findings.extend(generators::check(ctx, &problem.dir));
    findings.extend(self_tests::check_outputs(ctx, problem));
    findings
}
