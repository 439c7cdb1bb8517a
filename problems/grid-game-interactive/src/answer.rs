//! `grid-game-interactive-answer < test.in > test.ans`: the value of the
//! game, which the interactor checks the submission's final total against.
//! (The reference plays rather than prints, so it cannot write the `.ans`.)

use std::io::Read;

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        judge_kit::judge_error(&format!("cannot read the test: {e}"));
    }
    match grid_game_interactive_tools::parse(&input) {
        Ok(board) => println!("{}", grid_game_interactive_tools::game::value(&board)),
        Err(e) => judge_kit::judge_error(&format!("the test: {e}")),
    }
}
