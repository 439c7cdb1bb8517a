//! The validator accepts every committed input and rejects malformed ones.

use a_game_tools::testing::{
    EDGES, MALFORMED, assert_accepts_committed, assert_rejects_inputs, validate,
};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-large-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 20);
}

#[test]
fn accepts_edges() {
    for input in EDGES {
        assert_eq!(validate(BIN, input), 42);
    }
    assert_eq!(validate(BIN, b"2\n1 1000000000\n"), 42);
    let row = vec!["1000000000"; 20_000].join(" ");
    assert_eq!(validate(BIN, format!("20000\n{row}\n").as_bytes()), 42);
}

#[test]
fn rejects_malformed() {
    assert_rejects_inputs(BIN, MALFORMED);
    assert_rejects_inputs(
        BIN,
        &[
            ("N = 20001", b"20001\n1\n"),
            ("value above 10^9", b"2\n1000000001 5\n"),
            ("huge value", b"2\n99999999999999999999999 5\n"),
        ],
    );
}
