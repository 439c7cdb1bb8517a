//! The generator is deterministic, stays within the limits and rejects bad
//! arguments.

judge_kit::generator_tests!(
    env!("CARGO_BIN_EXE_grid-game-generator"),
    grid_game_tools::testing::generator_cases(&grid_game_tools::BOUNDS),
);
