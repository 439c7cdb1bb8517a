//! The validator accepts every committed input and the edges of the bounds,
//! and rejects malformed inputs, saying why.

use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-interactive-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 22);
}

#[test]
fn accepts_edges() {
    let full = format!("100\n{}\n", vec!["200"; 100].join(" "));
    assert_accepts_inputs(BIN, &["2\n1 1\n", "6\n4 7 2 9 5 2\n", full.as_str()]);
}

#[test]
fn rejects_malformed() {
    assert_rejects_inputs(
        BIN,
        &[
            ("N odd", "3\n1 2 3\n"),
            ("N = 0", "0\n\n"),
            ("N = 102", "102\n1\n"),
            ("value 0", "2\n0 5\n"),
            ("value 201", "2\n201 5\n"),
            ("missing value", "4\n1 2 3\n"),
            ("extra value", "2\n1 2 3\n"),
            ("row over two lines", "4\n1 2\n3 4\n"),
            ("N shares its line", "2 1 2\n"),
            ("no final newline", "2\n1 2"),
            ("double space", "2\n1  2\n"),
            ("leading zero", "2\n01 2\n"),
            ("carriage return", "2\r\n1 2\r\n"),
            ("trailing line", "2\n1 2\n\n"),
            ("empty input", ""),
        ],
    );
}
