//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Layout, single spaces and a final newline on every line: `t` (1..=20), then
//! per board a line `n` (1..=8) and n lines of n integers in -1000..=1000.

fn main() {
    judge_kit::validator::check(|input| grid_game_tools::validate(input, &grid_game_tools::BOUNDS))
}
