//! The generator is deterministic and rejects bad arguments.

use judge_kit::testing::{assert_deterministic, assert_rejects_args};

const BIN: &str = env!("CARGO_BIN_EXE_stone-game-vi-generator");

#[test]
fn same_args_same_bytes() {
    assert_deterministic(
        BIN,
        &[
            &["random", "1000", "100", "7"],
            &["nudge", "1000", "3", "7"],
            &["const-sum", "999", "100", "7"],
        ],
        [&["random", "50", "100", "1"], &["random", "50", "100", "2"]],
    );
}

#[test]
fn rejects_bad_args() {
    assert_rejects_args(
        BIN,
        &[
            &["random", "0", "100", "1"],
            &["random", "10", "101", "1"],
            &["draw", "7", "100", "1"],
            &["bogus", "10", "100", "1"],
            &["random", "10", "100"],
        ],
    );
}
