//! The input validator accepts the committed (empty) inputs and rejects anything else.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(
    env!("CARGO_BIN_EXE_spies-revised-validator"),
    ValidatorCases::new(2).accepting(&[""]).rejecting(&[
        ("a newline", &b"\n"[..]),
        ("a space", b" "),
        ("a number", b"999\n"),
        ("no newline", b"11"),
        ("not UTF-8", b"\xff"),
    ]),
);
