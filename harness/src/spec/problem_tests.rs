//! `problem.toml` read key by key, from text, no file on disk: each key's
//! good values and what they set, each bad value's error with the file,
//! the line and the key.

use std::path::Path;
use std::time::Duration;

use super::discover::parse_manifest;
use super::problem::{CompareMode, ProblemSpec, ProgramRef, Protocol, ScoreAggregate};
use super::{FieldError, SpecError};
use crate::verdict::Verdict;

const MANIFEST: &str = "/problems/p/problem.toml";

/// The package `p` whose `problem.toml` is `id = "p"` then `rest`.
fn load(rest: &str) -> Result<ProblemSpec, SpecError> {
    let text = format!("id = \"p\"\n{rest}");
    let manifest = Path::new(MANIFEST);
    let raw = parse_manifest(manifest, &text)?;
    ProblemSpec::from_raw(raw, manifest.parent().unwrap(), manifest, &text, Vec::new())
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

fn tokens(spec: &ProblemSpec) -> (bool, bool, Option<f64>, Option<f64>) {
    match &spec.compare.mode {
        CompareMode::Tokens(o) => (
            o.case_sensitive,
            o.space_change_sensitive,
            o.float_absolute,
            o.float_relative,
        ),
        other => panic!("not token comparison: {other:?}"),
    }
}

/// What a good value must set, checked on the loaded spec.
type Check = fn(&ProblemSpec) -> bool;

/// Each `(text after `id = "p"`, check)` loads and passes its check.
fn assert_each_loads(cases: &[(&str, Check)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(rest, check)| match load(rest) {
            Ok(spec) if check(&spec) => None,
            Ok(spec) => Some(format!("{rest:?} loaded as {spec:#?}")),
            Err(error) => Some(format!("{rest:?}: {error}")),
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Each `(text after `id = "p"` on line 1, line, key, part of the
/// message)` is refused with that line, key and message, naming the file.
fn assert_each_refused(cases: &[(&str, usize, &str, &str)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(rest, line, key, part)| match load(rest) {
            Err(SpecError::Invalid(FieldError {
                path,
                line: got_line,
                key: got_key,
                message,
            })) if path == Path::new(MANIFEST)
                && (got_line, got_key.as_str()) == (*line, *key)
                && message.contains(part) =>
            {
                None
            }
            other => Some(format!(
                "{rest:?}: expected an error on line {line}, key {key}, saying {part:?}; got {other:?}"
            )),
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_defaults_titles_limits_and_scoring_set_what_they_say() {
    assert_each_loads(&[
        ("", |s| {
            s.title == "p"
                && s.limits.time == ms(1000)
                && s.limits.wall == ms(2000)
                && s.limits.memory == 256 << 20
                && s.limits.output == 64 << 20
                && tokens(s) == (false, false, None, None)
                && s.aggregate == ScoreAggregate::Sum
                && s.validator.is_none()
                && s.generator.is_none()
                && s.solutions.is_empty()
                && s.presentation_errors
        }),
        ("title = \"Pebbles\"\nsource = \"NWERC\"", |s| {
            s.title == "Pebbles" && s.source.as_deref() == Some("NWERC")
        }),
        // The wall backstop: twice the time, and at least a second more.
        ("[limits]\ntime = \"500ms\"", |s| {
            s.limits.time == ms(500) && s.limits.wall == ms(1500)
        }),
        ("[limits]\ntime = \"2.5s\"", |s| s.limits.wall == ms(5000)),
        ("[limits]\ntime = \"2s\"\nwall = \"2s\"", |s| {
            s.limits.wall == ms(2000)
        }),
        ("[limits]\nmemory = \"64 MiB\"\noutput = \"1GiB\"", |s| {
            s.limits.memory == 64 << 20 && s.limits.output == 1 << 30
        }),
        ("[scoring]\naggregate = \"min\"", |s| {
            s.aggregate == ScoreAggregate::Min
        }),
    ]);
}

#[test]
fn each_comparison_key_s_good_values_set_what_they_say() {
    assert_each_loads(&[
        ("[compare]\nmode = \"tokens\"\ncase-sensitive = true", |s| {
            tokens(s) == (true, false, None, None)
        }),
        ("[compare]\nspace-change-sensitive = true", |s| {
            tokens(s) == (false, true, None, None)
        }),
        (
            "[compare]\nfloat-absolute-tolerance = 1e-6\nfloat-relative-tolerance = 0.0",
            |s| tokens(s) == (false, false, Some(1e-6), Some(0.0)),
        ),
        ("[compare]\nfloat-tolerance = 1e-4", |s| {
            tokens(s) == (false, false, Some(1e-4), Some(1e-4))
        }),
        ("[compare]\nmode = \"exact\"", |s| {
            matches!(s.compare.mode, CompareMode::Exact)
        }),
        (
            "[compare]\nmode = \"checker\"\n[checker]\nfile = \"check.cpp\"\nargs = [\"-q\"]\nprotocol = \"testlib\"",
            |s| match &s.compare.mode {
                CompareMode::Checker(tool) => {
                    tool.program == ProgramRef::File("/problems/p/check.cpp".into())
                        && tool.args == ["-q"]
                        && tool.protocol == Protocol::Testlib
                }
                _ => false,
            },
        ),
    ]);
}

#[test]
fn each_program_key_s_good_values_set_what_they_say() {
    assert_each_loads(&[
        ("[validator]\nbin = \"p-validator\"", |s| {
            s.validator.as_ref().is_some_and(|v| {
                v.program == ProgramRef::Bin("p-validator".into()) && v.protocol == Protocol::Kattis
            })
        }),
        ("[interactor]\nfile = \"referee.py\"", |s| {
            s.interactor.is_some()
        }),
        // A testlib interactor's output file is judged by [compare].
        (
            "[interactor]\nfile = \"i.cpp\"\nprotocol = \"testlib\"\n[compare]\nmode = \"exact\"",
            |s| s.interactor.is_some() && matches!(s.compare.mode, CompareMode::Exact),
        ),
        ("[answers]\nbin = \"p-answers\"", |s| s.answers.is_some()),
        (
            "[generator]\nbin = \"p-gen\"\n[[generator.tests]]\nname = \"secret/big\"\nargs = [\"9\"]",
            |s| {
                s.generator.as_ref().is_some_and(|(program, tests)| {
                    *program == ProgramRef::Bin("p-gen".into())
                        && tests.len() == 1
                        && tests[0].name == "secret/big"
                        && tests[0].args == ["9"]
                })
            },
        ),
        (
            "[[solution]]\nfile = \"a.rs\"\nexpect = \"AC\"\n[[solution]]\nbin = \"slow\"\nexpect = [\"AC\", \"TLE\"]\nscore = 50.0",
            |s| {
                s.solutions.len() == 2
                    && s.solutions[0].expect == [Verdict::Accepted]
                    && s.solutions[1].expect == [Verdict::Accepted, Verdict::TimeLimitExceeded]
                    && s.solutions[1].score == Some(50.0)
            },
        ),
        (
            "[generator]\nbin = \"g\"\n[stress]\nargs = [\"random 8 {seed}\"]",
            |s| s.stress.args == ["random 8 {seed}"],
        ),
    ]);
}

#[test]
fn each_bad_limit_or_comparison_is_an_error_naming_the_file_the_line_and_the_key() {
    assert_each_refused(&[
        (
            "[limits]\ntime = \"2s\"\nwall = \"1s\"",
            4,
            "limits.wall",
            "not be shorter",
        ),
        (
            "[compare]\nfloat-absolute-tolerance = -1.0",
            3,
            "compare.float-absolute-tolerance",
            "≥ 0",
        ),
        (
            "[compare]\n\nfloat-relative-tolerance = nan",
            4,
            "compare.float-relative-tolerance",
            "finite",
        ),
        (
            "[compare]\nfloat-tolerance = inf",
            3,
            "compare.float-tolerance",
            "finite",
        ),
        (
            "[compare]\nfloat-absolute-tolerance = 0.1\nfloat-tolerance = 0.1",
            4,
            "compare.float-tolerance",
            "do not combine",
        ),
        (
            "[compare]\nmode = \"checker\"",
            3,
            "compare.mode",
            "needs a [checker]",
        ),
        (
            "\n[checker]\nfile = \"check.cpp\"",
            3,
            "checker",
            "only used with",
        ),
        (
            "[compare]\nmode = \"checker\"\n[checker]\nbin = \"c\"\nfile = \"c.cpp\"",
            4,
            "checker",
            "not both",
        ),
        (
            "[compare]\nmode = \"checker\"\n[checker]\nargs = [\"x\"]",
            4,
            "checker",
            "needs `bin",
        ),
    ]);
}

#[test]
fn each_bad_program_key_is_an_error_naming_the_file_the_line_and_the_key() {
    assert_each_refused(&[
        ("[validator]\nbin = \"\"", 2, "validator", "needs `bin"),
        (
            "[answers]\nbin = \"a\"\nprotocol = \"testlib\"",
            2,
            "answers.protocol",
            "checkers, validators and interactors only",
        ),
        (
            "[interactor]\nbin = \"i\"\n[compare]\nmode = \"exact\"",
            5,
            "compare.mode",
            "judges alone",
        ),
        ("[generator]\ntests = []", 2, "generator", "needs `bin"),
        (
            "[generator]\nbin = \"g\"\n[[generator.tests]]\nname = \"../x\"",
            4,
            "generator.tests.name",
            "`../x`",
        ),
        (
            "[generator]\nbin = \"g\"\n[[generator.tests]]\nname = \"extra/x\"",
            4,
            "generator.tests.name",
            "sample/ or secret/",
        ),
        ("[[solution]]\nexpect = \"AC\"", 2, "solution", "needs `bin"),
        (
            "[stress]\nargs = [\"random {seed}\"]",
            3,
            "stress.args",
            "needs a [generator]",
        ),
        (
            "[generator]\nbin = \"g\"\n[stress]\nargs = [\"random 7\"]",
            5,
            "stress.args",
            "no {seed}",
        ),
    ]);
}

#[test]
fn the_id_must_be_the_folder_s_name() {
    let text = "# the sum of two numbers\nid = \"q\"\n";
    let manifest = Path::new(MANIFEST);
    let raw = parse_manifest(manifest, text).unwrap();
    let error = ProblemSpec::from_raw(raw, manifest.parent().unwrap(), manifest, text, Vec::new())
        .unwrap_err();
    match error {
        SpecError::Invalid(FieldError {
            line, key, message, ..
        }) => {
            assert_eq!((line, key.as_str()), (2, "id"));
            assert!(
                message.contains("`q`") && message.contains("`p`"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn values_of_the_wrong_form_are_errors_naming_the_file_the_line_and_the_key() {
    // (the text after `id = "p"` on line 1, line, the key or value named)
    let cases: &[(&str, usize, &str)] = &[
        ("[limits]\ntime = \"fast\"", 3, "invalid duration `fast`"),
        ("[limits]\nmemory = \"lots\"", 3, "invalid size `lots`"),
        ("[limits]\noutput = 64", 3, "output"),
        ("[limits]\ntim = \"1s\"", 3, "tim"),
        ("[compare]\nmode = \"fuzzy\"", 3, "fuzzy"),
        ("[checker]\nbin = \"c\"\nprotocol = \"icpc\"", 4, "icpc"),
        ("[scoring]\naggregate = \"max\"", 3, "max"),
        (
            "[[solution]]\nfile = \"a.rs\"\nexpect = \"XX\"",
            4,
            "unknown verdict `XX`",
        ),
        (
            "[[solution]]\nfile = \"a.rs\"\nexpect = []",
            4,
            "at least one verdict",
        ),
        ("[[solution]]\nfile = \"a.rs\"", 2, "expect"),
        ("colour = \"red\"", 2, "colour"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(rest, line, part)| match load(rest) {
            Err(SpecError::Parse { path, message })
                if path == Path::new(MANIFEST)
                    && message.contains(&format!("line {line},"))
                    && message.contains(part) =>
            {
                None
            }
            other => Some(format!(
                "{rest:?}: expected a parse error on line {line} naming {part:?}; got {other:?}"
            )),
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
