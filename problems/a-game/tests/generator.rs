//! The generator is deterministic and rejects bad arguments.

use a_game_tools::testing::{BAD_ARGS, assert_layout_changes_lines_not_board};
use judge_kit::testing::{assert_deterministic, assert_rejects_args};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-generator");

#[test]
fn same_args_same_bytes() {
    assert_deterministic(
        BIN,
        &[
            &["random", "100", "200", "ragged", "7"],
            &["spikes", "99", "200", "wrap7", "7"],
            &["const", "2", "1", "column", "7"],
        ],
        [
            &["random", "50", "200", "line", "1"],
            &["random", "50", "200", "line", "2"],
        ],
    );
}

#[test]
fn layout_changes_lines_not_board() {
    assert_layout_changes_lines_not_board(BIN);
}

#[test]
fn rejects_bad_args() {
    assert_rejects_args(BIN, BAD_ARGS);
    assert_rejects_args(
        BIN,
        &[
            &["random", "101", "200", "line", "1"],
            &["random", "10", "201", "line", "1"],
        ],
    );
}
