//! `stone-game-vi-interactive-answer < test.in > test.ans`: Alice's total
//! minus Bob's under optimal play, written for every test because an
//! interactive reference cannot write it.

use std::io::Read;

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        judge_kit::judge_error(&format!("cannot read the input: {e}"));
    }
    match stone_game_vi_interactive_tools::parse(&input) {
        Ok(case) => print!("{}", stone_game_vi_interactive_tools::answer(&case)),
        Err(e) => judge_kit::judge_error(&format!("bad input: {e}")),
    }
}
