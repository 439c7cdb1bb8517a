//! The rest of Kattis 2025-09 as the reader takes it: `submit-answer`
//! problems, answer validators and `invalid_answer/`, the limits keys.

use super::malformed_tests::{copy_fixture, error_of, replace};
use super::tests::read;
use super::*;

#[test]
fn a_submit_answer_package_reads_its_submissions_as_answer_sets() {
    let package = read("squarepair");
    assert_eq!(package.interaction, Interaction::SubmitAnswer);
    // No program runs: no time limit to learn from submissions.
    assert!(matches!(package.limits.time, TimeLimitRule::Fixed { .. }));
    let names: Vec<(&str, &str)> = package
        .submissions
        .iter()
        .map(|s| (s.program.name.as_str(), s.program.language.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("accepted/mine", "answers"),
            ("wrong_answer/missing", "answers"),
            ("wrong_answer/one-wrong", "answers"),
        ]
    );
    assert!(
        package
            .warnings
            .iter()
            .any(|w| w.contains("printer.py: a program")),
        "{:#?}",
        package.warnings
    );
    // BAPCtools' answer validators and invalid answers.
    assert_eq!(package.answer_validators.len(), 1);
    let invalid: Vec<&str> = package
        .self_tests
        .answers
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        invalid,
        ["invalid_answer/no-newline", "invalid_answer/sum-off"]
    );
}

#[test]
fn submit_answer_excludes_interactive_and_multi_pass() {
    let (_temp, dir) = copy_fixture("squarepair");
    replace(
        &dir.join("problem.yaml"),
        "type: submit-answer",
        "type: submit-answer interactive",
    );
    let error = error_of(&dir).to_string();
    assert!(error.contains("problem.yaml:"), "{error}");
    assert!(
        error.contains("submit-answer excludes interactive"),
        "{error}"
    );
}

#[test]
fn a_guarantee_above_what_the_judge_gives_is_refused_on_its_line() {
    let (_temp, dir) = copy_fixture("subtraction");
    let yaml = dir.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(text.contains("limits:"), "{text}");
    replace(&yaml, "limits:", "limits:\n  validation_time: 600");
    let error = error_of(&dir).to_string();
    assert!(error.contains("validation_time"), "{error}");
    assert!(
        error.contains("600 s is more than this judge gives (30 s)"),
        "{error}"
    );
    // Within what the judge gives, it is read.
    replace(
        &yaml,
        "validation_time: 600",
        "validation_time: 20\n  code: 64",
    );
    let package = read_package(&dir).unwrap().unwrap();
    assert_eq!(
        package.limits.validation_time,
        Some(std::time::Duration::from_secs(20))
    );
    assert_eq!(package.limits.code, Some(64 * 1024));
}
