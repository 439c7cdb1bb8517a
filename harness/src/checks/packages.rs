//! What Kattis and Polygon packages need beyond our own format, for
//! `verify`: their own programs run on their own tests (input validators
//! and invalid inputs, answer checks, generators, the output validator on
//! outputs of known verdict). Their time limit is settled and their
//! expectations are held in the plan stage (`plan/settle.rs`,
//! `plan/expect.rs`).

use super::findings::Finding;
use super::{answer_checks, generators, self_tests};
use crate::plan::Means;
use crate::spec::ProblemSpec;

/// The package's own programs on their own tests (see `self_tests`): the
/// input validators on every input and on the invalid inputs, then the
/// output validator or checker on the outputs of known verdict.
pub(crate) fn check_self_tests(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = self_tests::check_inputs(means, problem);
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
    findings.extend(answer_checks::check_answers(means, problem));
    findings.extend(generators::check(means, &problem.dir));
    findings.extend(self_tests::check_outputs(means, problem));
    findings
}
