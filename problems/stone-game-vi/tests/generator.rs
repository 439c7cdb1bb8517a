//! The generator is deterministic and rejects bad arguments.

use judge_kit::testing::GeneratorCases;
use stone_game_vi_tools::testing::{BAD_ARGS, SEEDS};

judge_kit::generator_tests!(
    env!("CARGO_BIN_EXE_stone-game-vi-generator"),
    GeneratorCases::new(
        &[
            &["random", "1000", "100", "7"],
            &["nudge", "1000", "3", "7"],
            &["const-sum", "999", "100", "7"],
        ],
        SEEDS,
        BAD_ARGS,
    )
    .refusing(&[&["bogus", "10", "100", "1"]]),
);
