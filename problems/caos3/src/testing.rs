//! What the generator and validator tests of this crate and of
//! `caos3-large-tools`, and the solutions' brute-force tests, share beyond
//! [`judge_kit::testing`]: the generator's and the validator's cases under
//! a tier's limits, and the brute-force comparison.

use judge_kit::testing::{GeneratorCases, ValidatorCases, solve};
use rand::Rng;

use crate::{Board, Limits, crosses, format, monster_count, random};

/// The generator's cases under `limits`: boards as large as they allow,
/// and one side more refused.
pub fn generator_cases(limits: Limits) -> GeneratorCases {
    let side = limits.max_side.to_string();
    let over = format!("{}x5", limits.max_side + 1);
    let s = side.as_str();
    GeneratorCases::new(
        &[
            &["random", "10", "1", s, "1", s, "0", "100", "9"],
            &["refute", "parity", "10", "5", "12", "70", "100", "14", "9"],
            &["holes", "10", s, s, "0", "40", "9"],
        ],
        // The trailing seed word matters.
        [
            &["random", "3", "5", "9", "5", "9", "80", "100", "1"],
            &["random", "3", "5", "9", "5", "9", "80", "100", "2"],
        ],
        &[
            &["full", &over],
            &["random", "11", "1", "20", "1", "20", "0", "100", "1"],
            &["holes", "10", "20", "20", "0"],
            &["nonsense"],
        ],
    )
}

/// The validator's cases under `limits`: `limits.max_cases` boards of the
/// largest side are fine, a case or a side more is not, nor is any of
/// `BROKEN`.
pub fn validator_cases(limits: Limits) -> ValidatorCases {
    let (cases, side) = (limits.max_cases, limits.max_side);
    let board = format!(
        "{side} {side}\n{}",
        format!("{}\n", "#".repeat(side)).repeat(side)
    );
    let over = side + 1;
    ValidatorCases::new(20)
        .accepting(&[format!("{cases}\n{}", board.repeat(cases))])
        .rejecting(BROKEN)
        .rejecting(&[
            (
                &format!("T = {}", cases + 1),
                format!("{}\n{}", cases + 1, "1 1\n^\n".repeat(cases + 1)),
            ),
            (
                &format!("R = {over}"),
                format!("1\n{over} 1\n{}", "^\n".repeat(over)),
            ),
            (
                &format!("C = {over}"),
                format!("1\n1 {over}\n{}\n", "^".repeat(over)),
            ),
        ])
}

/// Inputs broken under any limits.
pub const BROKEN: &[(&str, &str)] = &[
    ("empty file", ""),
    ("T = 0", "0\n"),
    ("R = 0", "1\n0 1\n"),
    ("fewer cases than T", "2\n1 1\n^\n"),
    ("missing row", "1\n2 2\n^^\n"),
    ("short row", "1\n2 2\n^^\n^\n"),
    ("long row", "1\n2 2\n^^\n^^^\n"),
    ("bad character", "1\n2 2\n^^\n^.\n"),
    ("missing C", "1\n2\n^^\n^^\n"),
    ("extra token", "1\n1 1 1\n^\n"),
    ("extra case", "1\n1 1\n^\n1 1\n#\n"),
    ("trailing blank line", "1\n1 1\n^\n\n"),
    ("no final newline", "1\n1 1\n^"),
    ("double space", "1\n1  1\n^\n"),
    ("leading zero", "1\n01 1\n^\n"),
    ("CRLF", "1\r\n1 1\r\n^\r\n"),
    ("sign", "+1\n1 1\n^\n"),
];

/// The exhaustive search `brute` agrees with `reference` on 1000 random small
/// boards made by the generator's board makers, and the boards are varied
/// enough for that to mean something.
pub fn assert_brute_agrees(reference: &str, brute: &str) {
    let mut rng = judge_kit::generator::rng(3);
    let (mut asuna, mut busy) = (0, 0);
    for batch in 0..100 {
        let boards: Vec<Board> = (0..10)
            .map(|_| {
                // Sides below 5 hold no monster; keep a few such boards.
                let (r, c) = (rng.random_range(4..=10), rng.random_range(4..=10));
                if batch % 4 == 3 {
                    let count = rng.random_range(1..=4);
                    crosses(&mut rng, r, c, count)
                } else {
                    let percent = rng.random_range(75..=100);
                    random(&mut rng, r, c, percent)
                }
            })
            .collect();
        busy += boards.iter().filter(|b| monster_count(b) >= 3).count();
        let input = format(&boards);
        let expected = solve(reference, &input);
        assert_eq!(solve(brute, &input), expected, "on\n{input}");
        asuna += expected.matches("Asuna").count();
    }
    // Both winners and real games must be well represented, or the
    // comparison proves little.
    assert!(
        (300..=700).contains(&asuna),
        "{asuna} of 1000 boards won by Asuna"
    );
    assert!(
        busy >= 300,
        "only {busy} of 1000 boards have 3 or more monsters"
    );
}
