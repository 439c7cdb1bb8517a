//! Interactive problems: the submission talks to the package's interactor
//! through the judge; verdicts follow who stopped first. A testlib
//! interactor's output file is then judged by the problem's checker.

use predicates::prelude::*;

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
    if !have(&["rustc"]) {
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
    if !have(&["rustc"]) {
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
    if !have(&["rustc"]) {
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
    if !have(&["rustc"]) {
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

/// `guess-testlib`: a testlib interactor (`interactor input output_file
/// answer`), then a testlib checker on the output file it wrote.
#[test]
fn every_testlib_interactive_submission_gets_its_folder_verdict() {
    if !have(&["g++"]) {
        return;
    }
    // AC; WA from the interactor (exit 1) and from the checker on the
    // interactor's output file; RE (a crash the interactor then reads as a
    // PE); TLE (silent).
    judge_fixtures()
        .args(["verify", "guess-testlib", "--fresh"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "5 solutions: 5 as expected, 0 unexpected",
        ));
}

#[test]
fn each_testlib_verdict_says_who_gave_it() {
    if !have(&["g++"]) {
        return;
    }
    let json = grade(
        "guess-testlib",
        &[
            "guess-testlib/AC/binary_search.cpp",
            "guess-testlib/WA/guess_once.cpp",
            "guess-testlib/WA/asks_twice.cpp",
            "guess-testlib/RE/crash_mid_game.cpp",
            "guess-testlib/TLE/silent.cpp",
        ],
    );
    // sample/1: the number is 7 of 10, the budget 4 questions.
    let first = |i: usize| json["submissions"][i]["tests"][0].clone();
    let expected = [
        ("AC", "ok asked 3 of 4 questions"),
        ("WA", "answered 1; the number was 7"),
        ("WA", "asked 6 questions; the budget is 4"),
        ("RE", "killed by signal"),
        ("TLE", "wall-clock"),
    ];
    for (i, (verdict, detail)) in expected.into_iter().enumerate() {
        let test = first(i);
        assert_eq!(test["test"], "sample/1", "{json:#}");
        assert_eq!(test["verdict"], verdict, "{test:#}");
        assert!(
            test["detail"].as_str().unwrap().contains(detail),
            "{test:#}"
        );
    }
}

#[test]
fn a_failing_testlib_interactor_is_a_judge_error() {
    if !have(&["g++"]) {
        return;
    }
    let root = scratch_root_with("guess-testlib");
    let data = root.path().join("problems/guess-testlib/data/secret");
    // The secret lies outside 1..n: the interactor fails (exit 3).
    std::fs::write(data.join("05-bad.in"), "10 0\n").unwrap();
    std::fs::write(data.join("05-bad.ans"), "4\n").unwrap();
    let report = tempfile::NamedTempFile::new().unwrap();
    judge_at(root.path())
        .args(["grade", "guess-testlib"])
        .arg(fixtures().join("submissions/guess-testlib/AC/binary_search.cpp"))
        .arg("--json")
        .arg(report.path())
        .assert()
        .code(1);
    let json = read_json(report.path());
    let tests = json["submissions"][0]["tests"].as_array().unwrap();
    let bad = tests.iter().find(|t| t["test"] == "secret/05-bad").unwrap();
    assert_eq!(bad["verdict"], "JE", "{json:#}");
    assert!(
        bad["detail"]
            .as_str()
            .unwrap()
            .contains("interactor failed: FAIL secret = 0"),
        "{bad:#}"
    );
    assert!(
        tests
            .iter()
            .filter(|t| t["test"] != "secret/05-bad")
            .all(|t| t["verdict"] == "AC"),
        "{json:#}"
    );
}

#[test]
fn without_a_checker_the_interactors_output_file_is_compared_by_tokens() {
    if !have(&["g++"]) {
        return;
    }
    let root = scratch_root_with("guess-testlib");
    let toml = root.path().join("problems/guess-testlib/problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let start = text.find("[compare]").unwrap();
    let end = text.find("[[solution]]").unwrap();
    std::fs::write(&toml, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let report = tempfile::NamedTempFile::new().unwrap();
    judge_at(root.path())
        .args(["test", "guess-testlib"])
        .arg(fixtures().join("submissions/guess-testlib/AC/binary_search.cpp"))
        .arg("--json")
        .arg(report.path())
        .assert()
        .code(1);
    // The output file says 3 questions; the answer file holds the budget, 4.
    let json = read_json(report.path());
    let test = &json["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "WA", "{json:#}");
}

#[test]
fn testlib_interactor_keys_are_checked_with_their_line() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("problems/p");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        // A Kattis interactor judges alone.
        (
            "id = \"p\"\n[interactor]\nfile = \"i.cpp\"\n[compare]\nmode = \"exact\"\n",
            "problem.toml:5: key `compare.mode`",
            "interactor.protocol = \"testlib\"",
        ),
        // A checker needs mode = "checker", interactive or not.
        (
            "id = \"p\"\n[interactor]\nfile = \"i.cpp\"\nprotocol = \"testlib\"\n[checker]\nfile = \"c.cpp\"\n",
            "problem.toml:5: key `checker`",
            "compare.mode = \"checker\"",
        ),
        (
            "id = \"p\"\n[interactor]\nfile = \"i.cpp\"\nprotocol = \"testlib\"\n[compare]\nmode = \"checker\"\n",
            "problem.toml:6: key `compare.mode`",
            "needs a [checker]",
        ),
        (
            "id = \"p\"\n[answers]\nfile = \"a.cpp\"\nprotocol = \"testlib\"\n",
            "problem.toml:2: key `answers.protocol`",
            "checkers, validators and interactors only",
        ),
    ];
    for (toml, place, message) in cases {
        std::fs::write(dir.join("problem.toml"), toml).unwrap();
        judge_at(root.path())
            .arg("list")
            .assert()
            .code(3)
            .stderr(predicates::str::contains(place).and(predicates::str::contains(message)));
    }
    // The smallest testlib interactive package is read.
    std::fs::write(
        dir.join("problem.toml"),
        "id = \"p\"\n[interactor]\nfile = \"i.cpp\"\nprotocol = \"testlib\"\n[compare]\nmode = \"checker\"\n[checker]\nfile = \"c.cpp\"\nprotocol = \"testlib\"\n",
    )
    .unwrap();
    judge_at(root.path()).arg("list").assert().success();
}

#[test]
fn a_person_plays_against_a_testlib_interactor_then_its_checker() {
    if !have(&["g++"]) {
        return;
    }
    // sample/1: the number is 7 of 10, the budget 4 questions. The
    // interactor accepts the game, then the checker judges its output file.
    judge_fixtures()
        .args(["play", "guess-testlib"])
        .write_stdin("? 5\n? 8\n? 7\n! 7\n")
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "You win (AC). ok asked 3 of 4 questions",
        ));
    // The interactor rejects a wrong answer (exit 1).
    judge_fixtures()
        .args(["play", "guess-testlib"])
        .write_stdin("! 3\n")
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "The referee wins (WA). wrong answer answered 3; the number was 7",
        ));
    // Found, so the interactor accepts, but over budget: the checker rejects.
    judge_fixtures()
        .args(["play", "guess-testlib"])
        .write_stdin("? 1\n? 2\n? 3\n? 4\n? 5\n! 7\n")
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "The referee wins (WA). wrong answer asked 5 questions; the budget is 4",
        ));
    // Not a move at all: a presentation error from the interactor.
    judge_fixtures()
        .args(["play", "guess-testlib", "--test", "secret/04"])
        .write_stdin("x\n")
        .assert()
        .code(1)
        .stdout(predicates::str::contains("The referee wins (PE)."));
}

/// A referee that thinks for two seconds of CPU before each reply. While it
/// thinks the submission can only wait: that time is the referee's, not the
/// submission's, and the wall backstop (1.25 s for a 0.25 s limit) gives it
/// back as it gives back a busy machine's delays. A submission that stops
/// answering is still stopped by the backstop.
#[test]
fn a_slow_referee_is_not_charged_to_the_submission() {
    if !have(&["python3"]) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("problems/slow-referee");
    std::fs::create_dir_all(dir.join("data/secret")).unwrap();
    std::fs::write(dir.join("data/secret/1.in"), "2\n").unwrap();
    std::fs::write(dir.join("data/secret/1.ans"), "\n").unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        "id = \"slow-referee\"\n[limits]\ntime = \"250ms\"\n[interactor]\nfile = \"referee.py\"\n",
    )
    .unwrap();
    // Kattis protocol: `referee input answer feedback_dir`, exit 42 accepts.
    std::fs::write(
        dir.join("referee.py"),
        r#"import sys, time
rounds = int(open(sys.argv[1]).read())
for r in range(rounds):
    start = time.process_time()
    while time.process_time() - start < 1.0:
        pass
    print(r, flush=True)
    if sys.stdin.readline().strip() != str(r):
        sys.exit(43)
sys.exit(42)
"#,
    )
    .unwrap();
    let echo = root.path().join("echo.py");
    std::fs::write(
        &echo,
        "import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n",
    )
    .unwrap();
    let silent = root.path().join("silent.py");
    std::fs::write(&silent, "import time\ninput()\ntime.sleep(60)\n").unwrap();
    for (file, verdict) in [(&echo, "AC"), (&silent, "TLE")] {
        let report = root.path().join("report.json");
        judge_at(root.path())
            .args(["grade", "slow-referee"])
            .arg(file)
            .arg("--json")
            .arg(&report)
            .assert()
            .code(predicates::ord::le(1));
        let report = read_json(&report);
        assert_eq!(
            report["submissions"][0]["verdict"],
            verdict,
            "{}: {report:#}",
            file.display()
        );
    }
}

/// DOMjudge's `boolfind-test-loop.cc`, as the fixture `asker`'s
/// `never_listens.py`: a submission that keeps asking and never reads an
/// answer fills the pipes until both sides wait to write. The interactor
/// waits on the submission, so the wall clock is the submission's: TLE,
/// as DOMjudge and Kattis judge it (it was JE, the interactor stopped at
/// its own backstop).
#[test]
fn a_submission_that_keeps_asking_runs_out_of_time() {
    if !have(&["python3"]) {
        return;
    }
    let root = crate::ecosystem::root_with("asker");
    let (code, stdout) = judge_output(root.path(), ["verify", "asker"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("3 solutions: 3 as expected, 0 unexpected"),
        "{stdout}"
    );
}

/// The same package with a referee that takes the first question and
/// then sleeps, neither reading nor answering while the submission waits
/// on it: the wall clock runs out on the referee, a judge error, not the
/// submission's TLE.
#[test]
fn a_referee_that_stops_reading_and_answering_is_a_judge_error() {
    if !have(&["python3"]) {
        return;
    }
    let root = crate::ecosystem::root_with("asker");
    let package = root.path().join("problems/asker");
    std::fs::write(
        package.join("output_validators/asker_referee/referee.py"),
        "import sys, time\nsys.stdin.readline()\ntime.sleep(600)\n",
    )
    .unwrap();
    std::fs::write(package.join(".timelimit"), "1\n").unwrap();
    // The stalled referee is stopped with the submission (not left to its
    // own backstop of a minute), so this takes seconds.
    let report = root.path().join("report.json");
    judge_at(root.path())
        .args(["test", "asker"])
        .arg(package.join("submissions/accepted/halving.py"))
        .arg("--json")
        .arg(&report)
        .assert()
        .failure();
    let report = read_json(&report);
    let tests = report["submissions"][0]["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4, "{report:#}");
    for test in tests {
        assert_eq!(test["verdict"], "JE", "{report:#}");
        let detail = test["detail"].as_str().unwrap();
        assert!(
            detail.contains("neither read nor answered while the submission waited on it"),
            "{detail}"
        );
    }
}
