//! The generator is deterministic, stays within the limits and rejects bad
//! arguments.

use grid_game_tools::testing::BAD_ARGS;
use judge_kit::testing::{assert_deterministic, assert_rejects_args};

const BIN: &str = env!("CARGO_BIN_EXE_grid-game-generator");

#[test]
fn same_args_same_bytes() {
    let kinds = ["random", "equal", "extremes", "rowcol", "product", "decoy"];
    let same = kinds.map(|kind| [kind, "20", "1", "8", "-1000", "1000", "7"]);
    assert_deterministic(
        BIN,
        &same.each_ref().map(|args| &args[..]),
        [
            &["random", "5", "8", "8", "-1000", "1000", "1"],
            &["random", "5", "8", "8", "-1000", "1000", "2"],
        ],
    );
}

#[test]
fn rejects_bad_args() {
    assert_rejects_args(BIN, BAD_ARGS);
    assert_rejects_args(
        BIN,
        &[
            &["random", "21", "1", "8", "-10", "10", "1"],
            &["random", "5", "1", "9", "-10", "10", "1"],
            &["random", "5", "1", "8", "-1001", "10", "1"],
        ],
    );
}
