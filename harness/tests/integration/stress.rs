//! `judge stress` on the real problem set: for each seed game, a wrong
//! solution of the package is caught on a small input. Each found input is
//! then checked without the judge, with the package's own binaries: the
//! validator accepts it, the reference gets its answer, the wrong solution
//! does not. Seeds make every run find the same input.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::*;

/// A binary the judge built (profile `judge`) in the workspace's target folder.
fn built(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"));
    let path = target.join("judge").join(name);
    assert!(path.is_file(), "{} was not built", path.display());
    path
}

/// Runs `program args < stdin`: exit code and stdout.
fn run(program: &Path, args: &[&Path], stdin: &Path) -> (Option<i32>, String) {
    let mut command = Command::new(program);
    command.args(args);
    let output = bounded(command)
        .pipe_stdin(stdin)
        .unwrap()
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn tokens(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_lowercase).collect()
}

/// The counterexample `judge stress ID WRONG --seed SEED --out DIR` saves:
/// its input and answer. Asserts the judge reports the failure.
fn counterexample(id: &str, wrong: &str, seed: &str, dir: &Path) -> (PathBuf, PathBuf, String) {
    let output = judge_at(workspace_root())
        .args(["stress", id, wrong, "--seed", seed, "--time", "120s"])
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("smallest failing input"), "{stdout}");
    assert!(!stdout.contains("stopped early"), "{stdout}");
    let mut saved: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    saved.sort();
    let [answer, input] = &saved[..] else {
        panic!(
            "expected one .in and one .ans in {}: {saved:?}",
            dir.display()
        );
    };
    assert_eq!(input.extension().unwrap(), "in");
    assert_eq!(answer.extension().unwrap(), "ans");
    (input.clone(), answer.clone(), stdout)
}

/// The package's validator accepts `input`; on it the reference prints the
/// answer and `wrong` does not (tokens, case-insensitive, as the problems
/// compare).
fn check_tokens(id: &str, wrong: &str, input: &Path, answer: &Path) {
    let (code, _) = run(&built(&format!("{id}-validator")), &[], input);
    assert_eq!(code, Some(42), "the validator rejects {}", input.display());
    let expected = tokens(&std::fs::read_to_string(answer).unwrap());
    let (code, reference) = run(&built(id), &[], input);
    assert_eq!((code, tokens(&reference)), (Some(0), expected.clone()));
    let (_, got) = run(&built(wrong), &[], input);
    assert_ne!(tokens(&got), expected, "{wrong} is right on it");
}

fn numbers(text: &str) -> Vec<i64> {
    text.split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect()
}

#[test]
fn a_game_greedy_loses_on_a_board_of_four_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer, stdout) = counterexample("a-game", "a-game-greedy", "1", dir.path());
    check_tokens("a-game", "a-game-greedy", &input, &answer);
    let values = numbers(&std::fs::read_to_string(&input).unwrap());
    // N, then N numbers: greedy is optimal on boards of 2 and 3 numbers.
    assert_eq!(values[0] as usize, values.len() - 1);
    assert_eq!(values[0], 4, "{stdout}");
    assert!(stdout.contains("expected (a-game)") && stdout.contains("got (a-game-greedy)"));
    assert!(stdout.contains("--seed 1"), "{stdout}");
}

#[test]
fn grid_game_greedy_fails_on_one_two_by_two_board() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer, _) = counterexample("grid-game", "grid-game-greedy", "1", dir.path());
    check_tokens("grid-game", "grid-game-greedy", &input, &answer);
    let values = numbers(&std::fs::read_to_string(&input).unwrap());
    // T = 1, n = 2, four values; no 1x1 board can fool a greedy.
    assert_eq!(&values[..2], [1, 2]);
    assert_eq!(values.len(), 6);
    assert!(values[2..].iter().all(|v| v.abs() <= 2), "{values:?}");
}

#[test]
fn caos3_odd_fails_on_one_small_map() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer, _) = counterexample("caos3", "caos3-odd", "1", dir.path());
    check_tokens("caos3", "caos3-odd", &input, &answer);
    let text = std::fs::read_to_string(&input).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dims = numbers(lines[1]);
    assert_eq!(lines[0], "1", "one map: {text}");
    assert!(dims[0] * dims[1] <= 30, "a map of at most 30 cells: {text}");
}

#[test]
fn stone_game_vi_greedy_fails_on_two_stones() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = "stone-game-vi-greedy-own";
    let (input, answer, _) = counterexample("stone-game-vi", wrong, "1", dir.path());
    check_tokens("stone-game-vi", wrong, &input, &answer);
    let values = numbers(&std::fs::read_to_string(&input).unwrap());
    assert_eq!(values[0], 2, "{values:?}");
    assert!(values[1..].iter().all(|&v| v <= 3), "{values:?}");
}

#[test]
fn spies_greedy_fails_on_the_smallest_board() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = "spies-any-n-greedy";
    let (input, answer, stdout) = counterexample("spies-any-n", wrong, "1", dir.path());
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "4\n", "{stdout}");
    let (code, _) = run(&built("spies-any-n-validator"), &[], &input);
    assert_eq!(code, Some(42));
    // A checker problem: the checker accepts the reference, rejects the greedy.
    let checker = built("spies-any-n-checker");
    for (solution, verdict) in [("spies-any-n", 42), (wrong, 43)] {
        let (_, output) = run(&built(solution), &[], &input);
        let output_file = dir.path().join(format!("{solution}.out"));
        std::fs::write(&output_file, output).unwrap();
        let feedback = tempfile::tempdir().unwrap();
        let (code, _) = run(&checker, &[&input, &answer, feedback.path()], &output_file);
        assert_eq!(code, Some(verdict), "{solution}");
    }
}

#[test]
fn an_interactive_greedy_loses_a_game_of_four_numbers() {
    let output = judge_at(workspace_root())
        .args(["stress", "a-game-interactive", "a-game-interactive-greedy"])
        .args(["--seed", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    // The referee played it: the transcript of the lost game is shown.
    assert!(stdout.contains("the end of the game"), "{stdout}");
    let after = stdout.split("smallest failing input").nth(1).unwrap();
    let board: Vec<&str> = after.lines().skip(1).take(2).collect();
    assert_eq!(board[0].trim(), "4", "{stdout}");
    assert_eq!(board[1].split_whitespace().count(), 4, "{stdout}");
}

#[test]
fn the_same_seed_finds_the_same_input() {
    let run = || {
        let output = judge_at(workspace_root())
            .args(["stress", "a-game", "a-game-parity", "--seed", "7"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        // Times differ from run to run; everything above them does not.
        stdout.split("expected (").next().unwrap().to_string()
    };
    let first = run();
    assert!(first.contains("smallest failing input"), "{first}");
    assert_eq!(first, run());
}

#[test]
fn the_reference_against_itself_finds_nothing() {
    judge_at(workspace_root())
        .args([
            "stress",
            "grid-game",
            "grid-game",
            "--seed",
            "1",
            "--cases",
            "5",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("AC on 5 inputs"));
}

#[test]
fn templates_need_a_seed_and_a_generator() {
    judge_at(workspace_root())
        .args([
            "stress",
            "a-game",
            "a-game-greedy",
            "--gen",
            "random 6 20 line 3",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("{seed}"));
    judge_at(workspace_root())
        .args(["stress", "spies-revised", "spies-revised-float"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no [generator]"));
    judge_at(workspace_root())
        .args(["stress", "a-game", "no-such-solution"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("nor a solution"));
}

#[test]
fn ctrl_c_shows_the_best_input_so_far() {
    // The exhaustive search times out on large boards: every candidate it
    // still fails on costs a second, so shrinking takes long.
    let said = tempfile::NamedTempFile::new().unwrap();
    let mut judge = Background::start(
        Command::new(judge_binary())
            .arg("--root")
            .arg(workspace_root())
            .args([
                "stress",
                "a-game-large",
                "a-game-large-minimax",
                "--seed",
                "3",
            ])
            .args(["--gen", "random 40 1000 line {seed}"])
            .stdout(said.reopen().unwrap()),
    );
    std::thread::sleep(std::time::Duration::from_secs(8));
    judge.signal(libc::SIGINT);
    let status = judge.wait_within(CLI_TIMEOUT);
    let stdout = std::fs::read_to_string(said.path()).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("stopped early: the best so far")
            || stdout.contains("interrupted): no failing input found"),
        "{stdout}"
    );
}

#[test]
fn out_without_a_folder_adds_the_counterexample_to_the_package() {
    let root = scratch_root_with_submissions("sum");
    let output = judge_at(root.path())
        .args(["stress", "sum"])
        .arg(root.path().join("submissions/sum/WA/off_by_one.rs"))
        .args(["--gen", "3 {seed}", "--seed", "1", "--out"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let secret = root.path().join("problems/sum/data/secret");
    let added: Vec<String> = std::fs::read_dir(&secret)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("stress-"))
        .collect();
    assert_eq!(added.len(), 2, "{added:?}\n{stdout}");
    let input = added.iter().find(|n| n.ends_with(".in")).unwrap();
    assert_eq!(
        std::fs::read_to_string(secret.join(input)).unwrap(),
        "1\n0 0\n"
    );
    assert!(stdout.contains("saved as"), "{stdout}");
}
