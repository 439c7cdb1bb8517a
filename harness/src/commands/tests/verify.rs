//! `judge verify`: the table of solutions held to their expectations, its
//! JSON report, and its exit code.

use super::{Bench, assert_shows, double, double_script, row};
use crate::cli::{ReportArgs, StoreArgs};
use crate::commands::verify::verify;
use crate::exit_codes;

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
