//! The interactor on its own: Alice's side of the game is written in
//! advance (the referee's answers are known, since it is deterministic), fed
//! on stdin, and the verdict, message and drawing are checked.

use a_game_interactive_tools::testing::{assert_committed_answers, assert_told};
use judge_kit::testing::Refereed;
use stone_game_vi_interactive_tools::game::Game;
use stone_game_vi_interactive_tools::{answer, parse};

const BIN: &str = env!("CARGO_BIN_EXE_stone-game-vi-interactive-interactor");
/// LeetCode's third sample: a + b = 3, 10, 10; optimal D = −1.
const SAMPLE: &str = "3\n2 4 3\n1 6 7\n";

/// Runs the interactor on `input` (and its answer, or `answer_file`) with
/// Alice's messages `sent` on stdin.
fn referee(input: &str, answer_file: Option<&str>, sent: &str, playing: bool) -> Refereed {
    let answer_text = answer_file.map_or_else(|| answer(&parse(input).unwrap()), String::from);
    judge_kit::testing::referee(BIN, input, &answer_text, sent, playing)
}

/// Alice's messages when she picks with `pick` against the referee, then
/// reports the true D.
fn transcript(input: &str, pick: fn(&mut Game) -> usize) -> String {
    let case = parse(input).unwrap();
    let mut game = Game::new(&case.alice, &case.bob);
    let mut sent = String::new();
    while !game.is_over() {
        if game.alice_to_move() {
            let stone = pick(&mut game);
            sent += &format!("{}\n", stone + 1);
            game.take(stone);
        } else {
            let stone = game.referee_move().unwrap();
            game.take(stone);
        }
    }
    sent + &format!("{}\n", game.diff())
}

fn best(game: &mut Game) -> usize {
    game.alice_best_move().unwrap()
}

#[test]
fn optimal_play_with_the_true_difference_is_accepted() {
    assert_eq!(transcript(SAMPLE, best), "2\n1\n-1\n");
    let ran = referee(SAMPLE, None, "2\n1\n-1\n", false);
    assert_eq!(ran.code, Some(42), "{}", ran.judgemessage);
    assert_eq!(ran.judgemessage.trim(), "D = -1, the optimal value");
    assert_eq!(ran.stderr, "", "draws only when a person plays");
}

/// LeetCode's first sample: a + b = 3, 4; optimal D = 1 (stone 2 first).
const SAMPLE_1: &str = "2\n1 3\n2 1\n";

#[test]
fn weaker_play_is_rejected_naming_the_first_mistake() {
    let ran = referee(SAMPLE_1, None, "1\n0\n", false);
    assert_eq!(ran.code, Some(43));
    assert_eq!(
        ran.judgemessage.trim(),
        "the game ended at D = 0, below the optimal 1; your first mistake was move 1: \
         stone 1 (a + b = 3) while stone 2 (a + b = 4) was left, which dropped the best \
         reachable Alice − Bob from 1 to 0"
    );
}

/// Taking the lightest stone is not always a mistake: with a + b = 10, 10, 3
/// Alice gets one 10 whatever she does first.
#[test]
fn an_equally_good_move_is_no_mistake() {
    let ran = referee(SAMPLE, None, "1\n3\n-1\n", false);
    assert_eq!(ran.code, Some(42), "{}", ran.judgemessage);
}

#[test]
fn illegal_moves_a_wrong_difference_and_extra_output_are_rejected() {
    for (sent, message) in [
        (
            "2\n3\n",
            "move 2: you sent 3; stone 3 was already taken by the referee",
        ),
        (
            "2\n2\n",
            "move 2: you sent 2; stone 2 was already taken by you",
        ),
        (
            "4\n",
            "move 1: expected the number of a stone in 1..=3, found `4`",
        ),
        (
            "0\n",
            "move 1: expected the number of a stone in 1..=3, found `0`",
        ),
        (
            "two\n",
            "move 1: expected the number of a stone in 1..=3, found `two`",
        ),
        (
            "",
            "move 1: expected the number of a stone, found end of input",
        ),
        (
            "2\n1\n1\n",
            "you reported D = 1, but the game played gives -1",
        ),
        ("2\n1\n-1\n3\n", "after the end of the game: unexpected `3`"),
    ] {
        let ran = referee(SAMPLE, None, sent, false);
        assert_eq!(ran.code, Some(43), "{sent:?}");
        assert_eq!(ran.judgemessage.trim(), message, "{sent:?}");
    }
}

#[test]
fn a_broken_test_is_a_judge_error_not_a_rejection() {
    let stale = referee(SAMPLE, Some("0\n"), "2\n1\n-1\n", false);
    assert_eq!(stale.code, Some(1), "stale answer file");
    let invalid = referee("2\n1 2\n3\n", Some("0\n"), "1\n", false);
    assert_eq!(invalid.code, Some(1), "invalid input");
}

#[test]
fn a_person_playing_sees_the_stones_the_result_and_the_optimal_line() {
    let ran = referee(SAMPLE_1, None, "1\n0\n", true);
    assert_eq!(ran.code, Some(43));
    assert_told(
        &ran.stderr,
        &[
            "you are Alice; send the number of a stone",
            "move 1: you take stone 1 (a 1, b 2)",
            "move 1: referee takes stone 2 (a 3, b 1)",
            "taken    A   B      Alice − Bob so far: 0",
            "you ended at Alice − Bob = 0; the optimal value is 1",
            "your first mistake was move 1: stone 1 (a + b = 3) while stone 2 (a + b = 4) was \
             left, which dropped the best reachable Alice − Bob from 1 to 0",
            "optimal line (stones in order taken): 2 1 (Alice − Bob = 1)",
        ],
    );
}

#[test]
fn committed_answers_are_the_answers_programs() {
    assert_committed_answers(
        env!("CARGO_MANIFEST_DIR"),
        27,
        |input| answer(&parse(input).unwrap()),
        |input| {
            let ran = referee(input, None, &transcript(input, best), false);
            (ran.code, ran.judgemessage)
        },
    );
}
