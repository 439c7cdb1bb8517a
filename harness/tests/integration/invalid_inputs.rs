//! `judge verify --invalid-inputs`: inputs made invalid from the samples,
//! each of which the input validator must reject.

use crate::ecosystem::{lacks, root_with};
use crate::support::*;

#[test]
fn a_validator_that_lets_garbage_through_fails_the_check() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumgen");
    let (code, stdout) = judge_output(root.path(), ["verify", "--invalid-inputs", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("5 generic invalid inputs rejected"),
        "{stdout}"
    );
    // `re.match` checks a prefix only: trailing garbage gets through.
    let validator = root
        .path()
        .join("problems/sumgen/input_validators/validate.py");
    let text = std::fs::read_to_string(&validator).unwrap();
    std::fs::write(&validator, text.replace("re.fullmatch", "re.match")).unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "--invalid-inputs", "sumgen"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("sample/1: trailing garbage, the input is still accepted: 1 2\\ngarbage"),
        "{stdout}"
    );
}
