//! The validator accepts every committed input and the edges of the bounds,
//! and rejects malformed inputs, saying why.

use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_stone-game-vi-interactive-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 27);
}

#[test]
fn accepts_edges() {
    let row = vec!["100"; 20_000].join(" ");
    let full = format!("20000\n{row}\n{row}\n");
    assert_accepts_inputs(BIN, &["1\n1\n1\n", "3\n2 4 3\n1 6 7\n", full.as_str()]);
}

#[test]
fn rejects_malformed() {
    let row = vec!["1"; 20_001].join(" ");
    let too_many = format!("20001\n{row}\n{row}\n");
    assert_rejects_inputs(
        BIN,
        &[
            ("n = 0", "0\n\n\n"),
            ("n = 20001", too_many.as_str()),
            ("value 0", "2\n0 5\n1 1\n"),
            ("value 101", "2\n1 5\n101 1\n"),
            ("Bob short", "2\n1 5\n1\n"),
            ("Alice long", "2\n1 5 3\n1 1\n"),
            ("Bob missing", "2\n1 5\n"),
            ("extra line", "1\n1\n1\n1\n"),
            ("no final newline", "1\n1\n1"),
            ("double space", "2\n1  5\n1 1\n"),
            ("leading zero", "2\n1 05\n1 1\n"),
            ("negative", "2\n1 -5\n1 1\n"),
            ("tab", "2\n1\t5\n1 1\n"),
            ("empty input", ""),
        ],
    );
}
