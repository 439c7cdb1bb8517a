//! The interactor on its own: the submission's side of the game is written
//! in advance (the referee's answers are known, since it is deterministic),
//! fed on stdin, and the verdict, message and drawing are checked.

use a_game_interactive_tools::game::{End, Row, Solved, greedy};
use a_game_interactive_tools::testing::{assert_committed_answers, assert_told};
use a_game_interactive_tools::{answer, parse};
use judge_kit::testing::Refereed;

const BIN: &str = env!("CARGO_BIN_EXE_a-game-interactive-interactor");
const SAMPLE: &str = "6\n4 7 2 9 5 2\n";

/// Runs the interactor on `input` (and its answer, or `answer_file`) with
/// the submission's messages `sent` on stdin.
fn referee(input: &str, answer_file: Option<&str>, sent: &str, playing: bool) -> Refereed {
    let answer_text = answer_file.map_or_else(|| answer(&parse(input).unwrap()), String::from);
    judge_kit::testing::referee(BIN, input, &answer_text, sent, playing)
}

/// The submission's messages when player 1 plays `choose` against the
/// referee, with the sums it then reports (the true ones).
fn transcript(input: &str, choose: fn(&Solved, Row) -> End) -> String {
    let solved = Solved::new(&parse(input).unwrap());
    let mut row = solved.start();
    let mut sums = [0, 0];
    let mut sent = String::new();
    while !row.is_empty() {
        let end = choose(&solved, row);
        sent.push(end.letter());
        sent.push('\n');
        sums[0] += solved.value(row, end);
        row = row.after(end);
        let reply = solved.referee_move(row);
        sums[1] += solved.value(row, reply);
        row = row.after(reply);
    }
    sent + &format!("{} {}\n", sums[0], sums[1])
}

fn best(solved: &Solved, row: Row) -> End {
    solved.submission_best_move(row)
}

#[test]
fn optimal_play_with_the_true_sums_is_accepted() {
    let ran = referee(SAMPLE, None, &transcript(SAMPLE, best), false);
    assert_eq!(ran.code, Some(42), "{}", ran.judgemessage);
    assert_eq!(ran.judgemessage.trim(), "you won, 18 to 11");
    assert_eq!(ran.stderr, "", "draws only when a person plays");
}

#[test]
fn a_tie_is_a_win_for_player_1() {
    let ran = referee("2\n5 5\n", None, "L\n5 5\n", false);
    assert_eq!(ran.code, Some(42), "{}", ran.judgemessage);
}

#[test]
fn a_loss_is_rejected_naming_the_first_mistake() {
    let ran = referee(SAMPLE, None, &transcript(SAMPLE, greedy), false);
    assert_eq!(ran.code, Some(43));
    assert_eq!(
        ran.judgemessage.trim(),
        "you lost, 11 to 18; your first mistake was move 1: `L` left you at most 15 where the other end kept 18"
    );
}

#[test]
fn wrong_sums_are_rejected() {
    let sent = transcript(SAMPLE, best).replace("18 11", "11 18");
    let ran = referee(SAMPLE, None, &sent, false);
    assert_eq!(ran.code, Some(43));
    assert!(
        ran.judgemessage
            .contains("you reported S1 S2 = 11 18, but the game played gives 18 11")
    );
}

#[test]
fn malformed_moves_and_extra_output_are_rejected() {
    let good = transcript(SAMPLE, best);
    for (sent, message) in [
        ("l\n".to_owned(), "move 1: expected `L` or `R`, found `l`"),
        (
            "LEFT\n".to_owned(),
            "move 1: expected `L` or `R`, found `LEFT`",
        ),
        (
            String::new(),
            "move 1: expected `L` or `R`, found end of input",
        ),
        (
            good.replace("18 11\n", ""),
            "move 4: expected S1, your final sum, found end of input",
        ),
        (
            good.replace("18 11", "18 x"),
            "move 4: expected S2, the referee's final sum in 0..=1200, found `x`",
        ),
        (
            good.clone() + "GG\n",
            "after the end of the game: unexpected `GG`",
        ),
    ] {
        let ran = referee(SAMPLE, None, &sent, false);
        assert_eq!(ran.code, Some(43), "{sent:?}");
        assert_eq!(ran.judgemessage.trim(), message, "{sent:?}");
    }
}

#[test]
fn a_broken_test_is_a_judge_error_not_a_rejection() {
    let stale = referee(SAMPLE, Some("17 12\n"), &transcript(SAMPLE, best), false);
    assert_eq!(stale.code, Some(1), "stale answer file");
    let odd = referee("3\n1 2 3\n", Some("4 2\n"), "L\n", false);
    assert_eq!(odd.code, Some(1), "invalid input");
}

#[test]
fn a_person_playing_sees_the_board_the_result_and_the_optimal_line() {
    let ran = referee(SAMPLE, None, &transcript(SAMPLE, greedy), true);
    assert_eq!(ran.code, Some(43));
    assert_told(
        &ran.stderr,
        &[
            "you are player 1; take L or R",
            "move 1: you take L (4)",
            "   .   7   2   9   5   2      you 4 · referee 0",
            "move 1: referee takes L (7)",
            "you lose: 11 to 18",
            "your first mistake: move 1, L left you at most 15 where the other end kept 18",
            "optimal line (you 18 · referee 11):\n  move 1: you R (2), referee L (4)\n  move 2: you L (7), referee L (2)\n  move 3: you L (9), referee L (5)\n",
        ],
    );
}

#[test]
fn committed_answers_are_the_answers_programs() {
    assert_committed_answers(
        env!("CARGO_MANIFEST_DIR"),
        22,
        |input| answer(&parse(input).unwrap()),
        |input| {
            let ran = referee(input, None, &transcript(input, best), false);
            (ran.code, ran.judgemessage)
        },
    );
}
