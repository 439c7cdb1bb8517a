//! What the generator and validator tests of this crate and of
//! `grid-game-large-tools` share beyond [`judge_kit::testing`]: arguments and
//! inputs wrong under any bounds, and the generator's and the validator's
//! cases under a package's bounds.

use judge_kit::testing::{GeneratorCases, ValidatorCases};

use crate::Bounds;

/// The generator's cases under `bounds`: every kind at the most boards
/// (of a side up to 60, for speed), and one more board, a larger side or
/// a larger value refused.
pub fn generator_cases(bounds: &Bounds) -> GeneratorCases {
    let (t, a) = (bounds.max_t.to_string(), bounds.max_abs.to_string());
    let (n, side) = (
        bounds.max_n.min(60).to_string(),
        bounds.max_n.min(30).to_string(),
    );
    let low = format!("-{a}");
    let kinds = ["random", "equal", "extremes", "rowcol", "product", "decoy"];
    let same = kinds.map(|kind| {
        [
            kind,
            t.as_str(),
            "1",
            n.as_str(),
            low.as_str(),
            a.as_str(),
            "7",
        ]
    });
    let over = |value: i64| (value + 1).to_string();
    let (t_over, n_over) = (
        (bounds.max_t + 1).to_string(),
        (bounds.max_n + 1).to_string(),
    );
    let (low_over, high_over) = (format!("-{}", over(bounds.max_abs)), over(bounds.max_abs));
    GeneratorCases::new(
        &same.each_ref().map(|args| &args[..]),
        [
            &["random", "5", &side, &side, &low, &a, "1"],
            &["random", "5", &side, &side, &low, &a, "2"],
        ],
        BAD_ARGS,
    )
    .refusing(&[
        &["random", &t_over, "1", "8", "-10", "10", "1"],
        &["random", "5", "1", &n_over, "-10", "10", "1"],
        &["random", "5", "1", "8", &low_over, "10", "1"],
        &["random", "5", "1", "8", "0", &high_over, "1"],
    ])
}

/// The validator's cases under `bounds`: the largest values fine, one
/// more board, a larger side or a larger value not.
pub fn validator_cases(bounds: &Bounds) -> ValidatorCases {
    let a = bounds.max_abs;
    let boards = bounds.max_t + 1;
    ValidatorCases::new(21)
        .accepting(&[
            "1\n1\n0\n".to_string(),
            format!("1\n1\n-{a}\n"),
            format!("2\n1\n{a}\n2\n-{a} {a}\n{a} -{a}\n"),
        ])
        .rejecting(MALFORMED)
        .rejecting(&[
            (
                "t out of range",
                format!("{boards}\n{}", "1\n0\n".repeat(boards)),
            ),
            ("n out of range", format!("1\n{}\n0\n", bounds.max_n + 1)),
            ("value out of range", format!("1\n1\n{}\n", a + 1)),
            ("negative value out of range", format!("1\n1\n-{}\n", a + 1)),
        ])
}

/// Generator arguments wrong under any bounds.
pub const BAD_ARGS: &[&[&str]] = &[
    &["random", "0", "1", "8", "-10", "10", "1"],
    &["random", "5", "0", "8", "-10", "10", "1"],
    &["random", "5", "5", "4", "-10", "10", "1"],
    &["random", "5", "1", "8", "10", "-10", "1"],
    &["bogus", "5", "1", "8", "-10", "10", "1"],
    &["random", "5", "1", "8", "-10", "10"],
];

/// Inputs malformed under any bounds.
pub const MALFORMED: &[(&str, &str)] = &[
    ("empty", ""),
    ("no final newline", "1\n1\n5"),
    ("t out of range", "0\n"),
    ("n out of range", "1\n0\n"),
    ("missing token", "1\n2\n1 2\n3\n"),
    ("extra token", "1\n2\n1 2 3\n4 5\n"),
    ("missing row", "1\n2\n1 2\n"),
    ("extra line", "1\n1\n5\n6\n"),
    ("fewer boards than t", "2\n1\n5\n"),
    ("blank line at the end", "1\n1\n5\n\n"),
    ("doubled space", "1\n2\n1  2\n3 4\n"),
    ("trailing space", "1\n2\n1 2 \n3 4\n"),
    ("tab", "1\n2\n1\t2\n3 4\n"),
    ("-0", "1\n1\n-0\n"),
    ("plus sign", "1\n1\n+5\n"),
    ("leading zero", "1\n1\n05\n"),
    ("not a number", "1\n1\nx\n"),
    ("two tokens on the t line", "1 1\n1\n5\n"),
    ("CRLF", "1\r\n1\r\n5\r\n"),
    ("huge", "1\n1\n99999999999999999999\n"),
];
