//! The validator accepts every committed test and rejects malformed ones
//! and maps the first player loses.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(env!("CARGO_BIN_EXE_caos3-interactive-validator"), {
    let full = format!("20 20\n{}", format!("{}\n", "^".repeat(20)).repeat(20));
    let lone_cross = "5 5\n##^##\n##^##\n^^^^^\n##^##\n##^##\n".to_string();
    let wide = format!("5 21\n{}", format!("{}\n", "^".repeat(21)).repeat(5));
    ValidatorCases::new(15)
        .accepting(&[full, lone_cross])
        .rejecting(&[
            ("empty", "".to_string()),
            (
                "a T line as in the batch problem",
                "1\n1 1\n^\n".to_string(),
            ),
            ("C = 21", wide),
            ("R = 0", "0 5\n".to_string()),
            ("a missing row", "2 2\n^^\n".to_string()),
            ("a short row", "2 2\n^^\n^\n".to_string()),
            ("a foreign character", "1 2\n^.\n".to_string()),
            ("no final newline", "1 1\n^".to_string()),
            ("CRLF", "1 1\r\n^\r\n".to_string()),
            ("an extra line", "1 1\n^\n^\n".to_string()),
            // Formally fine, but no monster: the first player loses.
            ("no monster", "1 1\n^\n".to_string()),
            ("a lost map", "6 6\n".to_string() + &"^^^^^^\n".repeat(6)),
        ])
});
