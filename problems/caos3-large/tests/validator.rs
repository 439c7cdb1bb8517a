//! The validator accepts every committed input and rejects broken ones.

judge_kit::validator_tests!(
    env!("CARGO_BIN_EXE_caos3-large-validator"),
    caos3_tools::testing::validator_cases(caos3_tools::LARGE),
);
