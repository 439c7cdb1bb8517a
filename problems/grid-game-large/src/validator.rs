//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Layout, single spaces and a final newline on every line: `t` (1..=5), then
//! per board a line `n` (1..=500) and n lines of n integers in -10^9..=10^9.

fn main() {
    judge_kit::validator::check(|input| {
        grid_game_tools::validate(input, &grid_game_large_tools::BOUNDS)
    })
}
