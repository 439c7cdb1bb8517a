//! The validator accepts every committed input and rejects malformed ones.

judge_kit::validator_tests!(
    env!("CARGO_BIN_EXE_grid-game-validator"),
    grid_game_tools::testing::validator_cases(&grid_game_tools::BOUNDS),
);
