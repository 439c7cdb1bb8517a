//! Setters' checks of a package: `verify --calibrate` (time limits that
//! hold) and `verify --matrix` (which test rejects which solution).

use predicates::prelude::*;

use crate::support::*;

#[test]
fn calibrate_gives_the_kattis_limit_and_measures_timeouts() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("calibration.json");
    judge_fixtures()
        .args(["verify", "--calibrate", "--repeat", "1", "sum", "--json"])
        .arg(&json)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Kattis 2025-09 rule: 1.000 s (the same)")
                .and(predicate::str::contains("the limit keeps both margins")),
        );
    let report = read_json(&json);
    let sum = &report["calibration"][0];
    assert_eq!(sum["problem"], "sum");
    assert_eq!(sum["limit_ms"], 1000);
    assert_eq!(sum["kattis_2025_09_limit_ms"], 1000, "{sum:#}");
    let solutions = sum["solutions"].as_array().unwrap();
    let busy = solutions
        .iter()
        .find(|s| s["solution"] == "busy_loop.rs")
        .unwrap();
    // Run to three times the limit and stopped there: "at least".
    assert_eq!(busy["expect"], "TLE");
    assert_eq!(busy["at_least"], true, "{busy:#}");
    assert!(busy["cpu_ms"].as_u64().unwrap() >= 3000, "{busy:#}");
    assert!(sum["upper_bound_ms"].as_u64().unwrap() >= 2000, "{sum:#}");
}

#[test]
fn calibrate_warns_where_the_limit_is_timing_sensitive() {
    let root = scratch_root_with("sum");
    let toml = root.path().join("problems/sum/problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    // At 1 ms even the reference needs more than half the limit.
    let submissions = fixtures().join("submissions");
    let text = text
        .replace("time = \"1s\"", "time = \"1ms\"")
        .replace("../../submissions", &submissions.to_string_lossy());
    std::fs::write(&toml, text).unwrap();
    judge_at(root.path())
        .args(["verify", "--calibrate", "--repeat", "1", "sum"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("timing-sensitive: sum.rs needs")
                .and(predicate::str::contains("Kattis 2025-09 rule: 1.000 s\n")),
        );
}

#[test]
fn matrix_says_which_test_rejects_which_solution() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("matrix.json");
    let html = dir.path().join("matrix.html");
    judge_fixtures()
        .args(["verify", "--matrix", "sum", "--json"])
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("2 wrong or slow solutions × 4 secret tests")
                .and(predicate::str::contains("first rejected by secret/01 (WA)"))
                .and(predicate::str::contains(
                    "first rejected by secret/01 (TLE)",
                )),
        );
    let report = read_json(&json);
    let sum = &report["matrix"][0];
    let tests = sum["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4);
    assert!(tests.iter().all(|t| t["kills"] == 2), "{sum:#}");
    assert_eq!(tests[0]["verdicts"]["off_by_one.rs"], "WA");
    assert_eq!(sum["tests_rejecting_nothing"].as_array().unwrap().len(), 0);
    // The runs themselves are in the report too.
    assert_eq!(report["submissions"].as_array().unwrap().len(), 2);
    // The page: self-contained, no script.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h2>sum — Sum of pairs</h2>"), "{page}");
    assert!(page.contains("title=\"off_by_one.rs\">[1]</th>"), "{page}");
    assert!(page.contains("default-src 'none'") && !page.contains("<script"));
}

#[test]
fn calibrate_and_matrix_run_separately() {
    judge_fixtures()
        .args(["verify", "--calibrate", "--matrix", "sum"])
        .assert()
        .code(2);
}
