//! The validator accepts every committed input and rejects malformed ones.

use grid_game_tools::testing::MALFORMED;
use judge_kit::testing::{assert_accepts_committed, assert_accepts_inputs, assert_rejects_inputs};

const BIN: &str = env!("CARGO_BIN_EXE_grid-game-validator");

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
            "1\n1\n-1000\n",
            "2\n1\n1000\n2\n-1000 1000\n1000 -1000\n",
        ],
    );
}

#[test]
fn rejects_malformed_inputs() {
    assert_rejects_inputs(BIN, MALFORMED);
    assert_rejects_inputs(
        BIN,
        &[
            ("t out of range (and too few boards)", "21\n1\n0\n"),
            ("n out of range", "1\n9\n0\n"),
            ("value out of range", "1\n1\n1001\n"),
            ("negative value out of range", "1\n1\n-1001\n"),
        ],
    );
}
