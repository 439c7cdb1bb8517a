//! The validator accepts every committed input and rejects malformed ones.

use a_game_tools::testing::{
    EDGES, MALFORMED, assert_accepts_committed, assert_rejects_inputs, validate,
};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 25);
}

#[test]
fn accepts_edges() {
    for input in EDGES {
        assert_eq!(validate(BIN, input), 42);
    }
    assert_eq!(validate(BIN, b"2\n1 200\n"), 42);
    let row = vec!["200"; 100].join(" ");
    assert_eq!(validate(BIN, format!("100\n{row}\n").as_bytes()), 42);
}

#[test]
fn rejects_malformed() {
    assert_rejects_inputs(BIN, MALFORMED);
    assert_rejects_inputs(
        BIN,
        &[("N = 101", b"101\n1\n"), ("value 201", b"2\n201 5\n")],
    );
}
