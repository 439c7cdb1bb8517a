//! `judge verify --constraints`: for every bound a validator checks, does
//! some test reach it? Each validator that can say is run on every test
//! and asked for the bounds it checked: a Kattis-protocol program (our
//! judge-kit validators, BAPCtools' `validation.h`, any program that
//! speaks it) through BAPCtools' `--constraints_file FILE` (a line per
//! bound: `location name reached_low reached_high smallest largest low
//! high`), a testlib validator through `--testOverviewLogFileName FILE`
//! (`"n": min-value-hit max-value-hit` and `constant-bounds "n": 1 100`).
//! A bound no test reaches is a warning: the tests may miss the largest
//! or smallest case the statement allows.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::findings::Finding;
use crate::checker::run_validator;
use crate::compile::{Executable, NotProgram};
use crate::plan::Means;

use crate::formats::{InputValidator, ValidatorArgs, ValidatorProtocol};
use crate::spec::{ProblemSpec, Protocol, ToolSpec};

/// One bound, merged over every test.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bound {
    pub(crate) low: Option<String>,
    pub(crate) high: Option<String>,
    pub(crate) reached_low: bool,
    pub(crate) reached_high: bool,
    /// The smallest and largest values seen (BAPCtools' protocol only).
    pub(crate) seen: Option<(String, String)>,
}

/// A validator to ask: its name, program, protocol, its own arguments,
/// and whether it checks answers (then the input is its first argument).
struct Asked {
    name: String,
    exe: Executable,
    testlib: bool,
    /// Its arguments on every test (`[validator] args`), or its name among
    /// a package's tests' per-validator arguments.
    args: ArgsFrom,
    answers: bool,
}

enum ArgsFrom {
    Always(Vec<String>),
    Tests(String),
}

/// Parses a `--constraints_file` report into bounds by name.
pub(crate) fn parse_bapctools(text: &str) -> BTreeMap<String, Bound> {
    let mut bounds = BTreeMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [_, name, low_hit, high_hit, smallest, largest, low, high] = words[..] {
            bounds.insert(
                name.to_string(),
                Bound {
                    low: Some(low.to_string()),
                    high: Some(high.to_string()),
                    reached_low: low_hit == "1",
                    reached_high: high_hit == "1",
                    seen: Some((smallest.to_string(), largest.to_string())),
                },
            );
        }
    }
    bounds
}

/// Parses a testlib test overview log into bounds by variable name.
pub(crate) fn parse_testlib(text: &str) -> BTreeMap<String, Bound> {
    let mut bounds: BTreeMap<String, Bound> = BTreeMap::new();
    let blank = || Bound {
        low: None,
        high: None,
        reached_low: false,
        reached_high: false,
        seen: None,
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("constant-bounds \"") {
            if let Some((name, values)) = rest.split_once("\":") {
                let mut values = values.split_whitespace();
                let bound = bounds.entry(name.to_string()).or_insert_with(blank);
                bound.low = values.next().map(str::to_string);
                bound.high = values.next().map(str::to_string);
            }
        } else if let Some(rest) = line.strip_prefix('"') {
            if let Some((name, hits)) = rest.split_once("\":") {
                let bound = bounds.entry(name.to_string()).or_insert_with(blank);
                bound.reached_low |= hits.contains("min-value-hit");
                bound.reached_high |= hits.contains("max-value-hit");
            }
        }
    }
    bounds
}

/// Merges one test's bounds into those of the tests before it.
fn merge(into: &mut BTreeMap<String, Bound>, test: BTreeMap<String, Bound>) {
    for (name, bound) in test {
        match into.get_mut(&name) {
            None => {
                into.insert(name, bound);
            }
            Some(seen) => {
                seen.reached_low |= bound.reached_low;
                seen.reached_high |= bound.reached_high;
                seen.low = seen.low.take().or(bound.low);
                seen.high = seen.high.take().or(bound.high);
                seen.seen = match (seen.seen.take(), bound.seen) {
                    (Some((a, b)), Some((c, d))) => Some((smaller(a, c), larger(b, d))),
                    (one, other) => one.or(other),
                };
            }
        }
    }
}

fn number(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}

fn smaller(a: String, b: String) -> String {
    if number(&b) < number(&a) { b } else { a }
}

fn larger(a: String, b: String) -> String {
    if number(&b) > number(&a) { b } else { a }
}

/// The findings for one validator's merged bounds.
pub(crate) fn judge_bounds(validator: &str, bounds: &BTreeMap<String, Bound>) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (name, bound) in bounds {
        let seen = |end: usize| {
            bound
                .seen
                .as_ref()
                .map(|(s, l)| {
                    format!(
                        " (the {} seen: {})",
                        ["smallest", "largest"][end],
                        [s, l][end]
                    )
                })
                .unwrap_or_default()
        };
        for (reached, limit, end, which) in [
            (bound.reached_low, &bound.low, 0, "lower"),
            (bound.reached_high, &bound.high, 1, "upper"),
        ] {
            if !reached {
                let limit = limit
                    .as_deref()
                    .map(|l| format!(" {l}"))
                    .unwrap_or_default();
                findings.push(Finding::warning(
                    format!("{validator}: `{name}`"),
                    format!("no test reaches its {which} bound{limit}{}", seen(end)),
                ));
            }
        }
    }
    let reached = bounds.len() * 2 - findings.len();
    findings.push(Finding::passed(
        validator,
        format!("{reached} of {} bounds reached", bounds.len() * 2),
    ));
    findings
}

/// The validators of `problem` that may report bounds, built.
fn validators(
    means: &mut Means<'_>,
    problem: &ProblemSpec,
    findings: &mut Vec<Finding>,
) -> Vec<Asked> {
    let mut asked = Vec::new();
    let mut add = |means: &mut Means<'_>, name: String, program, testlib, args, answers| match means
        .builder
        .build(&program)
        .into_program()
    {
        Ok(exe) => asked.push(Ok(Asked {
            name,
            exe,
            testlib,
            args,
            answers,
        })),
        Err(NotProgram::NotBuilt(why)) => asked.push(Err(Finding::error(
            name,
            format!("did not build: {}", why.first_line()),
        ))),
        Err(NotProgram::AnswerSet(_)) => {}
    };
    let mut notes = Vec::new();
    let mut add_note =
        |name: &str| notes.push(Finding::skipped(name, "a script reports no bounds"));
    if let Some(validator) = &problem.validator {
        let testlib = validator.protocol == Protocol::Testlib;
        let args = ArgsFrom::Always(validator.args.clone());
        add(
            means,
            "validator".into(),
            validator.program.clone(),
            testlib,
            args,
            false,
        );
    }
    if let Some(package) = problem.package.as_deref() {
        let lists = [
            (&package.input_validators, false),
            (&package.answer_validators, true),
        ];
        for (list, answers) in lists {
            for validator in list {
                match validator {
                    InputValidator::Program { program, protocol } => {
                        let testlib = *protocol == ValidatorProtocol::Testlib;
                        let kind = if answers {
                            "answer validator"
                        } else {
                            "input validator"
                        };
                        let program_ref = crate::spec::package_program(package, program);
                        let name = format!("{kind} {}", program.name);
                        add(
                            means,
                            name,
                            program_ref,
                            testlib,
                            ArgsFrom::Tests(program.name.clone()),
                            answers,
                        );
                    }
                    InputValidator::Checktestdata { name, .. }
                    | InputValidator::Viva { name, .. } => {
                        add_note(name);
                    }
                }
            }
        }
    }
    findings.extend(notes);
    asked
        .into_iter()
        .filter_map(|a| a.map_err(|f| findings.push(f)).ok())
        .collect()
}

/// The tests a validator runs on: (name, file on its stdin, input, the
/// test's validator arguments).
fn tests_of(
    problem: &ProblemSpec,
    answers: bool,
) -> Vec<(String, PathBuf, PathBuf, ValidatorArgs)> {
    match problem.package.as_deref() {
        Some(package) => package
            .tests
            .iter()
            .map(|t| {
                let (file, args) = match answers {
                    true => (t.answer.clone(), t.answer_validator_args.clone()),
                    false => (t.input.clone(), t.input_validator_args.clone()),
                };
                (t.name.clone(), file, t.input.clone(), args)
            })
            .collect(),
        None => problem
            .tests
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    t.input.clone(),
                    t.input.clone(),
                    ValidatorArgs::None,
                )
            })
            .collect(),
    }
}

/// Why a validator asked for its bounds could not give them.
#[derive(Debug, thiserror::Error)]
enum AskError {
    #[error("failed to create a folder: {0}")]
    Folder(#[source] std::io::Error),
    /// Its first line.
    #[error("rejects {test} when asked for its bounds: {why}")]
    Rejects { test: String, why: String },
    #[error(transparent)]
    Program(#[from] crate::verdict::JudgeFailure),
}

/// Runs one validator on every test, asking for its bounds; merged.
fn ask(
    means: &Means<'_>,
    problem: &ProblemSpec,
    validator: &Asked,
) -> std::result::Result<Option<BTreeMap<String, Bound>>, AskError> {
    let mut merged = BTreeMap::new();
    let mut reported = false;
    for (test, file, input, args) in tests_of(problem, validator.answers) {
        let scratch = tempfile::tempdir_in(means.scratch).map_err(AskError::Folder)?;
        let report = scratch.path().join("bounds.txt");
        let flag = match validator.testlib {
            true => "--testOverviewLogFileName",
            false => "--constraints_file",
        };
        let mut tool_args: Vec<String> = validator
            .answers
            .then(|| input.display().to_string())
            .into_iter()
            .collect();
        let own: Vec<String> = match &validator.args {
            ArgsFrom::Always(list) => list.clone(),
            ArgsFrom::Tests(name) => args.for_validator(name).to_vec(),
        };
        tool_args.extend(own);
        tool_args.extend([flag.to_string(), report.display().to_string()]);
        let tool = ToolSpec {
            program: crate::spec::ProgramRef::Bin(validator.name.clone()),
            args: tool_args,
            protocol: if validator.testlib {
                Protocol::Testlib
            } else {
                Protocol::Kattis
            },
        };
        match run_validator(
            means.builder.worker(),
            &validator.exe,
            &tool,
            &file,
            scratch.path(),
        ) {
            Ok(crate::checker::Validation::Valid) => {}
            Ok(crate::checker::Validation::Invalid(why)) => {
                return Err(AskError::Rejects {
                    test,
                    why: why.lines().next().unwrap_or_default().to_string(),
                });
            }
            Err(failure) => return Err(failure.into()),
        }
        let Ok(text) = std::fs::read_to_string(&report) else {
            continue;
        };
        reported = true;
        let bounds = match validator.testlib {
            true => parse_testlib(&text),
            false => parse_bapctools(&text),
        };
        merge(&mut merged, bounds);
    }
    Ok(reported.then_some(merged))
}

/// The bound findings of one problem.
pub(crate) fn check(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = Vec::new();
    let asked = validators(means, problem, &mut findings);
    if asked.is_empty() && findings.is_empty() {
        findings.push(Finding::skipped("", "no validator to ask for its bounds"));
    }
    for validator in &asked {
        match ask(means, problem, validator) {
            Ok(Some(bounds)) => findings.extend(judge_bounds(&validator.name, &bounds)),
            Ok(None) => findings.push(Finding::skipped(
                &validator.name,
                "reports no bounds (it writes no --constraints_file or testlib overview log)",
            )),
            Err(why) => findings.push(Finding::error(&validator.name, why.to_string())),
        }
    }
    findings
}
