//! The validator accepts every committed input and rejects malformed ones.

use grid_game_tools::testing::MALFORMED;
use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_grid-game-large-validator");

#[test]
fn accepts_committed_inputs() {
    assert_accepts_committed(BIN, env!("CARGO_MANIFEST_DIR"), 21);
}

#[test]
fn accepts_edge_inputs() {
    assert_accepts_inputs(
        BIN,
        &[
            "1\n1\n0\n",
            "1\n1\n-1000000000\n",
            "2\n1\n1000000000\n2\n-1000000000 1000000000\n1000000000 -1000000000\n",
        ],
    );
}

#[test]
fn rejects_malformed_inputs() {
    assert_rejects_inputs(BIN, MALFORMED);
    assert_rejects_inputs(
        BIN,
        &[
            ("t out of range", "6\n1\n0\n1\n0\n1\n0\n1\n0\n1\n0\n1\n0\n"),
            ("n out of range", "1\n501\n0\n"),
            ("value out of range", "1\n1\n1000000001\n"),
            ("negative value out of range", "1\n1\n-1000000001\n"),
        ],
    );
}
