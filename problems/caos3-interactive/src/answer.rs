//! `caos3-interactive-answer < test.in > test.ans`: the Grundy value of the
//! map (not 0: the first player wins), which the interactor checks its own
//! table against. (The reference plays rather than prints, so it cannot
//! write the `.ans`.)

use std::io::Read;

use caos3_interactive_tools::game::{Position, Rules};

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        judge_kit::judge_error(&format!("cannot read the test: {e}"));
    }
    match caos3_interactive_tools::parse(&input) {
        Ok(board) => {
            let rules = Rules::new(&board);
            println!("{}", Position::start(&rules).value(&rules));
        }
        Err(e) => judge_kit::judge_error(&format!("the test: {e}")),
    }
}
