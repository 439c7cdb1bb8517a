//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid):
//! `n` (1..=20000), then Alice's n values and Bob's n values (1..=100), one
//! line each, single spaces, a final newline.

fn main() {
    judge_kit::validator::check(|input| stone_game_vi_interactive_tools::parse(input).map(drop))
}
