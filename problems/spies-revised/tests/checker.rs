//! The checker binary end to end: exit codes, messages and score.txt.

use judge_kit::testing::{Checked, check};

const BIN: &str = env!("CARGO_BIN_EXE_spies-revised-checker");

fn run(output: &[u8]) -> Checked {
    check(BIN, "", "", output)
}

#[test]
fn scores_valid_odd_boards() {
    for (output, score) in [
        (&b"11\n2 4 7 1 8 11 5 3 9 6 10\n"[..], "1.1\n"),
        (b"13\n1 3 12 10 7 2 11 5 8 13 9 4 6\n", "1.3\n"),
        (b"1\n1\n", "0.1\n"),
    ] {
        let checked = run(output);
        assert_eq!(
            (checked.code, checked.score.as_deref()),
            (Some(42), Some(score))
        );
    }
}

#[test]
fn rejects_with_reasons() {
    for (output, reason) in [
        (&b"7\n1 3 5 7 2 4 6\n"[..], "rows 1, 2, 3 are collinear"),
        (b"12\n1 3 6 12 10 2 11 5 8 4 9 7\n", "even"),
        (b"1001\n", "not between 1 and 999"),
        (
            b"11\n2 4 7 1 8 11 5 3 9 6\n",
            "expected the column of row 11, found end of input",
        ),
        (
            b"11\n2 4 7 1 8 11 5 3 9 6 10 1\n",
            "line 2: expected nothing more, found `1`",
        ),
        (b"11\n2 4 7 1 8 11 5 3 9 6 6\n", "column 6 used twice"),
        (b"3\n1 2 3\n", "share a diagonal"),
        (b"-1\n", "not between 1 and 999"),
        (b"", "line 1: expected the board size, found end of input"),
        (
            b"spies\n",
            "expected the board size (an integer), found `spies`",
        ),
        (
            b"5\n1 2 3 4 123456789012345678901234567890\n",
            "expected the column of row 5 in 1..=5",
        ),
        (b"3\n1 3 \xff\n", "not UTF-8"),
    ] {
        let checked = run(output);
        assert_eq!(checked.code, Some(43), "{output:?}");
        assert!(
            checked.judgemessage.contains(reason),
            "{output:?}: {}",
            checked.judgemessage
        );
        assert_eq!(checked.score, None);
    }
}
