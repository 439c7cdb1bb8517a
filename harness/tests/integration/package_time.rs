//! A package's time limit as a setter meets it: a stated limit that breaks
//! the package's own rule is reported, and every submission is still
//! judged under it.

use crate::ecosystem::root_with;
use crate::support::*;

#[test]
fn a_stated_limit_below_the_packages_rule_is_reported_and_every_submission_judged() {
    if !have(&["python3"]) {
        return;
    }
    // `.timelimit` says 1 s; the accepted submission needs 0.4 s, which
    // × time_multiplier 5 asks for 2 s.
    let root = root_with("tightlimit");
    let (code, stdout) = judge_output(root.path(), ["verify", "tightlimit"]);
    assert_eq!(code, Some(1), "a package finding fails verify: {stdout}");
    assert!(
        stdout.contains("time limit 1 s from .timelimit, as the package states it"),
        "{stdout}"
    );
    assert!(
        stdout.contains("package: time limit: the time limit 1 s is below the slowest run that must not time out: accepted/patient.py"),
        "{stdout}"
    );
    // Judged all the same, each as its folder says, under the stated 1 s.
    for (name, verdict) in [
        ("accepted/patient.py", "AC"),
        ("time_limit_exceeded/forever.py", "TLE"),
        ("wrong_answer/square.py", "WA"),
    ] {
        let row = stdout
            .lines()
            .find(|line| line.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name} in:\n{stdout}"));
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[1..3], [verdict, verdict], "{row}");
        assert!(row.contains(" ok"), "{row}");
    }
    assert!(
        stdout.contains(
            "verify: 1 problem, 3 solutions: 3 as expected, 0 unexpected; 1 package with problems"
        ),
        "{stdout}"
    );
}

#[test]
fn verify_fresh_says_what_it_will_do_and_counts_every_test_when_done() {
    if !have(&["python3"]) {
        return;
    }
    let root = root_with("tightlimit");
    let output = judge_at(root.path())
        .args(["verify", "--fresh", "tightlimit"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    let said = |start: &str| lines.iter().position(|line| line.contains(start));
    let before = said("--fresh: every test runs, no stored result stands in");
    // The accepted submission settles the limit on its 3 tests; the other
    // two stop at a failing test (how many ran by then depends on the
    // workers).
    let after = said(" tests run (3 of them to settle time limits), 0 results reused");
    assert!(
        before.is_some() && after.is_some() && before < after,
        "{stderr}"
    );
}

/// BAPCtools' NWERC test problem expects the time limit to bound the sum
/// of a multi-pass test's passes; the specification limits each pass on
/// its own. The judge keeps the specification's rule, and the verify line
/// says so, with each pass's time, instead of a bare UNEXPECTED.
#[test]
fn a_multi_pass_run_under_the_limit_in_each_pass_says_why_it_was_accepted() {
    if !have(&["python3"]) {
        return;
    }
    let root = root_with("twopass");
    let (code, stdout) = judge_output(root.path(), ["verify", "twopass"]);
    assert_eq!(code, Some(1), "{stdout}");
    let row = stdout
        .lines()
        .position(|line| {
            line.trim_start()
                .starts_with("time_limit_exceeded/slow_each_pass.py")
        })
        .unwrap_or_else(|| panic!("no row in:\n{stdout}"));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[row].contains("TLE       AC"), "{stdout}");
    let why = lines[row + 2];
    assert!(
        why.contains("multi-pass: the time limit (1.00 s) applies to each pass on its own (\"the time and memory limit apply for each invocation separately\", 2025-09); slowest test "),
        "{stdout}"
    );
    assert!(
        why.contains(": passes ") && why.contains(" + ") && why.contains(" together"),
        "{why}"
    );
}
