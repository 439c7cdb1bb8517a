//! The generator is deterministic and rejects bad arguments.

use a_game_large_tools::{MAX_N, MAX_V};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-large-generator");

judge_kit::generator_tests!(
    BIN,
    a_game_large_tools::testing::generator_cases(MAX_N, MAX_V)
);

#[test]
fn layout_changes_lines_not_board() {
    a_game_large_tools::testing::assert_layout_changes_lines_not_board(BIN);
}
