//! The generator is deterministic, stays within the limits and rejects bad
//! arguments.

use grid_game_tools::testing::BAD_ARGS;
use judge_kit::testing::{assert_deterministic, assert_rejects_args};

const BIN: &str = env!("CARGO_BIN_EXE_grid-game-large-generator");

#[test]
fn same_args_same_bytes() {
    let kinds = ["random", "equal", "extremes", "rowcol", "product", "decoy"];
    let same = kinds.map(|kind| [kind, "5", "1", "60", "-1000000000", "1000000000", "7"]);
    assert_deterministic(
        BIN,
        &same.each_ref().map(|args| &args[..]),
        [
            &["random", "5", "30", "30", "-1000000000", "1000000000", "1"],
            &["random", "5", "30", "30", "-1000000000", "1000000000", "2"],
        ],
    );
}

#[test]
fn rejects_bad_args() {
    assert_rejects_args(BIN, BAD_ARGS);
    assert_rejects_args(
        BIN,
        &[
            &["random", "6", "1", "8", "-10", "10", "1"],
            &["random", "5", "1", "501", "-10", "10", "1"],
            &["random", "5", "1", "8", "-1000000001", "10", "1"],
            &["random", "5", "1", "8", "0", "1000000001", "1"],
        ],
    );
}
