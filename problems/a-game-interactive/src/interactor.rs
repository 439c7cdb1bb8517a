//! The referee (Kattis interactive protocol: `interactor input answer
//! feedback_dir/`, stdout to the submission, the submission's stdout on
//! stdin; exit 42 accepts, 43 rejects, `judgemessage.txt` says why).
//!
//! It sends `N` and the row, then plays N/2 rounds: the submission (player 1)
//! sends `L` or `R`, the referee (player 2) answers with its own end. Then
//! the submission sends `S1 S2`. Accepted iff every move is `L` or `R`, the
//! sums are those of the game played, and S1 ≥ S2.

use a_game_interactive_tools::game::{End, Solved};
use a_game_interactive_tools::show::{self, Mistake, Player};
use a_game_interactive_tools::{BOUNDS, answer, parse};
use judge_kit::interactor::Session;
use judge_kit::judge_error;

fn main() {
    let mut session = Session::start();
    let values = parse(session.input())
        .unwrap_or_else(|e| judge_error(&format!("the test's input is invalid: {e}")));
    // The answer file is what the answers program wrote; a stale one means
    // the package is broken, never the submission.
    let expected = answer(&values);
    if session
        .answer()
        .split_whitespace()
        .ne(expected.split_whitespace())
    {
        judge_error(&format!(
            "the test's answer file says `{}`, optimal play gives `{}`",
            session.answer().trim(),
            expected.trim()
        ));
    }
    let solved = Solved::new(&values);
    let n = values.len();
    session.send(&n.to_string());
    let row_line: Vec<String> = values.iter().map(u32::to_string).collect();
    session.send(&row_line.join(" "));
    session.show(&format!(
        "you are player 1; take L or R\n{}",
        show::board(&solved, solved.start(), [0, 0])
    ));

    let mut row = solved.start();
    let mut scores = [0, 0];
    let mut mistake = None;
    for number in 1..=n / 2 {
        let token = session.recv("`L` or `R`");
        let Some(end) = End::parse(&token) else {
            session.reject(&format!(
                "move {number}: expected `L` or `R`, found `{}`",
                token.escape_debug()
            ));
        };
        if mistake.is_none() && !solved.is_optimal(row, end) {
            mistake = Some(Mistake {
                number,
                end,
                got: scores[0] + solved.move_value(row, end),
                best: scores[0] + solved.best(row),
            });
        }
        scores[0] += solved.value(row, end);
        row = row.after(end);
        if session.playing() {
            let shown = show::after_move(&solved, number, Player::Submission, end, row, scores);
            session.show(&shown);
        }

        let reply = solved.referee_move(row);
        scores[1] += solved.value(row, reply);
        row = row.after(reply);
        session.send(&reply.letter().to_string());
        if session.playing() {
            let shown = show::after_move(&solved, number, Player::Referee, reply, row, scores);
            session.show(&shown);
        }
    }

    let most = i64::from(BOUNDS.max_v) * n as i64;
    let s1 = session.recv_int_in(0, most, "S1, your final sum");
    let s2 = session.recv_int_in(0, most, "S2, the referee's final sum");
    if session.playing() {
        session.show(&show::summary(&solved, scores, mistake));
    }
    let [you, referee] = scores.map(i64::from);
    if (s1, s2) != (you, referee) {
        session.reject(&format!(
            "you reported S1 S2 = {s1} {s2}, but the game played gives {you} {referee}"
        ));
    }
    if you < referee {
        let why = mistake.map_or(String::new(), |m| {
            format!(
                "; your first mistake was move {}: `{}` left you at most {} where the other end kept {}",
                m.number,
                m.end.letter(),
                m.got,
                m.best
            )
        });
        session.reject(&format!("you lost, {you} to {referee}{why}"));
    }
    session.finish(&format!("you won, {you} to {referee}"));
}
