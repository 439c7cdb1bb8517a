//! `judge verify --constraints`: whether some test reaches each bound a
//! validator checks, asked through BAPCtools' `--constraints_file`
//! (judge-kit and Python validators) and testlib's test overview log.

use crate::ecosystem::{lacks, root_with};
use crate::support::*;

#[test]
fn a_bound_no_test_reaches_is_a_warning_until_a_test_reaches_it() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumgen");
    let (code, stdout) = judge_output(root.path(), ["verify", "--constraints", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "warning: input validator validate.py: `a`: no test reaches its upper bound 1000000000"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("2 of 4 bounds reached"), "{stdout}");
    let secret = root.path().join("problems/sumgen/data/secret");
    std::fs::write(secret.join("4-max.in"), "1000000000 1000000000\n").unwrap();
    std::fs::write(secret.join("4-max.ans"), "2000000000\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "--constraints", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("4 of 4 bounds reached"), "{stdout}");
    assert!(!stdout.contains("warning"), "{stdout}");
}

#[test]
fn a_testlib_validator_reports_its_bounds_through_its_overview_log() {
    if lacks(&["g++"]) {
        return;
    }
    let root = root_with("pebbles");
    let (code, stdout) = judge_output(root.path(), ["verify", "--constraints", "pebbles"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("6 of 6 bounds reached"), "{stdout}");
    // A bound wider than any test reaches.
    let validator = root.path().join("problems/pebbles/files/val.cpp");
    let text = std::fs::read_to_string(&validator).unwrap();
    std::fs::write(
        &validator,
        text.replace("small ? 10 : 100000", "small ? 11 : 100001"),
    )
    .unwrap();
    let (_, stdout) = judge_output(root.path(), ["verify", "--constraints", "pebbles"]);
    assert!(
        stdout.contains("`n`: no test reaches its upper bound"),
        "{stdout}"
    );
}

#[test]
fn judge_kit_validators_report_their_bounds() {
    let (code, stdout) = judge_output(&workspace_root(), ["verify", "--constraints", "a-game"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("validator: 4 of 4 bounds reached"),
        "{stdout}"
    );
}
