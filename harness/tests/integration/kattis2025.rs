//! The rest of Kattis 2025-09 and BAPCtools' additions: answer validation
//! (`answer_validators/`, `data/invalid_answer/`), the limits keys,
//! `allow_file_writing`, visualizers. Each check has a fixture that passes
//! it and a broken copy that must fail it.

use crate::ecosystem::{lacks, root_with, verify_package};
use crate::support::*;

#[test]
fn answer_validators_check_every_answer_and_reject_the_invalid_answers() {
    let Some(stdout) = verify_package("squarepair", &["python3"], 3) else {
        return;
    };
    assert!(
        stdout.contains("3 answers valid (1 answer validators)"),
        "{stdout}"
    );
    assert!(stdout.contains("2 invalid answers rejected"), "{stdout}");

    // A wrong answer in the test data fails the package.
    let root = root_with("squarepair");
    let package = root.path().join("problems/squarepair");
    std::fs::write(package.join("data/secret/01.ans"), "3 3\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "squarepair"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("secret/01: answer validator answer.py rejects the answer"),
        "{stdout}"
    );

    // So does an invalid answer that every answer validator accepts.
    std::fs::write(package.join("data/secret/01.ans"), "3 4\n").unwrap();
    std::fs::write(package.join("data/invalid_answer/sum-off.ans"), "4 3\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "squarepair"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "invalid_answer/sum-off: the invalid answer is accepted by every answer validator"
        ),
        "{stdout}"
    );
}

#[test]
fn invalid_answers_without_an_answer_validator_fail_the_package() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("squarepair");
    let package = root.path().join("problems/squarepair");
    std::fs::remove_dir_all(package.join("answer_validators")).unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "squarepair"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("data/invalid_answer: 2 cases, and no answer validator"),
        "{stdout}"
    );
}
