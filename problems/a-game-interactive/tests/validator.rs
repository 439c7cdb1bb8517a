//! The validator accepts every committed input and the edges of the bounds,
//! and rejects malformed inputs, saying why.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(env!("CARGO_BIN_EXE_a-game-interactive-validator"), {
    let full = format!("100\n{}\n", vec!["200"; 100].join(" "));
    ValidatorCases::new(22)
        .accepting(&["2\n1 1\n", "6\n4 7 2 9 5 2\n", full.as_str()])
        .rejecting(&[
            ("N odd", "3\n1 2 3\n"),
            ("N = 0", "0\n\n"),
            ("N = 102", "102\n1\n"),
            ("value 0", "2\n0 5\n"),
            ("value 201", "2\n201 5\n"),
            ("missing value", "4\n1 2 3\n"),
            ("extra value", "2\n1 2 3\n"),
            ("row over two lines", "4\n1 2\n3 4\n"),
            ("N shares its line", "2 1 2\n"),
            ("no final newline", "2\n1 2"),
            ("double space", "2\n1  2\n"),
            ("leading zero", "2\n01 2\n"),
            ("carriage return", "2\r\n1 2\r\n"),
            ("trailing line", "2\n1 2\n\n"),
            ("empty input", ""),
        ])
});
