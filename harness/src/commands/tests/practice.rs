//! `judge test` and `judge grade` of files: a Kattis package's time limit
//! settled from its own submissions' run times, then taken from the store.

use std::time::Duration;

use super::{Bench, assert_shows, double_script, kattis_double};
use crate::cli::{Diffs, LearnerArgs, ReportArgs};
use crate::commands::fake::Answer;
use crate::commands::practice;
use crate::exit_codes;

/// `twice.py` takes 300 ms on test 2; everything else as in `double`.
fn slow_on_two(program: &str, input: &str) -> Answer {
    match input {
        "2" if program == "twice.py" => Answer::prints("4\n").after(Duration::from_millis(300)),
        _ => double_script(program, input),
    }
}

const LEARNER: LearnerArgs = LearnerArgs {
    diffs: Diffs::First,
    no_counterexample: true,
};

const SETTLED: &str = "kdouble: time limit 2 s: slowest run that must not time out, accepted/twice.py 0.3 s × 5 = 1.5 s, rounded up to a multiple of 1 s";

#[test]
fn a_kattis_time_limit_is_settled_from_run_times_once() {
    let mut bench = Bench::new(kattis_double, slow_on_two);
    let (mine, same) = (bench.file("mine.py"), bench.file("same.py"));
    let none = ReportArgs::default();
    let test = |bench: &mut Bench| {
        practice::test(&mut bench.ctx, "kdouble", &mine, false, &none, &LEARNER).unwrap()
    };

    assert_eq!(test(&mut bench), exit_codes::OK);
    let first = bench.text();
    assert!(first.starts_with(SETTLED), "{first}");
    assert_shows(&first, "Double (2.00 s CPU");
    let settling = bench.boxes.runs_of("twice.py");
    assert_eq!(settling, 2, "the accepted one settles, on every test");
    assert_eq!(bench.boxes.runs_of("mine.py"), 2);

    assert_eq!(test(&mut bench), exit_codes::OK);
    let second = bench.text()[first.len()..].to_string();
    assert!(second.starts_with(SETTLED), "{second}");
    assert_shows(&second, "(settled before, from the result store)\n");
    assert_shows(&second, "Double (2.00 s CPU");
    assert_eq!(bench.boxes.runs_of("twice.py"), settling, "settled again");
    assert_eq!(bench.boxes.runs(), 6);

    // `grade` takes it from the store too.
    let files = [mine.clone(), same];
    let code = practice::grade(&mut bench.ctx, "kdouble", &files, false, &none).unwrap();
    assert_eq!(code, exit_codes::FAILED);
    let third = bench.text()[first.len() + second.len()..].to_string();
    assert_shows(&third, "(settled before, from the result store)");
    assert_shows(&third, "graded 2 submissions: 1 AC, 1 WA");
    assert_eq!(bench.boxes.runs(), 6 + 4, "only the graded files ran");
}

#[test]
fn a_stated_kattis_time_limit_needs_no_settling_runs_to_judge() {
    let mut bench = Bench::new(
        |root| {
            kattis_double(root);
            super::write(root, "problems/kdouble/.timelimit", "3\n");
        },
        slow_on_two,
    );
    let mine = bench.file("mine.py");
    let none = ReportArgs::default();
    let code = practice::test(&mut bench.ctx, "kdouble", &mine, false, &none, &LEARNER).unwrap();
    assert_eq!(code, exit_codes::OK);
    let text = bench.text();
    assert!(
        text.starts_with("kdouble: time limit 3 s from .timelimit (checked against the package's own submissions by `judge verify`)\n"),
        "{text}"
    );
    assert_shows(&text, "Double (3.00 s CPU");
    assert_eq!(bench.boxes.runs_of("twice.py"), 0, "nothing settles");
    assert_eq!(bench.boxes.runs(), 2, "only the file ran");
}
