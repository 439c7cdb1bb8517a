//! `judge verify`: the table of solutions held to their expectations, its
//! JSON report, and its exit code; `judge generate`: the inputs and
//! answers written.

use super::{Bench, assert_shows, double, double_script, double_with, row};
use crate::cli::{ReportArgs, StoreArgs};
use crate::commands::fake::Answer;
use crate::commands::verify::{generate, verify};
use crate::exit_codes;
use crate::sandbox::Termination;
use std::time::Duration;

/// The result store beside `problems/`, every test run again.
const FRESH: StoreArgs = StoreArgs {
    db: None,
    fresh: true,
};

#[test]
fn verify_holds_each_solution_to_its_expectation() {
    let mut bench = Bench::new(double, double_script);
    let reports = bench.json();
    let code = verify(&mut bench.ctx, &[], false, &reports, &FRESH).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    // solution, expected, got, ..., what became of the expectation.
    assert_eq!(row(&text, "twice.py")[..3], ["twice.py", "AC", "AC"]);
    assert_eq!(row(&text, "same.py")[..3], ["same.py", "WA", "WA"]);
    assert_eq!(row(&text, "slow.py")[..3], ["slow.py", "TLE", "TLE"]);
    assert!(row(&text, "same.py").ends_with(&["ok", "on", "secret/1"]));
    assert_shows(
        &text,
        "verify: 1 problem, 3 solutions: 3 as expected, 0 unexpected; 0 packages with problems",
    );
    // Every test of the accepted one, the first of each failing one.
    assert_eq!(bench.boxes.runs_of("twice.py"), 3);
    assert_eq!(bench.boxes.runs_of("same.py"), 1);

    let report = bench.report();
    let held: Vec<(&str, &str, bool)> = report["expectations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["solution"].as_str().unwrap(),
                e["got"].as_str().unwrap(),
                e["ok"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        held,
        [
            ("twice.py", "AC", true),
            ("same.py", "WA", true),
            ("slow.py", "TLE", true)
        ]
    );
}

#[test]
fn verify_fails_when_an_expectation_breaks() {
    // `same.py` is expected to get WA but doubles; `slow.py` is expected
    // to get TLE but answers wrongly in time.
    let mut bench = Bench::new(double, |program, input| match program {
        "same.py" => double_script("twice.py", input),
        "slow.py" => double_script("same.py", input),
        _ => double_script(program, input),
    });
    let code = verify(&mut bench.ctx, &[], false, &ReportArgs::default(), &FRESH).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_eq!(row(&text, "twice.py").last(), Some(&"ok"));
    assert_eq!(row(&text, "same.py")[..3], ["same.py", "WA", "AC"]);
    assert!(row(&text, "same.py").contains(&"UNEXPECTED"), "{text}");
    assert_eq!(row(&text, "slow.py")[..3], ["slow.py", "TLE", "WA"]);
    assert!(row(&text, "slow.py").contains(&"UNEXPECTED"), "{text}");
    assert_shows(&text, "1 as expected, 2 unexpected");
}

/// `double` with a generated test `secret/4-gen` (`gen.py 21`).
fn generated(root: &std::path::Path) {
    let toml = "\n[generator]\nfile = \"gen.py\"\n\
                tests = [{ name = \"secret/4-gen\", args = [\"21\"] }]\n";
    double_with(root, toml, &["gen.py"]);
}

/// The generator prints its argument; the rest as in `double`.
fn generating(program: &str, input: &str) -> Answer {
    match program {
        "gen.py" => Answer::prints(format!("{input}\n")),
        _ => double_script(program, input),
    }
}

#[test]
fn generate_writes_the_inputs_and_the_references_answers() {
    let mut bench = Bench::new(generated, generating);
    let code = generate(&mut bench.ctx, &["double".into()]).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert_eq!(
        text,
        "double: 1 inputs generated, 4 answers written by twice.py\n"
    );
    let data = bench.root.path().join("problems/double/data/secret");
    let read = |name: &str| std::fs::read_to_string(data.join(name)).unwrap();
    assert_eq!(read("4-gen.in"), "21\n");
    assert_eq!(read("4-gen.ans"), "42\n");
    assert_eq!(read("3.ans"), "6\n");
}

#[test]
fn generate_says_which_answer_the_reference_failed_to_write() {
    let mut bench = Bench::new(generated, |program, input| match (program, input) {
        ("twice.py", "2") => Answer {
            termination: Termination::Exited(1),
            ..Answer::prints("")
        },
        _ => generating(program, input),
    });
    let code = generate(&mut bench.ctx, &["double".into()]).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(&text, "twice.py failed on secret/2: ");
    assert_shows(
        &text,
        "double: 1 inputs generated, 3 answers written by twice.py\n",
    );
}

/// `kdouble` with a `.timelimit` of 1 s.
fn kattis_double_stated(root: &std::path::Path) {
    super::kattis_double(root);
    super::write(root, "problems/kdouble/.timelimit", "1\n");
}

#[test]
fn a_stated_limit_that_breaks_the_rule_is_reported_and_every_submission_judged_under_it() {
    // `twice.py` needs 0.3 s on test 1 (× 5 = 1.5 s, above the stated
    // 1 s) and 1.2 s on test 2: under the settling cap (1 s × 2) that
    // passed, under the stated limit it is TLE, so it is judged again.
    let mut bench = Bench::new(kattis_double_stated, |program, input| {
        match (program, input) {
            ("twice.py", "1") => Answer::prints("2\n").after(Duration::from_millis(300)),
            ("twice.py", "2") => Answer::prints("4\n").after(Duration::from_millis(1200)),
            _ => double_script(program, input),
        }
    });
    let code = verify(&mut bench.ctx, &[], false, &ReportArgs::default(), &FRESH).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(
        &text,
        "time limit 1 s from .timelimit, as the package states it",
    );
    assert_shows(
        &text,
        "package: time limit: the time limit 1 s is below the slowest run that must not time out: accepted/twice.py 1.2 s",
    );
    assert_eq!(
        row(&text, "accepted/twice.py")[..3],
        ["accepted/twice.py", "AC", "TLE"]
    );
    assert_eq!(
        row(&text, "wrong_answer/same.py")[..3],
        ["wrong_answer/same.py", "WA", "WA"]
    );
    assert_eq!(
        bench.boxes.runs_of("twice.py"),
        2 + 2,
        "settled, then judged again"
    );
    assert_shows(
        &text,
        "2 solutions: 1 as expected, 1 unexpected; 1 package with problems",
    );
}
