//! Test generation for `a-game-large` (A Game with N ≤ 20000 and values up to
//! 10^9), shared by the generator binary and the brute-force comparison test.
//!
//! The board kinds, layouts and validation are `a-game-tools'`
//! ([`a_game_tools`]); this crate supplies the larger [`BOUNDS`] and `u64`
//! values.

use rand::Rng;

pub use a_game_tools::{Bounds, Kind, Layout, render, testing};

/// Bounds on N.
pub const MIN_N: usize = 2;
pub const MAX_N: usize = 20_000;
/// Largest value on the board.
pub const MAX_V: u64 = 1_000_000_000;

/// This problem's limits.
pub const BOUNDS: Bounds<u64> = Bounds {
    min_n: MIN_N,
    max_n: MAX_N,
    max_v: MAX_V,
};

/// A board of `n` values drawn as `kind` says, at most `max_v`.
pub fn board(rng: &mut impl Rng, kind: Kind, n: usize, max_v: u64) -> Vec<u64> {
    a_game_tools::board_of(rng, kind, n, max_v)
}

/// Builds an input from generator arguments `KIND N MAXV LAYOUT SEED`, where
/// `LAYOUT` is `line`, `column`, `wrapK` or `ragged`.
///
/// # Errors
/// Returns a usage message when the arguments are malformed or out of range.
pub fn generate(args: &[String]) -> Result<String, String> {
    a_game_tools::generate_within(args, &BOUNDS)
}
