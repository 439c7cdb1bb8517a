//! `judge verify`: the table of solutions held to their expectations, its
//! JSON report, and its exit code.

use super::{context, double, double_script, row};
use crate::cli::{ReportArgs, StoreArgs};
use crate::commands::fake::FakeBox;
use crate::commands::verify::verify;
use crate::exit_codes;

/// The result store beside `problems/`, every test run again.
fn fresh() -> StoreArgs {
    StoreArgs {
        db: None,
        fresh: true,
    }
}

#[test]
fn verify_holds_each_solution_to_its_expectation() {
    let root = tempfile::tempdir().unwrap();
    double(root.path());
    let boxes = FakeBox::new(double_script);
    let (mut ctx, printed) = context(root.path(), &boxes);
    let json = root.path().join("report.json");
    let reports = ReportArgs {
        json: Some(json.clone()),
        junit: None,
    };
    let code = verify(&mut ctx, &[], false, &reports, &fresh()).unwrap();
    let text = printed.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    // solution, expected, got, ..., what became of the expectation.
    assert_eq!(row(&text, "twice.py")[..3], ["twice.py", "AC", "AC"]);
    assert_eq!(row(&text, "same.py")[..3], ["same.py", "WA", "WA"]);
    assert_eq!(row(&text, "slow.py")[..3], ["slow.py", "TLE", "TLE"]);
    assert!(row(&text, "same.py").ends_with(&["ok", "on", "secret/1"]));
    assert!(
        text.contains(
            "verify: 1 problem, 3 solutions: 3 as expected, 0 unexpected; 0 packages with problems"
        ),
        "{text}"
    );
    // Every test of the accepted one, the first of each failing one.
    assert_eq!(boxes.runs_of("twice.py"), 3);
    assert_eq!(boxes.runs_of("same.py"), 1);

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
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
    let root = tempfile::tempdir().unwrap();
    double(root.path());
    // `same.py` is expected to get WA but doubles; `slow.py` is expected
    // to get TLE but answers wrongly in time.
    let boxes = FakeBox::new(|program, input| match program {
        "same.py" => double_script("twice.py", input),
        "slow.py" => double_script("same.py", input),
        _ => double_script(program, input),
    });
    let (mut ctx, printed) = context(root.path(), &boxes);
    let code = verify(&mut ctx, &[], false, &ReportArgs::default(), &fresh()).unwrap();
    let text = printed.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_eq!(row(&text, "twice.py").last(), Some(&"ok"));
    assert_eq!(row(&text, "same.py")[..3], ["same.py", "WA", "AC"]);
    assert!(row(&text, "same.py").contains(&"UNEXPECTED"), "{text}");
    assert_eq!(row(&text, "slow.py")[..3], ["slow.py", "TLE", "WA"]);
    assert!(row(&text, "slow.py").contains(&"UNEXPECTED"), "{text}");
    assert!(text.contains("1 as expected, 2 unexpected"), "{text}");
}
