//! The validator accepts every committed input and rejects malformed ones.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(env!("CARGO_BIN_EXE_stone-game-vi-validator"), {
    let n = 100_000;
    let row = vec!["100"; n].join(" ");
    let bad: &[(&str, &[u8])] = &[
        ("n = 0", b"0\n\n\n"),
        ("n too large", b"100001\n1\n1\n"),
        ("value 0", b"2\n1 0\n2 1\n"),
        ("value 101", b"2\n1 3\n101 1\n"),
        ("negative value", b"2\n1 -3\n2 1\n"),
        ("missing token", b"2\n1 3\n2\n"),
        ("extra token", b"2\n1 3 4\n2 1\n"),
        ("count disagrees with n", b"3\n1 3\n2 1\n"),
        ("missing line", b"2\n1 3\n"),
        ("extra line", b"2\n1 3\n2 1\n5\n"),
        ("values on one line", b"2\n1 3 2 1\n"),
        ("no final newline", b"2\n1 3\n2 1"),
        ("double space", b"2\n1  3\n2 1\n"),
        ("trailing space", b"2\n1 3 \n2 1\n"),
        ("leading zero", b"2\n01 3\n2 1\n"),
        ("carriage return", b"2\r\n1 3\r\n2 1\r\n"),
        ("not a number", b"2\n1 x\n2 1\n"),
        ("empty input", b""),
    ];
    ValidatorCases::new(31)
        .accepting(&["1\n1\n100\n".to_string(), format!("{n}\n{row}\n{row}\n")])
        .rejecting(bad)
});
