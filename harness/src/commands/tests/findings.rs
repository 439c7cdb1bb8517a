//! `judge verify --invalid-inputs`: inputs broken on purpose, each of
//! which the input validator must reject; `judge verify --constraints`:
//! the bounds the validator checks, reached by some test or not. Their
//! findings and exit codes.

use super::{Bench, assert_shows, double_script, double_with};
use crate::checks::{constraints, invalid_inputs};
use crate::commands::fake::Answer;
use crate::commands::findings::report;
use crate::exit_codes;
use crate::sandbox::Termination;

/// `double` with an input validator, `val.py`.
fn validated(root: &std::path::Path) {
    double_with(root, "\n[validator]\nfile = \"val.py\"\n", &["val.py"]);
}

/// `val.py` says valid (exit 42) when `valid` holds for the input (which
/// the fake box trims), invalid (43) when not.
fn validating(valid: fn(&str) -> bool) -> impl Fn(&str, &str) -> Answer + Send + Sync {
    move |program, input| match program {
        "val.py" => Answer {
            termination: Termination::Exited(if valid(input) { 42 } else { 43 }),
            ..Answer::prints("")
        },
        _ => double_script(program, input),
    }
}

#[test]
fn a_strict_validator_rejects_every_broken_input() {
    // One number: a moved line break, which the trimmed input hides, is
    // only the layout, a warning.
    let mut bench = Bench::new(validated, validating(|input| input.parse::<u64>().is_ok()));
    let code = report(&mut bench.ctx, &[], invalid_inputs::check).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert!(text.starts_with("double\n"), "{text}");
    assert_shows(
        &text,
        "  warning: secret/1: a line break moved, the input is still accepted (a free layout?): 1 \n",
    );
    // Four of each test's five broken inputs, on three tests.
    assert!(
        text.ends_with("\n  12 generic invalid inputs rejected\n"),
        "{text}"
    );
    assert_eq!(bench.boxes.runs_of("val.py"), 15);
}

#[test]
fn a_lenient_validator_is_the_packages_error() {
    // Reads the first token only.
    let lenient = |input: &str| {
        input
            .split_whitespace()
            .next()
            .is_some_and(|first| first.parse::<u64>().is_ok())
    };
    let mut bench = Bench::new(validated, validating(lenient));
    let code = report(&mut bench.ctx, &[], invalid_inputs::check).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(
        &text,
        "  secret/2: a token doubled, the input is still accepted: 2 2\\n\n",
    );
    assert_shows(
        &text,
        "  secret/3: trailing garbage, the input is still accepted: 3\\ngarbage\\n\n",
    );
    assert!(!text.contains("rejected"), "{text}");
}

/// `val.py` accepts every input and reports (as BAPCtools' validators do,
/// in the file `--constraints_file` names) the bound `1 <= n <= 10`, with
/// whether this test's `n` reached either end.
fn bounds_of_n(program: &str, input: &str) -> Answer {
    if program != "val.py" {
        return double_script(program, input);
    }
    let n: u64 = input.parse().unwrap_or(0);
    let line = format!(
        "val.py:3 n {} {} {n} {n} 1 10\n",
        u8::from(n == 1),
        u8::from(n == 10)
    );
    Answer {
        termination: Termination::Exited(42),
        ..Answer::prints("")
    }
    .writing("--constraints_file", line)
}

#[test]
fn a_bound_no_test_reaches_is_a_warning() {
    let mut bench = Bench::new(validated, bounds_of_n);
    let code = report(&mut bench.ctx, &[], constraints::check).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert_eq!(
        text,
        "double\n  warning: validator: `n`: no test reaches its upper bound 10 (the largest seen: 3)\n  validator: 1 of 2 bounds reached\n"
    );
    assert_eq!(bench.boxes.runs_of("val.py"), 3, "once on each test");
}

#[test]
fn a_validator_without_bounds_is_skipped_and_one_that_rejects_fails() {
    let mut bench = Bench::new(validated, validating(|_| true));
    let code = report(&mut bench.ctx, &[], constraints::check).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert_eq!(
        text,
        "double\n  validator: reports no bounds (it writes no --constraints_file or testlib overview log)\n"
    );

    let mut bench = Bench::new(validated, validating(|input| input != "2"));
    let code = report(&mut bench.ctx, &[], constraints::check).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::FAILED, "{text}");
    assert_shows(
        &text,
        "validator: rejects secret/2 when asked for its bounds",
    );
}
