//! The input validator accepts the committed (empty) inputs and rejects anything else.

use judge_kit::testing::{assert_accepts_committed, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_spies-revised-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 2);
}

#[test]
fn rejects_non_empty_inputs() {
    assert_rejects_inputs(
        BIN,
        &[
            ("a newline", &b"\n"[..]),
            ("a space", b" "),
            ("a number", b"999\n"),
            ("no newline", b"11"),
            ("not UTF-8", b"\xff"),
        ],
    );
}
