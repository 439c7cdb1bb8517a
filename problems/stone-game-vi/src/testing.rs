//! What the generator tests of this crate and of
//! `stone-game-vi-interactive-tools` share beyond [`judge_kit::testing`]:
//! two argument lists a seed apart, and arguments wrong for both.

/// The same game but for the seed.
pub const SEEDS: [&[&str]; 2] = [&["random", "50", "100", "1"], &["random", "50", "100", "2"]];

/// Arguments wrong for either generator.
pub const BAD_ARGS: &[&[&str]] = &[
    &["random", "0", "100", "1"],
    &["random", "10", "101", "1"],
    &["draw", "7", "100", "1"],
    &["random", "10", "100"],
];
