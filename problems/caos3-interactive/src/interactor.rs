//! `caos3-interactive-interactor input answer feedback_dir/`: the referee
//! plays Kirito against the submission's Asuna (Kattis interactive protocol).
//!
//! It sends the map, then reads a move `r c` and answers with its own, or
//! with `0 0` once it has none (the submission won). Accepted iff every move
//! is legal and the submission makes the last move. The referee wins from
//! any position it can (see `game::referee_move`), so one wrong move loses.

use caos3_interactive_tools::game::{Illegal, Mistake, Position, Rules, referee_move};
use caos3_interactive_tools::{parse, show};
use judge_kit::interactor::Session;

fn main() {
    let mut session = Session::start();
    let board = parse(session.input())
        .unwrap_or_else(|e| judge_kit::judge_error(&format!("the test's input: {e}")));
    let rules = Rules::new(&board);
    let mut position = Position::start(&rules);
    let value = position.value(&rules);
    if value == 0 || session.answer().trim() != value.to_string() {
        judge_kit::judge_error(&format!(
            "the test's answer says {:?}, the map's Grundy value is {value} (must not be 0)",
            session.answer().trim()
        ));
    }

    let (rows, cols) = (rules.rows(), rules.cols());
    session.send(&format!("{rows} {cols}"));
    for row in &board {
        session.send(&String::from_utf8_lossy(row));
    }
    let mut volcanoes = Vec::new();
    let mut mistake = None;
    session.show(&show::map(&board, &rules, &position, &volcanoes));
    for turn in 1.. {
        let r = session.recv_int_in(0, rows as i64, "a row") as usize;
        let c = session.recv_int_in(0, cols as i64, "a column") as usize;
        let left = position.moves(&rules).len();
        if r == 0 || c == 0 {
            session.reject(&format!(
                "move {turn}: you sent `{r} {c}`, but {left} monsters were still yours to pick"
            ));
        }
        let cell = (r - 1, c - 1);
        match position.check(&rules, cell) {
            Err(Illegal::NoMonster) => session.reject(&format!(
                "move {turn}: no monster lived at ({r} {c}) on the map"
            )),
            Err(Illegal::Lava) => {
                session.reject(&format!("move {turn}: ({r} {c}) is already under lava"))
            }
            Ok(()) => {}
        }
        if mistake.is_none() {
            mistake = Mistake::check(&rules, &position, turn, cell);
        }
        position.play(cell);
        volcanoes.push(cell);
        session.show(&format!("you: {r} {c}"));
        session.show(&show::map(&board, &rules, &position, &volcanoes));
        let Some(reply) = referee_move(&rules, &position) else {
            session.send("0 0");
            session.show(&show::summary(&rules, true, None));
            session.finish(&format!("you made the last move, move {turn}"));
        };
        position.play(reply);
        volcanoes.push(reply);
        session.send(&show::name(reply));
        session.show(&format!("referee: {}", show::name(reply)));
        session.show(&show::map(&board, &rules, &position, &volcanoes));
        if position.moves(&rules).is_empty() {
            session.show(&show::summary(&rules, false, mistake.as_ref()));
            let how = mistake.map_or(String::new(), |m| format!("; {}", m.describe()));
            session.reject(&format!(
                "the referee made the last move ({}){how}",
                show::name(reply)
            ));
        }
    }
}
