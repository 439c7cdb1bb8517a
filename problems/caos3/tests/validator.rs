//! The validator accepts every committed input and rejects broken ones.

use caos3_tools::testing::BROKEN;
use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_caos3-validator");

#[test]
fn accepts_every_committed_input() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 20);
}

#[test]
fn rejects_broken_inputs() {
    assert_rejects_inputs(BIN, BROKEN);
    assert_rejects_inputs(
        BIN,
        &[
            ("T = 11", format!("11\n{}", "1 1\n^\n".repeat(11))),
            ("R = 21", format!("1\n21 1\n{}", "^\n".repeat(21))),
            ("C = 21", format!("1\n1 21\n{}\n", "^".repeat(21))),
        ],
    );
    // The limits themselves are fine.
    let largest = format!(
        "10\n{}",
        format!("20 20\n{}", format!("{}\n", "#".repeat(20)).repeat(20)).repeat(10)
    );
    assert_accepts_inputs(BIN, &[largest]);
}
