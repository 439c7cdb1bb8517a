//! `judge test` and `judge grade` of files: a Kattis package's time limit
//! settled from its own submissions' run times, then taken from the store.

use std::time::Duration;

use super::{context, double_script, kattis_double};
use crate::cli::{LearnerArgs, ReportArgs};
use crate::commands::fake::{Answer, FakeBox};
use crate::commands::practice;
use crate::exit_codes;

/// `twice.py` takes 300 ms on test 2; everything else as in `double`.
fn slow_on_two(program: &str, input: &str) -> Answer {
    match input {
        "2" if program.ends_with("twice.py") => {
            Answer::prints("4\n").after(Duration::from_millis(300))
        }
        _ => double_script(program, input),
    }
}

fn learner() -> LearnerArgs {
    LearnerArgs {
        diffs: crate::cli::Diffs::First,
        no_counterexample: true,
    }
}

#[test]
fn a_kattis_time_limit_is_settled_from_run_times_once() {
    let root = tempfile::tempdir().unwrap();
    kattis_double(root.path());
    let file = |name: &str| {
        let path = root.path().join(name);
        std::fs::write(&path, "").unwrap();
        path
    };
    let (mine, same) = (file("mine.py"), file("same.py"));
    let boxes = FakeBox::new(slow_on_two);
    let (mut ctx, printed) = context(root.path(), &boxes);
    let test = |ctx: &mut crate::commands::Context| {
        practice::test(
            ctx,
            "kdouble",
            &mine,
            false,
            &ReportArgs::default(),
            &learner(),
        )
        .unwrap()
    };

    assert_eq!(test(&mut ctx), exit_codes::OK);
    let first = printed.text();
    assert!(
        first.starts_with(
            "kdouble: time limit 2 s: slowest accepted run accepted/twice.py 0.3 s × 5 = 1.5 s, \
             rounded up to a multiple of 1 s"
        ),
        "{first}"
    );
    assert!(first.contains("Double (2.00 s CPU"), "{first}");
    assert_eq!(
        boxes.runs_of("accepted/twice.py"),
        2,
        "the accepted one settles"
    );
    assert_eq!(boxes.runs_of("mine.py"), 2);

    assert_eq!(test(&mut ctx), exit_codes::OK);
    let second = printed.text()[first.len()..].to_string();
    assert!(
        second.starts_with("kdouble: time limit 2 s: slowest accepted run accepted/twice.py 0.3 s")
            && second.contains("(settled before, from the result store)\n"),
        "{second}"
    );
    assert!(second.contains("Double (2.00 s CPU"), "{second}");
    assert_eq!(boxes.runs_of("accepted/twice.py"), 2, "settled again");
    assert_eq!(boxes.runs(), 6);

    // `grade` takes it from the store too.
    let files = [mine.clone(), same.clone()];
    let code = practice::grade(&mut ctx, "kdouble", &files, false, &ReportArgs::default());
    assert_eq!(code.unwrap(), exit_codes::FAILED);
    let third = printed.text()[first.len() + second.len()..].to_string();
    assert!(
        third.contains("(settled before, from the result store)"),
        "{third}"
    );
    assert!(
        third.contains("graded 2 submissions: 1 AC, 1 WA"),
        "{third}"
    );
    assert_eq!(boxes.runs_of("accepted/twice.py"), 2, "settled again");
}
