//! `judge verify --invalid-inputs`: inputs made invalid on purpose from
//! valid ones (the first three samples, else the first three tests), each
//! of which the input validators must reject, as BAPCtools' `--generic`
//! makes them: a token removed, a token doubled, a number made
//! non-numeric, a line break moved, trailing garbage. One that every
//! validator accepts is the package's error: the validator lets through
//! an input the statement forbids.

use std::path::Path;

use super::findings::{Finding, Severity};
use super::self_tests::{ValidateError, ready, validate};
use crate::checker::Validation;
use crate::checker::run_validator;
use crate::compile::NotProgram;
use crate::formats::ValidatorArgs;
use crate::plan::Means;
use crate::spec::ProblemSpec;

/// The invalid inputs made from `valid`, by what was done to it; those
/// equal to it or to an earlier one are left out.
pub(crate) fn mutations(valid: &str) -> Vec<(&'static str, String)> {
    let tokens: Vec<(usize, &str)> = valid
        .split_inclusive(char::is_whitespace)
        .scan(0, |at, piece| {
            let start = *at;
            *at += piece.len();
            Some((start, piece.trim_end()))
        })
        .filter(|(_, token)| !token.is_empty())
        .collect();
    let mut made: Vec<(&'static str, String)> = Vec::new();
    if let Some(&(at, first)) = tokens.first() {
        let after = valid[at + first.len()..].trim_start_matches(' ');
        made.push(("a token removed", format!("{}{after}", &valid[..at])));
        made.push((
            "a token doubled",
            format!("{}{first} {}", &valid[..at], &valid[at..]),
        ));
    }
    if let Some(&(at, number)) = tokens.iter().find(|(_, t)| t.parse::<f64>().is_ok()) {
        made.push((
            "a number made non-numeric",
            format!("{}x{}", &valid[..at], &valid[at + number.len()..]),
        ));
    }
    let moved = match valid.find(' ') {
        Some(space) => format!("{}\n{}", &valid[..space], &valid[space + 1..]),
        None => valid.replacen('\n', " ", 1),
    };
    made.push(("a line break moved", moved));
    made.push(("trailing garbage", format!("{valid}garbage\n")));
    let mut unique: Vec<(&'static str, String)> = Vec::new();
    for (what, text) in made {
        if text != valid && !unique.iter().any(|(_, t)| *t == text) {
            unique.push((what, text));
        }
    }
    unique
}

/// The problem's input validators, ready to judge a file: `Ok(true)` when
/// it is valid for every one of them.
type Judge<'a> = Box<dyn Fn(&Means<'_>, &Path) -> std::result::Result<bool, ValidateError> + 'a>;

fn validators<'a>(
    means: &mut Means<'_>,
    problem: &'a ProblemSpec,
    findings: &mut Vec<Finding>,
) -> Option<Judge<'a>> {
    if let Some(package) = problem.package.as_deref() {
        let ready = ready(means, package, &package.input_validators, findings);
        if ready.is_empty() {
            return None;
        }
        return Some(Box::new(move |means: &Means<'_>, file: &Path| {
            for validator in &ready {
                if !validate(means, validator, &ValidatorArgs::None, file, None)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }));
    }
    let tool = problem.validator.as_ref()?;
    let exe = match means.builder.build(&tool.program).into_program() {
        Ok(exe) => exe,
        Err(NotProgram::NotBuilt(why)) => {
            findings.push(Finding::error(
                "validator",
                format!("did not build: {}", why.first_line()),
            ));
            return None;
        }
        Err(NotProgram::AnswerSet(_)) => return None,
    };
    Some(Box::new(move |means: &Means<'_>, file: &Path| {
        let scratch =
            tempfile::tempdir_in(means.scratch).map_err(|source| ValidateError::Write {
                path: means.scratch.to_path_buf(),
                source,
            })?;
        match run_validator(means.builder.worker(), &exe, tool, file, scratch.path())? {
            Validation::Valid => Ok(true),
            Validation::Invalid(_) => Ok(false),
        }
    }))
}

/// What an accepted mutation means. One that changed only the layout (the
/// same tokens, other whitespace) is a warning: many statements let the
/// numbers be laid out freely, and a validator reading tokens is right to
/// take it. Any other is an error: the validator lets through an input the
/// statement cannot allow.
fn accepted(test: &str, what: &str, valid: &str, text: &str) -> Finding {
    let shown: String = crate::escape::name(text).chars().take(60).collect();
    if valid.split_whitespace().eq(text.split_whitespace()) {
        Finding::warning(
            test,
            format!("{what}, the input is still accepted (a free layout?): {shown}"),
        )
    } else {
        Finding::error(
            test,
            format!("{what}, the input is still accepted: {shown}"),
        )
    }
}

/// The generic invalid inputs of one problem, each checked.
pub(crate) fn check(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = Vec::new();
    let Some(is_valid) = validators(means, problem, &mut findings) else {
        if findings.is_empty() {
            findings.push(Finding::skipped("", "no input validator"));
        }
        return findings;
    };
    let samples: Vec<_> = problem
        .tests
        .iter()
        .filter(|t| t.is_sample())
        .take(3)
        .collect();
    let bases = match samples.is_empty() {
        true => problem.tests.iter().take(3).collect(),
        false => samples,
    };
    let mut rejected = 0;
    for test in bases {
        let Ok(valid) = std::fs::read_to_string(&test.input) else {
            continue;
        };
        for (what, text) in mutations(&valid) {
            let file = match tempfile::NamedTempFile::new_in(means.scratch) {
                Ok(file) => file,
                Err(e) => {
                    findings.push(Finding::error("", e.to_string()));
                    return findings;
                }
            };
            if let Err(e) = std::fs::write(file.path(), &text) {
                findings.push(Finding::error("", e.to_string()));
                return findings;
            }
            match is_valid(means, file.path()) {
                Ok(false) => rejected += 1,
                Ok(true) => findings.push(accepted(&test.name, what, &valid, &text)),
                Err(why) => findings.push(Finding::error(&test.name, format!("{what}: {why}"))),
            }
        }
    }
    if !findings.iter().any(|f| f.severity == Severity::Error) {
        findings.push(Finding::passed(
            "",
            format!("{rejected} generic invalid inputs rejected"),
        ));
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mutation_breaks_the_input_in_one_way() {
        let made = mutations("2 10\n3 4\n");
        let by = |what: &str| {
            made.iter()
                .find(|(w, _)| *w == what)
                .map(|(_, t)| t.as_str())
        };
        assert_eq!(by("a token removed"), Some("10\n3 4\n"));
        assert_eq!(by("a token doubled"), Some("2 2 10\n3 4\n"));
        assert_eq!(by("a number made non-numeric"), Some("x 10\n3 4\n"));
        assert_eq!(by("a line break moved"), Some("2\n10\n3 4\n"));
        assert_eq!(by("trailing garbage"), Some("2 10\n3 4\ngarbage\n"));
        // A lone word: its line break joins the next line; nothing is numeric.
        let made = mutations("abc\nd\n");
        assert!(made.iter().all(|(w, _)| *w != "a number made non-numeric"));
        assert!(made.contains(&("a line break moved", "abc d\n".into())));
    }

    #[test]
    fn only_a_change_of_tokens_is_an_error_when_accepted() {
        let layout = accepted("sample/1", "a line break moved", "1 2\n", "1\n2\n");
        assert_eq!(layout.severity, Severity::Warning);
        let garbage = accepted("sample/1", "trailing garbage", "1 2\n", "1 2\ngarbage\n");
        assert_eq!(garbage.severity, Severity::Error);
        assert!(
            garbage.line().ends_with("1 2\\ngarbage\\n"),
            "{}",
            garbage.line()
        );
    }
}
