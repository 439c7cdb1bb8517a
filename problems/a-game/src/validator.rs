//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Line 1 holds N alone (2 ≤ N ≤ 100); the N values (1..=200) follow on one or
//! more non-empty lines, as the original allows. Tokens are separated by
//! single spaces and every line ends with a newline.

fn main() {
    judge_kit::validator::check(|input| a_game_tools::validate(input, &a_game_tools::BOUNDS))
}
