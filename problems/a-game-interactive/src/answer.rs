//! `a-game-interactive-answer < test.in > test.ans`: the final scores of
//! player 1 and player 2 under optimal play, written for every test because
//! an interactive reference cannot write them.

use std::io::Read;

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        judge_kit::judge_error(&format!("cannot read the input: {e}"));
    }
    match a_game_interactive_tools::parse(&input) {
        Ok(values) => print!("{}", a_game_interactive_tools::answer(&values)),
        Err(e) => judge_kit::judge_error(&format!("bad input: {e}")),
    }
}
