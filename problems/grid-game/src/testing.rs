//! What the generator and validator tests of this crate and of
//! `grid-game-large-tools` share beyond [`judge_kit::testing`]: arguments and
//! inputs wrong under any bounds.

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
