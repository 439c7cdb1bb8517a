//! Every solution plays the referee on the committed tests, wired as the
//! judge wires them, with the outcome its `problem.toml` entry expects; and
//! the referee's answers to protocol breaches and its play mode.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use grid_game_interactive_tools::testing::interactor;
use judge_kit::testing::{Played, TempDir, committed_inputs, play, play_within};

const PACKAGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../problems/grid-game-interactive"
);

/// Each committed test: its name, input and answer.
fn tests() -> Vec<(String, String, String)> {
    let tests: Vec<_> = committed_inputs(PACKAGE)
        .into_iter()
        .map(|path: PathBuf| {
            let read = |p: &PathBuf| std::fs::read_to_string(p).unwrap();
            let name = path.strip_prefix(PACKAGE).unwrap().display().to_string();
            (name, read(&path), read(&path.with_extension("ans")))
        })
        .collect();
    assert!(tests.len() >= 20, "found {} tests", tests.len());
    tests
}

fn referee() -> Command {
    Command::new(interactor())
}

fn bin(name: &str) -> Command {
    let path = judge_kit::testing::sibling_binary(name);
    assert!(path.exists(), "{} is not built", path.display());
    Command::new(path)
}

/// Plays `solution` on every test.
fn play_all(solution: impl Fn() -> Command) -> Vec<(String, Played)> {
    tests()
        .into_iter()
        .map(|(name, input, answer)| (name, play(referee(), solution(), &input, &answer)))
        .collect()
}

fn assert_wins_everywhere(solution: impl Fn() -> Command) {
    for (name, played) in play_all(solution) {
        assert_eq!(played.interactor_code, Some(42), "{name}: {played:?}");
        assert_eq!(played.solution_code, Some(0), "{name}: {played:?}");
    }
}

#[test]
fn reference_holds_alice_to_the_value_on_every_test() {
    assert_wins_everywhere(|| bin("grid-game-interactive"));
}

#[test]
fn python_reference_holds_alice_to_the_value_on_every_test() {
    assert_wins_everywhere(|| {
        let mut python = Command::new("python3");
        python.arg(format!("{}/other/bob.py", env!("CARGO_MANIFEST_DIR")));
        python
    });
}

#[test]
fn greedy_bob_loses_where_the_referee_sets_traps() {
    let mut lost = Vec::new();
    for (name, played) in play_all(|| bin("grid-game-interactive-greedy")) {
        // A clean game each time: rejected or accepted, never a crash.
        assert!(
            matches!(played.interactor_code, Some(42 | 43)),
            "{name}: {played:?}"
        );
        assert_eq!(played.solution_code, Some(0), "{name}: {played:?}");
        if played.interactor_code == Some(43) {
            assert!(
                played.judgemessage.contains("gave away"),
                "{name}: {played:?}"
            );
            lost.push(name);
        }
    }
    for trap in [
        "sample/02",
        "03-decoy",
        "04-greedy-trap",
        "02-decoy",
        "09-greedy-trap",
    ] {
        assert!(
            lost.iter().any(|name| name.contains(trap)),
            "won {trap}; lost {lost:?}"
        );
    }
}

#[test]
fn silent_bob_times_out() {
    let (_, input, answer) = &tests()[0];
    let played = play_within(
        referee(),
        bin("grid-game-interactive-noflush"),
        input,
        answer,
        Duration::from_secs(2),
    );
    assert!(played.timed_out, "{played:?}");
}

#[test]
fn crashing_bob_crashes_and_the_referee_sees_him_go() {
    for (name, played) in play_all(|| bin("grid-game-interactive-crash")) {
        assert_eq!(played.solution_code, Some(101), "{name}: {played:?}");
        assert_eq!(played.interactor_code, Some(43), "{name}: {played:?}");
        assert!(
            played.judgemessage.contains("end of input"),
            "{name}: {played:?}"
        );
    }
}

#[test]
fn garbage_is_rejected_naming_the_move() {
    for (name, played) in play_all(|| bin("grid-game-interactive-garbage")) {
        assert_eq!(played.interactor_code, Some(43), "{name}: {played:?}");
        assert!(
            played.judgemessage.contains("move 1: expected a column"),
            "{name}: {played:?}"
        );
    }
}

/// A Bob written as a Python script, for the protocol's corners.
fn script(source: &str) -> Command {
    let mut python = Command::new("python3");
    python.args(["-c", source]);
    python
}

/// Reads the board and the first row, then runs `rest`.
fn after_first_row(rest: &str) -> Command {
    script(&format!(
        "import sys\nn = int(input())\nfor _ in range(n): input()\ninput()\n{rest}"
    ))
}

#[test]
fn referee_rejects_breaches_of_the_protocol() {
    let board = "2\n10 -5\n-5 10\n";
    let cases = [
        // A column struck out already.
        (
            "print(2, flush=True)\ninput()\nprint(2, flush=True)\nsys.stdin.read()",
            "move 2: column 2 was already struck out",
        ),
        // A column off the board.
        (
            "print(3, flush=True)\nsys.stdin.read()",
            "move 1: expected a column in 1..=2, found `3`",
        ),
        // The right game, the wrong total.
        (
            "print(2, flush=True)\ninput()\nprint(1, flush=True)\nprint(-9, flush=True)\nsys.stdin.read()",
            "move 2: you sent the total -9, but the game played sums to -10",
        ),
        // The right game and total, then more.
        (
            "print(2, flush=True)\ninput()\nprint(1, flush=True)\nprint(-10, 7, flush=True)\nsys.stdin.read()",
            "after the end of the game: unexpected `7`",
        ),
        // A losing answer, reported honestly.
        (
            "print(1, flush=True)\ninput()\nprint(2, flush=True)\nprint(20, flush=True)\nsys.stdin.read()",
            "the game ended at 20, but Bob can hold Alice to -10: move 1",
        ),
    ];
    for (rest, message) in cases {
        let played = play(referee(), after_first_row(rest), board, "-10\n");
        assert_eq!(played.interactor_code, Some(43), "{rest}: {played:?}");
        assert!(played.judgemessage.contains(message), "{rest}: {played:?}");
    }
    // The same answers as the reference: accepted.
    let good = "print(2, flush=True)\ninput()\nprint(1, flush=True)\nprint(-10, flush=True)";
    let played = play(referee(), after_first_row(good), board, "-10\n");
    assert_eq!(played.interactor_code, Some(42), "{played:?}");
}

#[test]
fn a_wrong_answer_file_is_a_judge_error() {
    let played = play(referee(), bin("grid-game-interactive"), "1\n5\n", "4\n");
    assert_eq!(played.interactor_code, Some(1), "{played:?}");
}

/// Plays the reference with the referee's stderr in a file; returns it.
fn referee_stderr(playing: bool) -> String {
    let dir = TempDir::new("grid-play");
    let log = dir.path().join("stderr");
    let mut command = referee();
    command.stderr(std::fs::File::create(&log).unwrap());
    if playing {
        command.env("JUDGE_PLAY", "1");
    } else {
        command.env_remove("JUDGE_PLAY");
    }
    let (input, answer) = ("3\n1 -2 -3\n-3 4 -5\n-2 1 3\n", "-9\n");
    let played = play(command, bin("grid-game-interactive-greedy"), input, answer);
    assert_eq!(played.interactor_code, Some(43), "{played:?}");
    std::fs::read_to_string(log).unwrap()
}

#[test]
fn play_mode_draws_the_board_and_explains_the_end() {
    let shown = referee_stderr(true);
    for part in [
        "Alice strikes out row 1; your column?",
        "[-3]",
        "game over: your total -1, the value of the game -9",
        "move 1: Alice struck out row 1 and you took column 3 (-3), which gave away 4",
        "an optimal line: row 1 -> column 2, row 3 -> column 1, row 2 -> column 3 (total -9)",
    ] {
        assert!(shown.contains(part), "missing {part:?} in\n{shown}");
    }
    assert_eq!(referee_stderr(false), "");
}
