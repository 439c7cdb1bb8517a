//! What `judge test` shows a learner: the first failed test's difference
//! in full and one line for each other, and, where the problem allows it,
//! a small input the program fails on.

use predicates::prelude::*;

use crate::support::*;

#[test]
fn only_the_first_failure_shows_its_diff_unless_asked() {
    let file = fixtures().join("submissions/sum/WA/off_by_one.rs");
    let diffs = |extra: &[&str]| {
        let output = judge_fixtures()
            .args(["test", "sum"])
            .arg(&file)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        (stdout.matches("--- expected").count(), stdout)
    };
    let (shown, stdout) = diffs(&[]);
    assert_eq!(shown, 1, "{stdout}");
    assert!(stdout.contains("4 more failed tests"), "{stdout}");
    // Every failed test still has its line.
    assert_eq!(stdout.matches("\n  WA  ").count(), 5, "{stdout}");
    let (shown, stdout) = diffs(&["--diffs", "all"]);
    assert_eq!(shown, 5, "{stdout}");
    assert!(!stdout.contains("more failed tests"), "{stdout}");
}

#[test]
fn a_practice_problem_offers_a_small_failing_input() {
    let greedy = workspace_root().join("solutions/a-game/src/bin/greedy.rs");
    judge_at(workspace_root())
        .args(["test", "a-game"])
        .arg(&greedy)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains(
                "smallest failing input (5 tokens, 2 lines; the generated one had",
            )
            .and(predicate::str::contains(
                "judge stress a-game greedy.rs --seed 1",
            )),
        );
    judge_at(workspace_root())
        .args(["test", "a-game", "--no-counterexample"])
        .arg(&greedy)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("smallest failing input").not());
}

#[test]
fn a_contest_problem_keeps_its_tests_to_itself() {
    // grid-game has [stress] templates but no offer-counterexample.
    let greedy = workspace_root().join("solutions/grid-game/src/bin/greedy.rs");
    judge_at(workspace_root())
        .args(["test", "grid-game"])
        .arg(&greedy)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("looking for").not());
}
