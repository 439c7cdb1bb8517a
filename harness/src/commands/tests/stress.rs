//! `judge stress`, and the counterexample `judge test` offers after a
//! wrong answer: generated inputs, the reference's answers, and a failing
//! input shrunk.

use std::path::PathBuf;
use std::time::Duration;

use super::{Bench, assert_shows, double_script, double_with};
use crate::cli::{Diffs, LearnerArgs, ReportArgs, StressArgs};
use crate::commands::fake::Answer;
use crate::commands::{practice, stress};
use crate::exit_codes;

/// `double` with a generator (`gen.py SEED`) for `judge stress`, which
/// `judge test` may use for a counterexample.
fn stressed(root: &std::path::Path) {
    let toml = "\n[generator]\nfile = \"gen.py\"\n\n[stress]\nargs = [\"{seed}\"]\noffer-counterexample = true\n";
    double_with(root, toml, &["gen.py"]);
}

/// The generator prints a number from 1 to 100 made of its seed;
/// `mine.py` doubles numbers below 10 only.
fn script(program: &str, input: &str) -> Answer {
    match program {
        "gen.py" => {
            let seed: u64 = input.parse().unwrap();
            Answer::prints(format!("{}\n", seed % 100 + 1))
        }
        "mine.py" => {
            let n: u64 = input.parse().unwrap_or(0);
            Answer::prints(format!("{}\n", if n < 10 { 2 * n } else { 2 * n + 1 }))
        }
        _ => double_script(program, input),
    }
}

/// `judge stress double FILE --seed 7`, at most `cases` inputs.
fn stress_args(file: PathBuf, cases: u64) -> StressArgs {
    StressArgs {
        id: "double".into(),
        file,
        against: None,
        generator_args: None,
        seed: Some(7),
        time: Duration::from_secs(60),
        cases,
        shrink_time: Duration::from_secs(60),
        out: None,
    }
}

#[test]
fn stress_finds_a_failing_input_and_shrinks_it() {
    let mut bench = Bench::new(stressed, script);
    let args = stress_args(bench.file("mine.py"), 100);
    let code = stress::stress(&mut bench.ctx, &args).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert!(
        text.starts_with(
            "double — Double: mine.py against twice.py, inputs from `{seed}`, seed 7\n"
        ),
        "{text}"
    );
    // The smallest number `mine.py` gets wrong.
    assert_shows(
        &text,
        "smallest failing input (1 token, 1 line; the generated one had 1 token):\n    10\n",
    );
    assert_shows(
        &text,
        "expected (twice.py):\n    20\ngot (mine.py):\n    21\n",
    );
    assert_shows(
        &text,
        "`judge stress double mine.py --seed 7` finds it again",
    );
}

#[test]
fn stress_ends_when_the_cases_run_out() {
    let mut bench = Bench::new(stressed, script);
    let args = stress_args(bench.file("right.py"), 20);
    let code = stress::stress(&mut bench.ctx, &args).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert_shows(
        &text,
        "AC on 20 inputs (all inputs done): no failing input found\n",
    );
    assert_eq!(bench.boxes.runs_of("gen.py"), 20);
    assert_eq!(bench.boxes.runs_of("right.py"), 20);
}

#[test]
fn test_offers_a_counterexample_after_a_wrong_answer() {
    let mut bench = Bench::new(stressed, |program, input| match (program, input) {
        // Wrong on the package's test 3 only.
        ("mine.py", "3") => Answer::prints("7\n"),
        _ => script(program, input),
    });
    let mine = bench.file("mine.py");
    let learner = LearnerArgs {
        diffs: Diffs::First,
        no_counterexample: false,
    };
    let code = practice::test(
        &mut bench.ctx,
        "double",
        &mine,
        false,
        &ReportArgs::default(),
        &learner,
    )
    .unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(&text, "mine.py: WA on secret/3");
    assert_shows(&text, "\nlooking for a small input your program fails on");
    assert_shows(
        &text,
        "smallest failing input (1 token, 1 line; the generated one had 1 token):\n    3\n",
    );
}
