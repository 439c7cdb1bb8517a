//! `judge verify --invalid-inputs`: inputs broken on purpose, each of
//! which the input validator must reject; its findings and exit code.

use super::{Bench, assert_shows, double_script, double_with};
use crate::commands::fake::Answer;
use crate::commands::findings::report;
use crate::commands::invalid_inputs;
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
