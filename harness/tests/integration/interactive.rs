//! Interactive problems: the submission talks to the package's interactor
//! through the judge; verdicts follow who stopped first.

use crate::support::*;

/// Grades `files` on `problem` and returns the JSON report.
fn grade(problem: &str, files: &[&str]) -> serde_json::Value {
    let report = tempfile::NamedTempFile::new().unwrap();
    judge_fixtures()
        .args(["grade", problem])
        .args(files.iter().map(|f| fixtures().join("submissions").join(f)))
        .arg("--json")
        .arg(report.path())
        .assert()
        .code(predicates::ord::le(1));
    read_json(report.path())
}

#[test]
fn every_interactive_submission_gets_its_folder_verdict() {
    if which("rustc").is_none() {
        println!("skipped: no rustc");
        return;
    }
    // AC, WA (wrong answer, garbage, a crash the rejection caused), RE (a
    // crash of its own), TLE (never flushes: both sides wait).
    judge_fixtures()
        .args(["verify", "guess"])
        .assert()
        .success();
}

#[test]
fn a_broken_interactor_is_a_judge_error_not_the_submissions_fault() {
    if which("rustc").is_none() {
        println!("skipped: no rustc");
        return;
    }
    let json = grade("guess-broken", &["guess/AC/binary_search.rs"]);
    let submission = &json["submissions"][0];
    assert_eq!(submission["verdict"], "JE", "{json:#}");
    let detail = submission["tests"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("interactor") && detail.contains("exit code 1"),
        "{detail}"
    );
}

#[test]
fn the_report_shows_the_end_of_the_game() {
    if which("rustc").is_none() {
        println!("skipped: no rustc");
        return;
    }
    let json = grade("guess", &["guess/WA/crash_after_rejection.rs"]);
    let test = &json["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "WA", "{json:#}");
    assert!(
        test["detail"]
            .as_str()
            .unwrap()
            .contains("you sent `? zero`"),
        "{test:#}"
    );
    let transcript = test["transcript"].as_array().unwrap();
    assert_eq!(transcript[0]["from"], "interactor");
    assert_eq!(transcript[0]["text"], "10");
    assert_eq!(transcript[1]["from"], "submission");
    assert_eq!(transcript[1]["text"], "? zero");

    let output = judge_fixtures()
        .args(["test", "guess"])
        .arg(fixtures().join("submissions/guess/WA/guess_once.rs"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("< 10") && text.contains("> ! 1"),
        "the learner sees the conversation:\n{text}"
    );
}

#[test]
fn a_person_plays_against_the_referee() {
    if which("rustc").is_none() {
        println!("skipped: no rustc");
        return;
    }
    // sample/1: the number is 7 of 10.
    judge_fixtures()
        .args(["play", "guess"])
        .write_stdin("? 5\n? 8\n? 7\n! 7\n")
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "You win (AC). found in 3 questions",
        ));
    judge_fixtures()
        .args(["play", "guess", "--test", "secret/04"])
        .write_stdin("! 3\n")
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "The referee wins (WA). message 1: you answered 3; the number was 500",
        ));
    judge_fixtures()
        .args(["play", "sum"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not interactive"));
}
