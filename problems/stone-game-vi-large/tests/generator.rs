//! The generator is deterministic and rejects bad arguments.

use judge_kit::testing::{assert_deterministic, assert_rejects_args};

const BIN: &str = env!("CARGO_BIN_EXE_stone-game-vi-large-generator");

#[test]
fn same_args_same_bytes() {
    assert_deterministic(
        BIN,
        &[
            &["random", "100", "1-20", "1000000000", "7"],
            &["nudge", "3", "999", "1000000000", "7"],
            &["const-sum", "5", "100", "100", "7"],
        ],
        [
            &["random", "5", "50", "100", "1"],
            &["random", "5", "50", "100", "2"],
        ],
    );
}

#[test]
fn rejects_bad_args() {
    assert_rejects_args(
        BIN,
        &[
            &["random", "0", "5", "100", "1"],
            &["random", "1", "0", "100", "1"],
            &["random", "1", "5-3", "100", "1"],
            &["random", "1", "5", "1000000001", "1"],
            &["random", "2", "600000", "100", "1"],
            &["bogus", "1", "5", "100", "1"],
            &["random", "1", "5", "100"],
        ],
    );
}
