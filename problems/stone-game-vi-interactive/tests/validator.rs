//! The validator accepts every committed input and the edges of the bounds,
//! and rejects malformed inputs, saying why.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(env!("CARGO_BIN_EXE_stone-game-vi-interactive-validator"), {
    let row = vec!["100"; 20_000].join(" ");
    let full = format!("20000\n{row}\n{row}\n");
    let row = vec!["1"; 20_001].join(" ");
    let too_many = format!("20001\n{row}\n{row}\n");
    ValidatorCases::new(27)
        .accepting(&["1\n1\n1\n", "3\n2 4 3\n1 6 7\n", full.as_str()])
        .rejecting(&[
            ("n = 0", "0\n\n\n"),
            ("n = 20001", too_many.as_str()),
            ("value 0", "2\n0 5\n1 1\n"),
            ("value 101", "2\n1 5\n101 1\n"),
            ("Bob short", "2\n1 5\n1\n"),
            ("Alice long", "2\n1 5 3\n1 1\n"),
            ("Bob missing", "2\n1 5\n"),
            ("extra line", "1\n1\n1\n1\n"),
            ("no final newline", "1\n1\n1"),
            ("double space", "2\n1  5\n1 1\n"),
            ("leading zero", "2\n1 05\n1 1\n"),
            ("negative", "2\n1 -5\n1 1\n"),
            ("tab", "2\n1\t5\n1 1\n"),
            ("empty input", ""),
        ])
});
