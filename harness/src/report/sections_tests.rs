//! Snapshots of every section a verb adds to the JSON report, written
//! through `json::write` as the report file is, so a renamed or retyped
//! field shows up here.

use super::json;
use super::sections::*;

fn document(sections: &Sections) -> String {
    let mut out = Vec::new();
    json::write(&mut out, "verify", "none", &[], sections, false).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn verify_sections() {
    let sections = Sections {
        expectations: Some(vec![
            Expectation::Held(HeldExpectation {
                problem: "sum".into(),
                solution: "off_by_one.rs".into(),
                expected: vec!["WA".into()],
                expected_score: None,
                expected_by: None,
                got: "WA",
                score: None,
                ok: true,
                broken_rules: Vec::new(),
            }),
            Expectation::Held(HeldExpectation {
                problem: "nim".into(),
                solution: "accepted/slow.py".into(),
                expected: vec!["AC".into()],
                expected_score: Some(100.0),
                expected_by: Some("submissions.yaml:3".into()),
                got: "TLE",
                score: Some(40.0),
                ok: false,
                broken_rules: vec![
                    "submissions.yaml:3: permitted [AC], but secret/02 got TLE".into(),
                ],
            }),
            Expectation::Skipped {
                problem: "sum".into(),
                solution: "sum.kt".into(),
                skipped: "skipped: no kotlinc on this machine".into(),
            },
        ]),
        package_errors: Some(vec!["no tests under data/".into()]),
        package_findings: Some(PackageFindings {
            errors: 1,
            warnings: 1,
            findings: vec![
                PackageFinding {
                    problem: "nim".into(),
                    severity: "error",
                    place: None,
                    message: "no tests under data/".into(),
                },
                PackageFinding {
                    problem: "nim".into(),
                    severity: "warning",
                    place: Some("data/extra.in".into()),
                    message: "not made by generators.yaml".into(),
                },
            ],
        }),
        ..Sections::default()
    };
    insta::assert_snapshot!(document(&sections));
}

#[test]
fn calibration_section() {
    let sections = Sections {
        calibration: Some(vec![Calibration {
            problem: "sum".into(),
            repeat: 3,
            limit_ms: 1000,
            kattis_2025_09_limit_ms: None,
            kattis_error: Some("no accepted submission to derive the time limit from".into()),
            upper_bound_ms: Some(800),
            solutions: vec![CalibratedSolution {
                solution: "busy_loop.rs".into(),
                expect: "TLE",
                cpu_ms: 1200,
                test: "secret/01".into(),
                at_least: true,
            }],
            warnings: vec!["busy_loop.rs: TLE expected, got AC".into()],
        }]),
        ..Sections::default()
    };
    insta::assert_snapshot!(document(&sections));
}

#[test]
fn matrix_section() {
    let sections = Sections {
        matrix: Some(vec![Matrix {
            problem: "sum".into(),
            solutions: vec![MatrixSolution {
                solution: "off_by_one.rs".into(),
                first_rejected_by: Some("secret/01".into()),
                rejected_by: vec!["secret/01".into()],
            }],
            tests: vec![
                MatrixTest {
                    test: "secret/01".into(),
                    kills: 1,
                    verdicts: [("off_by_one.rs".to_string(), Some("WA"))].into(),
                },
                MatrixTest {
                    test: "secret/02".into(),
                    kills: 0,
                    verdicts: [("off_by_one.rs".to_string(), None)].into(),
                },
            ],
            tests_rejecting_nothing: vec!["secret/02".into()],
            solutions_caught_once: vec!["off_by_one.rs".into()],
        }]),
        ..Sections::default()
    };
    insta::assert_snapshot!(document(&sections));
}

#[test]
fn class_section() {
    let sections = Sections {
        class: Some(Class {
            run: 7,
            partition: Some("mon".into()),
            students: vec!["ada".into(), "bob".into()],
            submissions: vec![ClassSubmission {
                student: "ada".into(),
                problem: "sum".into(),
                submission: "ada/sum.py".into(),
                language: Some("python".into()),
                verdict: "AC",
            }],
            no_submission: vec![NoSubmission {
                student: "bob".into(),
                problem: "sum".into(),
            }],
            unmatched: vec![UnmatchedFile {
                student: Some("bob".into()),
                path: "bob/notes.txt".into(),
                reason: "no language for .txt".into(),
            }],
        }),
        ..Sections::default()
    };
    insta::assert_snapshot!(document(&sections));
}

#[test]
fn a_verb_without_sections_adds_nothing() {
    let text = document(&Sections::default());
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "command",
            "interrupted",
            "isolation",
            "submissions",
            "version"
        ]
    );
}
