//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid):
//! `N` alone on line 1 (even, 2..=100), then the N numbers (1..=200) on one
//! line, single spaces, a final newline.

fn main() {
    judge_kit::validator::check(|input| a_game_interactive_tools::parse(input).map(drop))
}
