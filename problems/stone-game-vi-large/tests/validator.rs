//! The validator accepts every committed input and rejects malformed ones.

use judge_kit::testing::ValidatorCases;

judge_kit::validator_tests!(env!("CARGO_BIN_EXE_stone-game-vi-large-validator"), {
    let n = 1_000_000;
    let row = vec!["9"; n].join(" ");
    let games = "1\n1\n1\n".repeat(100_000);
    let bad: &[(&str, &[u8])] = &[
        ("T = 0", b"0\n"),
        ("T too large", b"100001\n1\n1\n1\n"),
        ("n = 0", b"1\n0\n\n\n"),
        ("value 0", b"1\n2\n1 0\n2 1\n"),
        ("value above 10^9", b"1\n2\n1 3\n1000000001 1\n"),
        ("huge value", b"1\n1\n99999999999999999999999\n1\n"),
        ("negative value", b"1\n2\n1 -3\n2 1\n"),
        ("missing token", b"1\n2\n1 3\n2\n"),
        ("extra token", b"1\n2\n1 3 4\n2 1\n"),
        ("count disagrees with n", b"1\n3\n1 3\n2 1\n"),
        ("fewer games than T", b"2\n2\n1 3\n2 1\n"),
        ("more games than T", b"1\n1\n1\n1\n1\n1\n1\n"),
        ("values on one line", b"1\n2\n1 3 2 1\n"),
        ("no final newline", b"1\n2\n1 3\n2 1"),
        ("double space", b"1\n2\n1  3\n2 1\n"),
        ("trailing space", b"1\n2\n1 3 \n2 1\n"),
        ("leading zero", b"1\n2\n01 3\n2 1\n"),
        ("carriage return", b"1\r\n2\r\n1 3\r\n2 1\r\n"),
        ("not a number", b"1\n2\n1 x\n2 1\n"),
        ("empty input", b""),
    ];
    // Σn over the bound, each game on its own legal.
    let ones = vec!["1"; 500_001].join(" ");
    let game = format!("500001\n{ones}\n{ones}\n");
    ValidatorCases::new(20)
        .accepting(&[
            "1\n1\n1000000000\n1\n".to_string(),
            format!("1\n{n}\n{row}\n{row}\n"),
            format!("100000\n{games}"),
        ])
        .rejecting(bad)
        .rejecting(&[("Σn > 10^6", format!("2\n{game}{game}"))])
});
