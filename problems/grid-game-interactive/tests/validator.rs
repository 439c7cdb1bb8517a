//! The validator accepts every committed test and rejects malformed ones.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(env!("CARGO_BIN_EXE_grid-game-interactive-validator"), {
    let big_row = vec!["-1000"; 100].join(" ");
    let big = format!("100\n{}", format!("{big_row}\n").repeat(100));
    let too_big = format!(
        "101\n{}",
        format!("{}\n", vec!["0"; 101].join(" ")).repeat(101)
    );
    ValidatorCases::new(20)
        .accepting(&[
            "1\n0\n".to_string(),
            "2\n1000 -1000\n0 7\n".to_string(),
            big,
        ])
        .rejecting(&[
            ("empty", "".to_string()),
            ("a t line as in the batch problem", "1\n1\n5\n".to_string()),
            ("n = 0", "0\n".to_string()),
            ("n = 101", too_big),
            ("a missing row", "2\n1 2\n".to_string()),
            ("a short row", "2\n1 2\n3\n".to_string()),
            ("a long row", "2\n1 2 3\n4 5\n".to_string()),
            ("a value past 1000", "1\n1001\n".to_string()),
            ("a value past -1000", "1\n-1001\n".to_string()),
            ("no final newline", "1\n5".to_string()),
            ("a doubled space", "2\n1  2\n3 4\n".to_string()),
            ("a tab", "2\n1\t2\n3 4\n".to_string()),
            ("CRLF", "1\r\n5\r\n".to_string()),
            ("a leading zero", "1\n05\n".to_string()),
            ("a plus sign", "1\n+5\n".to_string()),
            ("a blank line at the end", "1\n5\n\n".to_string()),
        ])
});
