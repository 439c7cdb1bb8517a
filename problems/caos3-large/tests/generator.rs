//! The generator is deterministic and refuses arguments outside the limits.

judge_kit::generator_tests!(
    env!("CARGO_BIN_EXE_caos3-large-generator"),
    caos3_tools::testing::generator_cases(caos3_tools::LARGE),
);
