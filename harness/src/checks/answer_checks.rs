//! Answer validation (BAPCtools' `answer_validators/`, which the 2025-09
//! specification leaves to the tools): every test's `.ans` is checked as
//! its `.in` is, by validators run as `validator input [args] < answer`
//! (checktestdata and VIVA scripts on the `.ans` alone), and each case of
//! `data/invalid_answer/` (a valid input, a wrong answer) must be rejected
//! by at least one of them.

use super::findings::Finding;
use super::self_tests::{Validator, ready, validate};
use crate::formats::Package;
use crate::plan::Means;
use crate::spec::ProblemSpec;

/// The answer validators on every test's answer and on the invalid answers.
pub(crate) fn check_answers(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = Vec::new();
    let Some(package) = problem.package.as_deref() else {
        return findings;
    };
    let invalid = &package.self_tests.answers;
    if package.answer_validators.is_empty() {
        if !invalid.is_empty() {
            findings.push(Finding::error(
                "data/invalid_answer",
                format!(
                    "{} cases, and no answer validator in answer_validators/ to reject them",
                    invalid.len()
                ),
            ));
        }
        return findings;
    }
    let validators = ready(means, package, &package.answer_validators, &mut findings);
    if validators.is_empty() {
        return findings;
    }
    findings.extend(every_answer(means, package, &validators));
    if invalid.is_empty() {
        return findings;
    }
    // An invalid answer's input must be valid: else the case shows nothing.
    let inputs = ready(means, package, &package.input_validators, &mut Vec::new());
    findings.extend(invalid_answers(means, package, &inputs, &validators));
    findings
}

/// Every test's answer, checked by each answer validator (one that fails
/// to run is not asked again).
fn every_answer(means: &Means<'_>, package: &Package, validators: &[Validator]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut broken = vec![false; validators.len()];
    let mut rejected = 0;
    for test in &package.tests {
        for (validator, broken) in validators.iter().zip(&mut broken) {
            if *broken {
                continue;
            }
            let name = validator.name();
            match validate(
                means,
                validator,
                &test.answer_validator_args,
                &test.answer,
                Some(&test.input),
            ) {
                Ok(true) => {}
                Ok(false) => {
                    rejected += 1;
                    findings.push(Finding::error(
                        &test.name,
                        format!("answer validator {name} rejects the answer"),
                    ));
                }
                Err(why) => {
                    *broken = true;
                    findings.push(Finding::error(
                        format!("answer validator {name}"),
                        why.to_string(),
                    ));
                }
            }
        }
    }
    if rejected == 0 && !broken.contains(&true) {
        findings.push(Finding::passed(
            "",
            format!(
                "{} answers valid ({} answer validators)",
                package.tests.len(),
                validators.len()
            ),
        ));
    }
    findings
}

/// Each case of `data/invalid_answer/`: its input valid by every input
/// validator of `inputs`, its answer rejected by one of `validators`.
fn invalid_answers(
    means: &Means<'_>,
    package: &Package,
    inputs: &[Validator],
    validators: &[Validator],
) -> Vec<Finding> {
    let invalid = &package.self_tests.answers;
    let mut findings = Vec::new();
    let mut caught = 0;
    for case in invalid {
        let bad_input = inputs.iter().find(|v| {
            matches!(
                validate(means, v, &case.input_validator_args, &case.input, None),
                Ok(false)
            )
        });
        if let Some(validator) = bad_input {
            findings.push(Finding::error(
                &case.name,
                format!(
                    "input validator {} rejects the input: an invalid answer needs a valid input",
                    validator.name()
                ),
            ));
            continue;
        }
        let rejects = validators.iter().any(|v| {
            matches!(
                validate(
                    means,
                    v,
                    &case.answer_validator_args,
                    &case.answer,
                    Some(&case.input)
                ),
                Ok(false)
            )
        });
        match rejects {
            true => caught += 1,
            false => findings.push(Finding::error(
                &case.name,
                "the invalid answer is accepted by every answer validator",
            )),
        }
    }
    if caught == invalid.len() {
        findings.push(Finding::passed(
            "",
            format!("{caught} invalid answers rejected"),
        ));
    }
    findings
}
