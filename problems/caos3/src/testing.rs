//! What the generator and validator tests of this crate and of
//! `caos3-large-tools`, and the solutions' brute-force tests, share beyond
//! [`judge_kit::testing`]: inputs broken under any limits, and the
//! brute-force comparison.

use judge_kit::testing::solve;
use rand::Rng;

use crate::{Board, crosses, format, monster_count, random};

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
