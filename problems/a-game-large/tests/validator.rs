//! The validator accepts every committed input and rejects malformed ones.

use a_game_tools::testing::{EDGES, MALFORMED};
use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-large-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 20);
}

#[test]
fn accepts_edges() {
    assert_accepts_inputs(BIN, EDGES);
    let row = vec!["1000000000"; 20_000].join(" ");
    assert_accepts_inputs(
        BIN,
        &["2\n1 1000000000\n".to_string(), format!("20000\n{row}\n")],
    );
}

#[test]
fn rejects_malformed() {
    assert_rejects_inputs(BIN, MALFORMED);
    assert_rejects_inputs(
        BIN,
        &[
            ("N = 20001", &b"20001\n1\n"[..]),
            ("value above 10^9", b"2\n1000000001 5\n"),
            ("huge value", b"2\n99999999999999999999999 5\n"),
        ],
    );
}
