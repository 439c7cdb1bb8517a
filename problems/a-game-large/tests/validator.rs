//! The validator accepts every committed input and rejects malformed ones.

use a_game_large_tools::{MAX_N, MAX_V};

judge_kit::validator_tests!(
    env!("CARGO_BIN_EXE_a-game-large-validator"),
    a_game_large_tools::testing::validator_cases(20, MAX_N, MAX_V),
);
