//! The kit's mains and `testing` helpers end to end, through the example
//! programs in `examples/`. Run them with `cargo test -p judge-kit` (which
//! builds the examples); `--test programs` alone would run stale ones.

use std::process::Command;
use std::time::Duration;

use judge_kit::testing::{
    Played, assert_accepts_inputs, assert_deterministic, assert_rejects_args,
    assert_rejects_inputs, check, play, play_within, sibling_binary, validate,
};

fn example(name: &str) -> std::path::PathBuf {
    sibling_binary(&format!("examples/{name}"))
}

#[test]
fn validator_exits_42_or_43_with_a_reason() {
    let bin = example("list_validator");
    assert_accepts_inputs(&bin, &["3\n1 -2 9\n", "1\n0\n"]);
    assert_rejects_inputs(
        &bin,
        &[
            ("no final newline", &b"1\n0"[..]),
            ("n out of range", b"6\n1 1 1 1 1 1\n"),
            ("not UTF-8", b"1\n\xff\n"),
            ("empty", b""),
        ],
    );
    assert_eq!(
        validate(&bin, b"2\n1\n"),
        (
            Some(43),
            "line 2: expected 2 integers (the values), found 1\n".into()
        )
    );
}

#[test]
fn checker_accepts_rejects_and_scores() {
    let bin = example("sum_checker");
    let accepted = check(&bin, "1 2\n", "3\n", b"  3\n");
    assert_eq!((accepted.code, accepted.score), (Some(42), None));

    let rejected = check(&bin, "1 2\n", "3\n", b"4\n");
    assert_eq!(rejected.code, Some(43));
    assert_eq!(rejected.judgemessage, "expected 3, found 4\n");

    let trailing = check(&bin, "1 2\n", "3\n", b"3\n3\n");
    assert_eq!(
        trailing.judgemessage,
        "line 2: expected nothing more, found `3`\n"
    );
    assert_eq!(check(&bin, "", "3\n", b"\xff").code, Some(43));
    assert_eq!(check(&bin, "", "3\n", b"").code, Some(43));
    // A broken answer file is the judge's fault, not the submission's.
    assert_eq!(check(&bin, "", "x\n", b"3\n").code, Some(1));
}

#[test]
fn checker_writes_scores_and_refuses_bad_ones() {
    let dir = judge_kit::testing::TempDir::new("score");
    let (ans, feedback) = (dir.path().join("ans"), dir.path().join("feedback"));
    std::fs::write(&ans, "3\n").unwrap();
    std::fs::create_dir(&feedback).unwrap();
    let run = |points: &str| {
        let args = [
            ans.to_str().unwrap(),
            ans.to_str().unwrap(),
            feedback.to_str().unwrap(),
            points,
        ];
        judge_kit::testing::run_with_input(example("sum_checker"), &args, b"3\n")
    };
    assert_eq!(run("2.5").status.code(), Some(42));
    assert_eq!(
        std::fs::read_to_string(feedback.join("score.txt")).unwrap(),
        "2.5\n"
    );
    assert_eq!(run("nan").status.code(), Some(1));
    // Too few arguments: a usage error, exit 1.
    let usage = judge_kit::testing::run(example("sum_checker"), &["only-one"]);
    assert_eq!(usage.status.code(), Some(1));
}

#[test]
fn generator_is_deterministic_and_explains_bad_args() {
    let bin = example("dice_generator");
    assert_deterministic(
        &bin,
        &[&["20", "1"], &["5", "9"]],
        [&["20", "1"], &["20", "2"]],
    );
    assert_rejects_args(&bin, &[&["20"], &["x", "1"], &["20", "-1"]]);
}

/// Plays the guessing game on `50 37` (N = 50, secret 37) against a shell
/// script.
fn guess(script: &str) -> Played {
    let mut solution = Command::new("sh");
    solution.args(["-c", script]);
    play(Command::new(example("guess")), solution, "50 37\n", "")
}

const BINARY_SEARCH: &str = r#"
    read n; lo=1; hi=$n
    while :; do
        mid=$(( (lo + hi) / 2 )); echo $mid; read r
        case $r in correct) exit 0;; higher) lo=$((mid + 1));; lower) hi=$((mid - 1));; esac
    done"#;

#[test]
fn interactor_accepts_a_correct_game() {
    let played = guess(BINARY_SEARCH);
    assert_eq!(
        played,
        Played {
            interactor_code: Some(42),
            solution_code: Some(0),
            judgemessage: "found 37 in 6 guesses\n".into(),
            timed_out: false,
        }
    );
}

#[test]
fn interactor_rejects_a_bad_move_naming_it() {
    let played = guess("read n; echo 25; read r; echo 40; read r; echo 51");
    assert_eq!(played.interactor_code, Some(43));
    assert_eq!(
        played.judgemessage,
        "move 3: expected a guess in 1..=50, found `51`\n"
    );
    let played = guess("read n; echo twenty");
    assert_eq!(
        played.judgemessage,
        "move 1: expected a guess in 1..=50, found `twenty`\n"
    );
}

#[test]
fn interactor_rejects_a_silent_exit_without_dying_of_sigpipe() {
    // The submission may be gone before we send N: the write fails with
    // EPIPE, which must not kill the interactor.
    for _ in 0..5 {
        let played = guess("exit 0");
        assert_eq!(played.interactor_code, Some(43), "{played:?}");
        assert!(
            played
                .judgemessage
                .starts_with("move 1: expected a guess, found end of input"),
            "{}",
            played.judgemessage
        );
    }
}

#[test]
fn interactor_says_when_the_submission_stopped_reading() {
    // Stdin closed first, then one guess: our "lower" cannot be delivered,
    // and the next move never comes.
    let played = guess("exec 0<&-; echo 40");
    assert_eq!(played.interactor_code, Some(43));
    assert_eq!(
        played.judgemessage,
        "move 2: expected a guess, found end of input (the submission stopped reading)\n"
    );
}

#[test]
fn interactor_accepts_a_submission_that_leaves_after_winning() {
    // It does not read our "correct": not a fault.
    let played = guess("read n; echo 37");
    assert_eq!(played.interactor_code, Some(42), "{played:?}");
    // It reads until end of input after winning: `finish` closes our end.
    let played = guess("read n; echo 37; while read r; do :; done");
    assert_eq!(played.interactor_code, Some(42), "{played:?}");
    assert!(!played.timed_out);
}

#[test]
fn interactor_rejects_output_after_the_game() {
    let played = guess("read n; echo 37; read r; echo thanks");
    assert_eq!(played.interactor_code, Some(43));
    assert_eq!(
        played.judgemessage,
        "after the end of the game: unexpected `thanks`\n"
    );
}

#[test]
fn interactor_caps_token_length() {
    // One endless token: rejected after 64 bytes, long before memory matters.
    let played = guess("read n; while :; do printf aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done");
    assert_eq!(played.interactor_code, Some(43));
    assert_eq!(
        played.judgemessage,
        format!(
            "move 1: expected a guess, found a token over 64 bytes (`{}...`)\n",
            "a".repeat(24)
        )
    );
    assert!(!played.timed_out);
}

#[test]
fn interactor_rejects_running_out_of_guesses() {
    let played = guess("read n; while :; do echo 1; read r; done");
    assert_eq!(played.interactor_code, Some(43));
    assert_eq!(played.judgemessage, "no guess left after 10 guesses\n");
}

#[test]
fn play_kills_a_pair_that_waits_forever() {
    let mut solution = Command::new("sleep");
    solution.arg("30");
    let played = play_within(
        Command::new(example("guess")),
        solution,
        "50 37\n",
        "",
        Duration::from_millis(300),
    );
    assert!(played.timed_out);
    assert_eq!((played.interactor_code, played.solution_code), (None, None));
}

#[test]
fn interactor_with_a_broken_input_is_a_judge_error() {
    let mut solution = Command::new("sh");
    solution.args(["-c", BINARY_SEARCH]);
    let played = play(Command::new(example("guess")), solution, "37 50\n", "");
    assert_eq!(played.interactor_code, Some(1));
}
