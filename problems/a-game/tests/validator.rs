//! The validator accepts every committed input and rejects malformed ones.

use a_game_tools::testing::{EDGES, MALFORMED};
use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 25);
}

#[test]
fn accepts_edges() {
    assert_accepts_inputs(BIN, EDGES);
    let row = vec!["200"; 100].join(" ");
    assert_accepts_inputs(BIN, &["2\n1 200\n".to_string(), format!("100\n{row}\n")]);
}

#[test]
fn rejects_malformed() {
    assert_rejects_inputs(BIN, MALFORMED);
    assert_rejects_inputs(
        BIN,
        &[("N = 101", &b"101\n1\n"[..]), ("value 201", b"2\n201 5\n")],
    );
}
