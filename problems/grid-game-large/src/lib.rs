//! Test generation for "Grid Game, large" (UVa 11553 with n ≤ 500, |M(i,j)| ≤ 10^9).
//!
//! The board families, input format and validation are `grid-game-tools`'
//! ([`grid_game_tools`]); this crate only supplies the larger [`BOUNDS`]. Used
//! by the generator and validator binaries and by the brute-force comparison
//! test in `solutions/grid-game-large`, so all draw boards from exactly the
//! same families.

pub use grid_game_tools::{Bounds, Case, Kind, Spec, board};

/// Largest board side allowed by the statement.
pub const MAX_N: usize = 500;
/// Largest number of boards in one input.
pub const MAX_T: usize = 5;
/// Bound on |M(i,j)|.
pub const MAX_ABS: i64 = 1_000_000_000;

/// This problem's limits.
pub const BOUNDS: Bounds = Bounds {
    id: "grid-game-large",
    max_n: MAX_N,
    max_t: MAX_T,
    max_abs: MAX_ABS,
};

/// Runs the generator on command-line arguments.
pub fn generate(args: &[String]) -> Result<Case, String> {
    grid_game_tools::generate_within(args, &BOUNDS)
}
