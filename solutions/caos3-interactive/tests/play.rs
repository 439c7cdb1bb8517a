//! Every solution plays the referee on the committed tests, wired as the
//! judge wires them, with the outcome its `problem.toml` entry expects; and
//! the referee's answers to protocol breaches and its play mode.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use caos3_interactive_tools::testing::interactor;
use judge_kit::testing::{Played, TempDir, committed_inputs, play, play_within};

const PACKAGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../problems/caos3-interactive"
);

/// The original's sample: Asuna wins at once with (5 5).
const SAMPLE: &str = "7 7\n^#^#^^^\n^#^^^#^\n^#^^^^^\n^^^#^^^\n^^^^^^^\n^^^^^^^\n^^^^^^^\n";

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
    assert!(tests.len() >= 15, "found {} tests", tests.len());
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
fn reference_makes_the_last_move_on_every_test() {
    assert_wins_everywhere(|| bin("caos3-interactive"));
}

#[test]
fn cpp_reference_makes_the_last_move_on_every_test() {
    let dir = TempDir::new("caos3-cpp");
    let exe = dir.path().join("asuna");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/other/asuna.cpp");
    let status = Command::new("g++")
        .args(["-O2", "-std=gnu++20", "-o"])
        .arg(&exe)
        .arg(source)
        .spawn()
        .map(|child| judge_kit::testing::wait_within(child, "g++"))
        .expect("run g++");
    assert!(status.success());
    assert_wins_everywhere(|| Command::new(&exe));
}

/// A wrong strategy: a clean game on every test (no crash), lost at least
/// on the tests built to trap it.
fn assert_loses_its_traps(name: &str, traps: &[&str]) {
    let mut lost = Vec::new();
    for (test, played) in play_all(|| bin(name)) {
        assert!(
            matches!(played.interactor_code, Some(42 | 43)),
            "{test}: {played:?}"
        );
        assert_eq!(played.solution_code, Some(0), "{test}: {played:?}");
        if played.interactor_code == Some(43) {
            assert!(
                played
                    .judgemessage
                    .contains("the referee made the last move"),
                "{test}: {played:?}"
            );
            lost.push(test);
        }
    }
    for trap in traps {
        assert!(
            lost.iter().any(|test| test.contains(trap)),
            "won {trap}; lost {lost:?}"
        );
    }
}

#[test]
fn odd_count_strategy_loses_its_traps() {
    assert_loses_its_traps(
        "caos3-interactive-odd",
        &["1-small/05-trap-odd", "2-large/07-trap-odd"],
    );
}

#[test]
fn parity_strategy_loses_its_traps() {
    assert_loses_its_traps(
        "caos3-interactive-parity",
        &["1-small/06-trap-parity", "2-large/08-trap-parity"],
    );
}

#[test]
fn silent_asuna_times_out() {
    let played = play_within(
        referee(),
        bin("caos3-interactive-noflush"),
        SAMPLE,
        "2\n",
        Duration::from_secs(2),
    );
    assert!(played.timed_out, "{played:?}");
}

#[test]
fn crashing_asuna_crashes_while_the_referee_waits() {
    let mut crashed = 0;
    for (name, played) in play_all(|| bin("caos3-interactive-crash")) {
        if played.solution_code == Some(0) {
            // Its first move won outright: no second move to crash on.
            assert_eq!(played.interactor_code, Some(42), "{name}: {played:?}");
            continue;
        }
        assert_eq!(played.solution_code, Some(101), "{name}: {played:?}");
        assert_eq!(played.interactor_code, Some(43), "{name}: {played:?}");
        assert!(
            played
                .judgemessage
                .contains("move 2: expected a row, found end of input"),
            "{name}: {played:?}"
        );
        crashed += 1;
    }
    assert!(crashed >= 10, "crashed on {crashed} tests");
}

#[test]
fn garbage_is_rejected_naming_the_move() {
    for (name, played) in play_all(|| bin("caos3-interactive-garbage")) {
        assert_eq!(played.interactor_code, Some(43), "{name}: {played:?}");
        assert!(
            played
                .judgemessage
                .contains("move 1: expected a row in 0..="),
            "{name}: {played:?}"
        );
    }
}

/// An Asuna written as a Python script that reads the map, then runs `rest`.
fn script(rest: &str) -> Command {
    let source =
        format!("import sys\nr, c = map(int, input().split())\nfor _ in range(r): input()\n{rest}");
    let mut python = Command::new("python3");
    python.args(["-c", &source]);
    python
}

#[test]
fn referee_rejects_breaches_of_the_protocol() {
    // A 9x9 map of `^`: monsters on rows and columns 3..=7.
    let full = format!("9 9\n{}", "^^^^^^^^^\n".repeat(9));
    let cases = [
        (
            SAMPLE,
            "print(1, 1, flush=True)\nsys.stdin.read()",
            "move 1: no monster lived at (1 1) on the map",
        ),
        (
            SAMPLE,
            "print(8, 1, flush=True)\nsys.stdin.read()",
            "move 1: expected a row in 0..=7, found `8`",
        ),
        (
            SAMPLE,
            "print(0, 0, flush=True)\nsys.stdin.read()",
            "move 1: you sent `0 0`, but 3 monsters were still yours to pick",
        ),
        (
            &full,
            "print(5, 5, flush=True)\ninput()\nprint(5, 5, flush=True)\nsys.stdin.read()",
            "move 2: (5 5) is already under lava",
        ),
        (
            &full,
            "print(5, 5, flush=True)\ninput()\nprint(5, 7, flush=True)\nsys.stdin.read()",
            "move 2: (5 7) is already under lava",
        ),
        // The win, then more.
        (
            SAMPLE,
            "print(5, 5, flush=True)\ninput()\nprint('gg', flush=True)",
            "after the end of the game: unexpected `gg`",
        ),
    ];
    for (map, rest, message) in cases {
        let answer = answer_for(map);
        let played = play(referee(), script(rest), map, &answer);
        assert_eq!(played.interactor_code, Some(43), "{rest}: {played:?}");
        assert!(played.judgemessage.contains(message), "{rest}: {played:?}");
    }
    // The winning move, then quiet: accepted.
    let played = play(
        referee(),
        script("print(5, 5, flush=True)\ninput()"),
        SAMPLE,
        "2\n",
    );
    assert_eq!(played.interactor_code, Some(42), "{played:?}");
}

/// The `.ans` for a map, from the answers program's library.
fn answer_for(map: &str) -> String {
    use caos3_interactive_tools::game::{Position, Rules};
    let board = caos3_interactive_tools::parse(map).unwrap();
    let rules = Rules::new(&board);
    format!("{}\n", Position::start(&rules).value(&rules))
}

#[test]
fn a_wrong_answer_file_is_a_judge_error() {
    let played = play(referee(), bin("caos3-interactive"), SAMPLE, "3\n");
    assert_eq!(played.interactor_code, Some(1), "{played:?}");
}

/// Plays `solution` on the trap test with the referee's stderr in a file.
fn referee_stderr(playing: bool, solution: Command) -> String {
    let dir = TempDir::new("caos3-play");
    let log = dir.path().join("stderr");
    let mut command = referee();
    command.stderr(std::fs::File::create(&log).unwrap());
    if playing {
        command.env("JUDGE_PLAY", "1");
    } else {
        command.env_remove("JUDGE_PLAY");
    }
    let test = format!("{PACKAGE}/data/secret/1-small/05-trap-odd");
    let input = std::fs::read_to_string(format!("{test}.in")).unwrap();
    let answer = std::fs::read_to_string(format!("{test}.ans")).unwrap();
    play(command, solution, &input, &answer);
    std::fs::read_to_string(log).unwrap()
}

#[test]
fn play_mode_draws_the_map_and_explains_the_end() {
    let shown = referee_stderr(true, bin("caos3-interactive-odd"));
    for part in [
        "  M",
        "monsters left:",
        "referee: ",
        "game over: the referee made the last move; you lost",
        "would have kept your win",
        "an optimal line (you first): (",
    ] {
        assert!(shown.contains(part), "missing {part:?} in\n{shown}");
    }
    let shown = referee_stderr(true, bin("caos3-interactive"));
    assert!(
        shown.contains("game over: you made the last move and won"),
        "{shown}"
    );
    assert_eq!(referee_stderr(false, bin("caos3-interactive")), "");
}
