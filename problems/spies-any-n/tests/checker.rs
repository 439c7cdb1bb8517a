//! The checker binary end to end: the input n must match, -1 only for impossible n.

use judge_kit::testing::{Checked, check};

/// The checker's verdict for input `n` on `output`.
fn run(n: u64, output: &str) -> Checked {
    let input = format!("{n}\n");
    let checked = check(
        env!("CARGO_BIN_EXE_spies-any-n-checker"),
        &input,
        &input,
        output.as_bytes(),
    );
    assert_eq!(checked.score, None);
    checked
}

#[test]
fn accepts_valid_answers() {
    assert_eq!(run(11, "11\n2 4 7 1 8 11 5 3 9 6 10\n").code, Some(42));
    assert_eq!(run(12, "12\n1 3 6 12 10 2 11 5 8 4 9 7\n").code, Some(42));
    assert_eq!(run(1, "1\n1\n").code, Some(42));
    for n in [2, 3, 5, 6, 7] {
        assert_eq!(run(n, "-1\n").code, Some(42), "n = {n}");
    }
}

#[test]
fn rejects_wrong_answers() {
    for (n, output, reason) in [
        (4, "-1\n", "a board of size 4 exists"),
        (999, "-1\n", "a board of size 999 exists"),
        (7, "7\n1 3 5 7 2 4 6\n", "expected -1"),
        (13, "11\n2 4 7 1 8 11 5 3 9 6 10\n", "size 11, but n = 13"),
        (
            23,
            "23\n1 3 6 2 7 16 20 13 8 5 22 19 17 23 21 9 11 14 10 4 18 12 15\n",
            "rows 2, 8, 14 are collinear",
        ),
        (
            11,
            "11\n4 7 1 6 2 10 8 3 5 9 11\n",
            "rows 1, 4, 7 are collinear",
        ),
        (4, "4\n2 4 1 3 -1\n", "expected nothing more, found `-1`"),
        (
            4,
            "4\n2 4 1\n",
            "expected the column of row 4, found end of input",
        ),
        (4, "-1 4\n", "expected nothing more, found `4`"),
        (4, "", "expected the board size, found end of input"),
        (4, "4\n2 4 1 x\n", "the column of row 4 in 1..=4, found `x`"),
    ] {
        let checked = run(n, output);
        assert_eq!(checked.code, Some(43), "{output:?}");
        assert!(
            checked.judgemessage.contains(reason),
            "{output:?}: {}",
            checked.judgemessage
        );
    }
}

#[test]
fn a_broken_input_is_a_judge_error() {
    let checked = check(
        env!("CARGO_BIN_EXE_spies-any-n-checker"),
        "0\n",
        "",
        b"-1\n",
    );
    assert_eq!(checked.code, Some(1));
}
