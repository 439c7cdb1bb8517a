//! The referee (Kattis interactive protocol: `interactor input answer
//! feedback_dir/`, stdout to the submission, the submission's stdout on
//! stdin; exit 42 accepts, 43 rejects, `judgemessage.txt` says why).
//!
//! It sends `n`, Alice's values and Bob's values; the submission (Alice)
//! sends the 1-based index of a stone on her turns, the referee (Bob) sends
//! its own on his. After the last stone the submission sends D, Alice's
//! total minus Bob's. Accepted iff every index is legal, D is that of the
//! game played, and D equals the optimal value (the answer file's).

use judge_kit::interactor::Session;
use judge_kit::judge_error;
use stone_game_vi_interactive_tools::game::{Game, Player};
use stone_game_vi_interactive_tools::show::{self, Mistake};
use stone_game_vi_interactive_tools::{MAX_N, MAX_V, answer, parse};

fn main() {
    let mut session = Session::start();
    let case = parse(session.input())
        .unwrap_or_else(|e| judge_error(&format!("the test's input is invalid: {e}")));
    // The answer file is what the answers program wrote; a stale one means
    // the package is broken, never the submission.
    let expected = answer(&case);
    let optimal: i64 = match session.answer().trim().parse() {
        Ok(d) if format!("{d}\n") == expected => d,
        _ => judge_error(&format!(
            "the test's answer file says `{}`, optimal play gives `{}`",
            session.answer().trim(),
            expected.trim()
        )),
    };
    let n = case.alice.len();
    session.send(&n.to_string());
    for row in [&case.alice, &case.bob] {
        let line: Vec<String> = row.iter().map(u32::to_string).collect();
        session.send(&line.join(" "));
    }
    let mut game = Game::new(&case.alice, &case.bob);
    if session.playing() {
        session.show(&format!(
            "you are Alice; send the number of a stone\n{}",
            show::board(&game)
        ));
    }

    let mut mistake = None;
    while !game.is_over() {
        let stone = if game.alice_to_move() {
            let number = game.moves() / 2 + 1;
            let sent = session.recv_int_in(1, n as i64, "the number of a stone");
            let stone = sent as usize - 1;
            if let Some(owner) = game.owner(stone) {
                let by = match owner {
                    Player::Alice => "you",
                    Player::Bob => "the referee",
                };
                session.reject(&format!(
                    "move {number}: you sent {sent}; stone {sent} was already taken by {by}"
                ));
            }
            if mistake.is_none() && !game.is_optimal(stone) {
                let best = game.optimal_final_diff();
                let heaviest = game.alice_best_move().expect("a stone is left");
                let mut after = game.clone();
                after.take(stone);
                mistake = Some(Mistake {
                    number,
                    stone,
                    heaviest,
                    got: after.optimal_final_diff(),
                    best,
                });
            }
            stone
        } else {
            let stone = game.referee_move().expect("a stone is left");
            session.send(&(stone + 1).to_string());
            stone
        };
        game.take(stone);
        if session.playing() {
            session.show(&show::after_move(&game, stone));
        }
    }

    let most = (MAX_N as i64) * i64::from(MAX_V);
    let reported = session.recv_int_in(-most, most, "D, your total minus the referee's");
    if session.playing() {
        session.show(&show::summary(&game, optimal, mistake));
    }
    let diff = game.diff();
    if reported != diff {
        session.reject(&format!(
            "you reported D = {reported}, but the game played gives {diff}"
        ));
    }
    if diff != optimal {
        let why = mistake.map_or(String::new(), |m| {
            format!(
                "; your first mistake was {}",
                m.describe(&case.alice, &case.bob)
            )
        });
        session.reject(&format!(
            "the game ended at D = {diff}, below the optimal {optimal}{why}"
        ));
    }
    session.finish(&format!("D = {diff}, the optimal value"));
}
