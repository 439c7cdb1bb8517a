//! `judge verify --calibrate` (the time limit the Kattis rule gives from
//! measured CPU times) and `judge verify --matrix` (which secret test
//! rejects which wrong solution).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{Bench, assert_shows, double, double_script, row};
use crate::cli::ReportArgs;
use crate::commands::calibrate::calibrate;
use crate::commands::fake::Answer;
use crate::commands::matrix::matrix;
use crate::exit_codes;

/// `double`, with `twice.py` taking `ms[k]` of CPU on test 3 in its
/// `k`-th run there (cycling), 50 ms elsewhere.
fn timed(ms: &'static [u64]) -> impl Fn(&str, &str) -> Answer + Send + Sync {
    let on_three = AtomicUsize::new(0);
    move |program, input| {
        if program != "twice.py" {
            return double_script(program, input);
        }
        let cpu = if input == "3" {
            ms[on_three.fetch_add(1, Ordering::SeqCst) % ms.len()]
        } else {
            50
        };
        double_script(program, input).after(Duration::from_millis(cpu))
    }
}

#[test]
fn calibrate_takes_the_median_and_applies_the_kattis_rule() {
    // An outlier of 900 ms among three runs: the median, 300 ms, counts.
    let mut bench = Bench::new(double, timed(&[300, 900, 200]));
    let reports = bench.json();
    let code = calibrate(&mut bench.ctx, &[], 3, &reports).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert!(
        text.starts_with(
            "double — Double: limit 1.000 s in problem.toml; Kattis 2025-09 rule: 1.000 s (the same)"
        ),
        "{text}"
    );
    let twice = "twice.py AC 300 ms secret/3 ≥ 0.600 s (× 2)";
    assert_eq!(row(&text, "twice.py").join(" "), twice);
    // Capped at 3 × the limit, so "at least" the cap.
    assert_eq!(row(&text, "slow.py")[..5].join(" "), "slow.py TLE ≥ 3.00 s");
    assert_shows(&text, "the limit keeps both margins");
    // Every test three times; the TLE one stops at its first test.
    assert_eq!(bench.boxes.runs_of("twice.py"), 9);
    assert_eq!(bench.boxes.runs_of("slow.py"), 3);

    let report = bench.report();
    let calibration = &report["calibration"][0];
    assert_eq!(calibration["kattis_2025_09_limit_ms"], 1000);
    assert_eq!(calibration["upper_bound_ms"], 2000);
    assert_eq!(calibration["solutions"][0]["cpu_ms"], 300);
    assert_eq!(calibration["solutions"][1]["at_least"], true);
}

#[test]
fn calibrate_warns_of_a_timing_sensitive_limit() {
    // 600 ms × 2 is over the 1 s limit.
    let mut bench = Bench::new(double, timed(&[600]));
    let code = calibrate(&mut bench.ctx, &[], 1, &ReportArgs::default()).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(&text, "Kattis 2025-09 rule: 2.000 s\n");
    assert_shows(
        &text,
        "timing-sensitive: twice.py needs 0.600 s on secret/3; × 2 = 1.200 s is over the limit 1.000 s",
    );
}

/// `double`, with `same.py` wrong on test 3 only and `slow.py` out of
/// time on test 3 only.
fn wrong_on_three(program: &str, input: &str) -> Answer {
    if input == "3" || program == "twice.py" {
        double_script(program, input)
    } else {
        double_script("twice.py", input)
    }
}

#[test]
fn the_matrix_shows_who_rejects_whom() {
    let mut bench = Bench::new(double, wrong_on_three);
    let code = matrix(&mut bench.ctx, &[], &ReportArgs::default(), None).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert_shows(
        &text,
        "[1] same.py  first rejected by secret/3 (WA), by 1 of 3  ← caught by one test only",
    );
    assert_eq!(
        row(&text, "secret/1").join(" "),
        "secret/1 . . 0 ← rejects nothing"
    );
    assert_eq!(row(&text, "secret/3").join(" "), "secret/3 WA TLE 2");
    // Every wrong solution on every test; an accepted one is no question.
    assert_eq!(bench.boxes.runs_of("same.py"), 3);
    assert_eq!(bench.boxes.runs_of("twice.py"), 0);
}

#[test]
fn the_matrix_fails_when_no_test_rejects_a_wrong_solution() {
    let mut bench = Bench::new(double, |program, input| match program {
        "same.py" => double_script("twice.py", input),
        _ => wrong_on_three(program, input),
    });
    let code = matrix(&mut bench.ctx, &[], &ReportArgs::default(), None).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(&text, "[1] same.py  no secret test rejects it\n");
}
