//! `grid-game-interactive-interactor input answer feedback_dir/`: the referee
//! plays Alice against the submission's Bob (Kattis interactive protocol).
//!
//! It sends the board, then each round a row (1-based) and reads Bob's
//! column; after n rounds it reads Bob's total. Accepted iff every column was
//! open, the total is the sum of the game played, and that sum is the value
//! of the game: Bob answered every row optimally. A wrong answer does not end
//! the game at once (Bob may still report his total right), but the first one
//! is named in the rejection.

use grid_game_interactive_tools::game::{self, Game, Mistake};
use grid_game_interactive_tools::{MAX_ABS, MAX_N, parse, show};
use judge_kit::interactor::Session;

fn main() {
    let mut session = Session::start();
    let board = parse(session.input())
        .unwrap_or_else(|e| judge_kit::judge_error(&format!("the test's input: {e}")));
    let value = game::value(&board);
    if session.answer().trim() != value.to_string() {
        judge_kit::judge_error(&format!(
            "the test's answer says {:?}, the value is {value}",
            session.answer().trim()
        ));
    }

    let n = board.len();
    session.send(&n.to_string());
    for row in &board {
        let cells: Vec<String> = row.iter().map(i64::to_string).collect();
        session.send(&cells.join(" "));
    }
    let mut game = Game::new(&board);
    let mut mistake = None;
    for round in 1..=n {
        let before = game.analyse();
        let row = before.referee_row(&board);
        session.send(&(row + 1).to_string());
        session.show(&show::board(&game, Some(row)));
        let col = session.recv_int_in(1, n as i64, "a column") as usize - 1;
        if !game.col_open(col) {
            session.reject(&format!(
                "move {round}: column {} was already struck out",
                col + 1
            ));
        }
        if mistake.is_none() {
            mistake = Mistake::check(&board, &before, round, row, col);
        }
        game.play(row, col);
    }
    session.show(&show::board(&game, None));
    // Any total a board can reach fits; a larger one is rejected as such.
    let bound = MAX_ABS * MAX_N as i64;
    let total = session.recv_int_in(-bound, bound, "the total");
    session.show(&show::summary(&game, value, mistake.as_ref()));
    if total != game.total {
        session.reject(&format!(
            "move {}: you sent the total {total}, but the game played sums to {}",
            session.move_number(),
            game.total
        ));
    }
    if let Some(m) = mistake {
        session.reject(&format!(
            "the game ended at {}, but Bob can hold Alice to {value}: {}",
            game.total,
            m.describe(&board)
        ));
    }
    session.finish(&format!("the value {value} reached in {n} rounds"));
}
