//! The validator accepts every committed input and rejects broken ones.

use caos3_tools::testing::BROKEN;
use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_caos3-large-validator");

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
            ("R = 41", format!("1\n41 1\n{}", "^\n".repeat(41))),
            ("C = 41", format!("1\n1 41\n{}\n", "^".repeat(41))),
        ],
    );
    // The limits themselves are fine.
    let largest = format!(
        "10\n{}",
        format!("40 40\n{}", format!("{}\n", "#".repeat(40)).repeat(40)).repeat(10)
    );
    assert_accepts_inputs(BIN, &[largest]);
}
