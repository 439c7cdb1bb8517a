//! The generator is deterministic and rejects bad arguments.

use judge_kit::testing::GeneratorCases;

const BIN: &str = env!("CARGO_BIN_EXE_stone-game-vi-large-generator");

judge_kit::generator_tests!(
    BIN,
    GeneratorCases::new(
        &[
            &["random", "100", "1-20", "1000000000", "7"],
            &["nudge", "3", "999", "1000000000", "7"],
            &["const-sum", "5", "100", "100", "7"],
        ],
        [
            &["random", "5", "50", "100", "1"],
            &["random", "5", "50", "100", "2"],
        ],
        &[
            &["random", "0", "5", "100", "1"],
            &["random", "1", "0", "100", "1"],
            &["random", "1", "5-3", "100", "1"],
            &["random", "1", "5", "1000000001", "1"],
            &["random", "2", "600000", "100", "1"],
            &["bogus", "1", "5", "100", "1"],
            &["random", "1", "5", "100"],
        ],
    )
);
