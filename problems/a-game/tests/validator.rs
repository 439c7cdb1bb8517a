//! The validator accepts every committed input and rejects malformed ones.

use a_game_tools::{MAX_N, MAX_V};

judge_kit::validator_tests!(
    env!("CARGO_BIN_EXE_a-game-validator"),
    a_game_tools::testing::validator_cases(25, MAX_N, MAX_V.into()),
);
