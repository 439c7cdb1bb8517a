//! What the generator and validator tests of this crate and of
//! `a-game-large-tools`, and the solutions' brute-force tests, share beyond
//! [`judge_kit::testing`]: this problem's bad arguments and inputs, the
//! generator's and the validator's cases under a package's bounds, and the
//! brute-force comparison.

use judge_kit::testing::{GeneratorCases, ValidatorCases, generate, solve};
use rand::Rng;

use crate::{Kind, Layout, Value, board_of, render};

/// The layout changes how the 30 values of a board are broken into lines,
/// not the values.
pub fn assert_layout_changes_lines_not_board(bin: &str) {
    let tokens = |layout| {
        let out = generate(bin, &["random", "30", "200", layout, "3"]);
        let text = String::from_utf8(out).unwrap();
        let lines = text.lines().count();
        let toks: Vec<String> = text.split_whitespace().map(String::from).collect();
        (toks, lines)
    };
    let (line, one) = tokens("line");
    let (column, thirty_one) = tokens("column");
    let (wrap, five) = tokens("wrap7");
    assert_eq!((one, thirty_one, five), (2, 31, 6));
    assert!(line == column && line == wrap);
}

/// Generator arguments wrong under any bounds.
pub const BAD_ARGS: &[&[&str]] = &[
    &["random", "1", "200", "line", "1"],
    &["random", "10", "200", "wrap0", "1"],
    &["random", "10", "200", "zigzag", "1"],
    &["bogus", "10", "200", "line", "1"],
    &["random", "10", "200", "line"],
];

/// Inputs valid under any bounds.
pub const EDGES: &[&[u8]] = &[b"6\n4 7 2 9\n5 2\n", b"3\n1\n2\n3\n"];

/// Inputs malformed under any bounds.
pub const MALFORMED: &[(&str, &[u8])] = &[
    ("N = 1", b"1\n5\n"),
    ("value 0", b"2\n0 5\n"),
    ("negative value", b"2\n-1 5\n"),
    ("missing value", b"3\n1 2\n"),
    ("extra value", b"2\n1 2 3\n"),
    ("extra value on its own line", b"2\n1 2\n3\n"),
    ("N shares its line", b"2 1 2\n"),
    ("no values at all", b"2\n"),
    ("empty line", b"2\n1\n\n2\n"),
    ("no final newline", b"2\n1 2"),
    ("double space", b"2\n1  2\n"),
    ("trailing space", b"2\n1 2 \n"),
    ("tab", b"2\n1\t2\n"),
    ("leading zero", b"2\n01 2\n"),
    ("carriage return", b"2\r\n1 2\r\n"),
    ("not a number", b"2\n1 x\n"),
    ("empty input", b""),
];

/// The generator's cases under at most `max_n` values of at most `max_v`:
/// boards as large as that, and one value more (or a larger one) refused.
pub fn generator_cases(max_n: usize, max_v: u64) -> GeneratorCases {
    let (n, v) = (max_n.to_string(), max_v.to_string());
    let spikes = (max_n.min(1000) - 1).to_string();
    let (n_over, v_over) = ((max_n + 1).to_string(), (max_v + 1).to_string());
    GeneratorCases::new(
        &[
            &["random", &n, &v, "ragged", "7"],
            &["spikes", &spikes, &v, "wrap7", "7"],
            &["const", "2", "1", "column", "7"],
        ],
        [
            &["random", "50", &v, "line", "1"],
            &["random", "50", &v, "line", "2"],
        ],
        BAD_ARGS,
    )
    .refusing(&[
        &["random", &n_over, "200", "line", "1"],
        &["random", "10", &v_over, "line", "1"],
    ])
}

/// The validator's cases under at most `max_n` values of at most `max_v`,
/// with at least `committed` committed inputs.
pub fn validator_cases(committed: usize, max_n: usize, max_v: u64) -> ValidatorCases {
    let row = vec![max_v.to_string(); max_n].join(" ");
    ValidatorCases::new(committed)
        .accepting(EDGES)
        .accepting(&[format!("2\n1 {max_v}\n"), format!("{max_n}\n{row}\n")])
        .rejecting(MALFORMED)
        .rejecting(&[
            (&format!("N = {}", max_n + 1), format!("{}\n1\n", max_n + 1)),
            (
                &format!("value above {max_v}"),
                format!("2\n{} 5\n", max_v + 1),
            ),
            ("huge value", "2\n99999999999999999999999 5\n".into()),
        ])
}

/// On 1000 random boards of 2 to 14 values, at most `max_vs[round % 3]`,
/// `reference` agrees with the full game tree `minimax`, and on every tenth
/// board `also` agrees too.
pub fn assert_matches_brute<V: Value>(max_vs: [V; 3], reference: &str, minimax: &str, also: &str) {
    let layouts = [
        Layout::Line,
        Layout::Column,
        Layout::Wrap(3),
        Layout::Ragged,
    ];
    let mut rng = judge_kit::generator::rng(1996);
    for round in 0..1000 {
        let max_v = max_vs[round % 3];
        let kind = match round % 10 {
            9 => Kind::Const,
            7 | 8 => Kind::Spikes,
            _ => Kind::Random,
        };
        let n = rng.random_range(2..=14);
        let b = board_of(&mut rng, kind, n, max_v);
        let input = render(&mut rng, &b, layouts[round % layouts.len()]);
        let expected = solve(minimax, &input);
        assert_eq!(solve(reference, &input), expected, "on\n{input}");
        if round % 10 == 0 {
            assert_eq!(solve(also, &input), expected, "on\n{input}");
        }
    }
}
