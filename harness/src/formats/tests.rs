//! The readers on the Kattis fixture packages of `tests/fixtures/ecosystem/`
//! (and the helpers the Polygon ones share).

use std::path::{Path, PathBuf};

use super::*;
use crate::verdict::Verdict;

/// (tests glob, permitted, required, score) of an expectation rule.
type RuleSummary<'a> = (
    Option<&'a str>,
    Option<&'a [Verdict]>,
    Option<&'a [Verdict]>,
    Option<(f64, f64)>,
);

pub(super) fn fixture(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ecosystem/problems")
        .join(id)
}

pub(super) fn read(id: &str) -> Package {
    match read_package(&fixture(id)) {
        Some(Ok(package)) => package,
        Some(Err(error)) => panic!("{id}: {error}"),
        None => panic!("{id}: not a Kattis or Polygon package"),
    }
}

/// (name, aggregation, max score, required groups) of each group.
pub(super) type GroupSummary<'a> = (&'a str, Aggregation, MaxScore, &'a [String]);

pub(super) fn groups(package: &Package) -> Vec<GroupSummary<'_>> {
    package
        .groups
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.aggregation,
                g.max_score,
                g.require_pass.as_slice(),
            )
        })
        .collect()
}

/// Asserts `package` is multi-pass (two passes, not interactive) and
/// judged by its own output validator `validator`.
pub(super) fn assert_two_pass_with_validator(package: &Package, validator: &str) {
    assert_eq!(
        package.interaction,
        Interaction::MultiPass {
            passes: 2,
            interactive: false
        }
    );
    let OutputJudging::KattisValidator(program) = &package.output else {
        panic!("{:?}", package.output)
    };
    assert_eq!(program.name, validator);
}

pub(super) fn names(package: &Package) -> Vec<&str> {
    package.tests.iter().map(|t| t.name.as_str()).collect()
}

pub(super) fn submission<'a>(package: &'a Package, name: &str) -> &'a Submission {
    package
        .submissions
        .iter()
        .find(|s| s.program.name == name)
        .unwrap_or_else(|| panic!("no submission {name}"))
}

pub(super) fn file_name(path: &Path) -> &str {
    path.file_name().unwrap().to_str().unwrap()
}

/// A legacy package: its name, limits and tests (samples first).
#[test]
fn legacy_package_metadata_and_tests_in_order() {
    let package = read("nimmove");
    assert_eq!(package.format, PackageFormat::KattisLegacy);
    assert_eq!(package.name, "Nim Move");
    assert_eq!(package.interaction, Interaction::Batch);
    assert_eq!(package.limits.memory, Some(256 << 20));
    assert_eq!(
        names(&package),
        [
            "sample/1",
            "sample/2",
            "secret/01-small-won",
            "secret/02-small-lost",
            "secret/03-two-giants",
            "secret/04-large-won",
            "secret/05-large-lost",
            "secret/06-pairs-lost",
            "secret/07-one-pile"
        ]
    );
    assert!(package.tests[0].sample && !package.tests[2].sample);
}

/// The custom output validator and the input validator, each built
/// with the header beside it.
#[test]
fn legacy_custom_checker_and_validator_with_their_headers() {
    let package = read("nimmove");
    let OutputJudging::KattisValidator(checker) = &package.output else {
        panic!("custom validation: {:?}", package.output)
    };
    assert_eq!(checker.language, "cpp");
    assert_eq!(
        checker
            .sources
            .iter()
            .map(|p| file_name(p))
            .collect::<Vec<_>>(),
        ["checker.cpp"]
    );
    assert_eq!(
        checker
            .extra_files
            .iter()
            .map(|p| file_name(p))
            .collect::<Vec<_>>(),
        ["nim.h"]
    );
    let [InputValidator::Program { program, protocol }] = package.input_validators.as_slice()
    else {
        panic!("{:?}", package.input_validators)
    };
    assert_eq!(*protocol, ValidatorProtocol::Kattis);
    assert_eq!(
        program
            .extra_files
            .iter()
            .map(|p| file_name(p))
            .collect::<Vec<_>>(),
        ["validate.h"]
    );
}

/// Each submission: its language, and the verdict and time-limit bound
/// its folder promises.
#[test]
fn legacy_submissions_expected_by_their_folder() {
    let package = read("nimmove");
    let expected = [
        (
            "accepted/nim.c",
            "c",
            Verdict::Accepted,
            TimeLimitBound::Lower,
        ),
        (
            "accepted/nim.cpp",
            "cpp",
            Verdict::Accepted,
            TimeLimitBound::Lower,
        ),
        (
            "accepted/nim.py",
            "python3",
            Verdict::Accepted,
            TimeLimitBound::Lower,
        ),
        (
            "accepted/scripted",
            "build-run",
            Verdict::Accepted,
            TimeLimitBound::Lower,
        ),
        (
            "run_time_error/divide.cpp",
            "cpp",
            Verdict::RuntimeError,
            TimeLimitBound::None,
        ),
        (
            "time_limit_exceeded/one_by_one.c",
            "c",
            Verdict::TimeLimitExceeded,
            TimeLimitBound::Upper,
        ),
        (
            "wrong_answer/take_one.py",
            "python3",
            Verdict::WrongAnswer,
            TimeLimitBound::None,
        ),
    ];
    assert_eq!(package.submissions.len(), expected.len());
    for (name, language, verdict, bound) in expected {
        let found = submission(&package, name);
        assert_eq!(found.program.language, language, "{name}");
        assert_eq!(
            found.expectation,
            Expectation::Overall {
                verdict,
                partial: false
            },
            "{name}"
        );
        assert_eq!(found.time_limit_bound, bound, "{name}");
    }
}

/// The time limit rule of problem.yaml's legacy multipliers; nothing to
/// warn of.
#[test]
fn legacy_time_rule_from_problem_yaml_without_warnings() {
    let package = read("nimmove");
    let TimeLimitRule::FromSubmissions {
        ac_to_time_limit,
        time_limit_to_tle,
        resolution,
        fixed: None,
        ..
    } = &package.limits.time
    else {
        panic!("{:?}", package.limits.time)
    };
    assert_eq!(
        (*ac_to_time_limit, *time_limit_to_tle, *resolution),
        (5.0, 2.0, 1.0)
    );
    assert!(package.warnings.is_empty(), "{:?}", package.warnings);
}

#[test]
fn kattis_2025_multi_pass_package() {
    let package = read("nimrounds");
    assert_two_pass_with_validator(&package, "output_validator");
    assert_eq!(package.tests.len(), 6);
    assert_eq!(package.submissions.len(), 4);
}

#[test]
fn legacy_interactive_package() {
    let package = read("nimduel");
    assert_eq!(package.interaction, Interaction::Interactive);
    let OutputJudging::KattisValidator(interactor) = &package.output else {
        panic!("{:?}", package.output)
    };
    assert_eq!(interactor.name, "nimduel_interactor");
    let [InputValidator::Program { program, .. }] = package.input_validators.as_slice() else {
        panic!("{:?}", package.input_validators)
    };
    assert_eq!(
        (program.name.as_str(), program.language.as_str()),
        ("nimduel_input.py", "python3")
    );
    assert_eq!(package.tests.len(), 7);
    let TimeLimitRule::FromSubmissions { origin, .. } = &package.limits.time else {
        panic!()
    };
    assert!(origin.contains("legacy defaults"), "{origin}");
}

/// A 2025-09 scoring package: its tests in order, judged by the default
/// output validator.
#[test]
fn kattis_2025_scoring_package_tests_in_order() {
    let package = read("subtraction");
    assert_eq!(package.format, PackageFormat::Kattis2025);
    assert!(package.scoring);
    assert_eq!(package.output, OutputJudging::KattisDefault);
    assert_eq!(
        names(&package),
        [
            "sample/1",
            "sample/2",
            "secret/group1/01-bachet",
            "secret/group1/02-files",
            "secret/group1/03-gaps",
            "secret/group2/01-from-group1",
            "secret/group2/02-medium",
            "secret/group2/03-huge",
            "secret/group2/04-huge"
        ]
    );
}

/// The test groups: aggregation, max score and `require_pass`.
#[test]
fn kattis_2025_groups_with_scores_and_require_pass() {
    let package = read("subtraction");
    let groups = groups(&package);
    let group2_requires = ["sample".to_string(), "secret/group1".to_string()];
    assert_eq!(
        groups,
        [
            (
                "sample",
                Aggregation::PassFail,
                MaxScore::Unbounded,
                &[][..]
            ),
            (
                "secret",
                Aggregation::Sum,
                MaxScore::Bounded(100.0),
                &[][..]
            ),
            (
                "secret/group1",
                Aggregation::PassFail,
                MaxScore::Bounded(40.0),
                &[][..]
            ),
            (
                "secret/group2",
                Aggregation::Sum,
                MaxScore::Bounded(60.0),
                &group2_requires[..]
            ),
        ]
    );
}

/// What each test carries: validator arguments, `.files/`, symlinks,
/// descriptions.
#[test]
fn kattis_2025_per_test_settings_files_and_links() {
    let package = read("subtraction");
    let test = |name: &str| package.tests.iter().find(|t| t.name == name).unwrap();
    // {{small_n}} substituted in test_group.yaml, per-validator arguments.
    assert_eq!(
        test("secret/group1/01-bachet")
            .input_validator_args
            .for_validator("bounds"),
        ["--max-n", "1000"]
    );
    assert!(
        test("secret/group1/01-bachet")
            .input_validator_args
            .for_validator("format.ctd")
            .is_empty()
    );
    assert_eq!(
        test("secret/group2/02-medium").output_validator_args,
        ["case_sensitive"]
    );
    assert!(
        test("secret/group1/02-files")
            .files_dir
            .as_ref()
            .is_some_and(|d| d.join("notes.txt").is_file())
    );
    let linked = test("secret/group2/01-from-group1");
    assert!(
        linked
            .symlink_target
            .as_ref()
            .is_some_and(|t| t.ends_with("group1/03-gaps.in"))
    );
    assert_eq!(linked.group.as_deref(), Some("secret/group2"));
    assert!(
        test("secret/group2/03-huge")
            .description
            .as_deref()
            .is_some_and(|d| d.contains("largest"))
    );
}

/// The input validators, the constants and the per-language includes.
#[test]
fn kattis_2025_validators_constants_and_includes() {
    let package = read("subtraction");
    let kinds: Vec<&str> = package
        .input_validators
        .iter()
        .map(|v| match v {
            InputValidator::Checktestdata { .. } => "ctd",
            InputValidator::Viva { .. } => "viva",
            InputValidator::Program { program, .. } => program.language.as_str(),
        })
        .collect();
    assert_eq!(kinds, ["python3", "ctd"]);
    assert_eq!(
        package.constants.substitute("{{max_n}} {{small_n.tex}}"),
        "1000000000000000000 10^3"
    );
    assert_eq!(
        package
            .includes
            .for_language("cpp")
            .iter()
            .map(|p| file_name(p))
            .collect::<Vec<_>>(),
        ["subtraction.h"]
    );
    assert!(package.includes.for_language("python3").is_empty());
}

/// The validators' own tests, each with its arguments.
#[test]
fn kattis_2025_validator_self_tests_with_their_arguments() {
    let package = read("subtraction");
    let invalid: Vec<(&str, &[String])> = package
        .self_tests
        .inputs
        .iter()
        .map(|t| (t.name.as_str(), t.args.for_validator("bounds")))
        .collect();
    let bound = ["--max-n".to_string(), "1000".to_string()];
    assert_eq!(
        invalid,
        [
            ("invalid_input/01-unsorted", &[][..]),
            ("invalid_input/02-too-big-for-group", &bound[..])
        ]
    );
    let outputs: Vec<(&str, Verdict, &[String])> = package
        .self_tests
        .outputs
        .iter()
        .map(|t| (t.name.as_str(), t.expected, &t.output_validator_args[..]))
        .collect();
    let case_sensitive = ["case_sensitive".to_string()];
    assert_eq!(
        outputs,
        [
            (
                "invalid_output/01-other-player",
                Verdict::WrongAnswer,
                &[][..]
            ),
            (
                "invalid_output/02-case-sensitive",
                Verdict::WrongAnswer,
                &case_sensitive[..]
            ),
            ("valid_output/01-any-case", Verdict::Accepted, &[][..]),
        ]
    );
}

/// The time limit rule of problem.yaml (multipliers and resolution); in
/// 2025-09 a safety margin not kept is an error, not a warning.
#[test]
fn kattis_2025_time_rule_with_resolution() {
    let package = read("subtraction");
    let TimeLimitRule::FromSubmissions {
        ac_to_time_limit,
        time_limit_to_tle,
        resolution,
        margin_is_error,
        ..
    } = &package.limits.time
    else {
        panic!()
    };
    assert_eq!(
        (
            *ac_to_time_limit,
            *time_limit_to_tle,
            *resolution,
            *margin_is_error
        ),
        (2.0, 1.5, 0.5, true)
    );
}

#[test]
fn kattis_2025_submissions_and_expectations() {
    let package = read("subtraction");
    let split = submission(&package, "accepted/split");
    assert_eq!(
        split
            .program
            .sources
            .iter()
            .map(|p| file_name(p))
            .collect::<Vec<_>>(),
        ["main.cpp", "period.cpp"]
    );
    assert_eq!(file_name(&split.program.entry), "main.cpp");
    assert!(split.program.substitute_constants);
    let pyentry = submission(&package, "accepted/pyentry");
    assert_eq!(
        (
            pyentry.program.language.as_str(),
            file_name(&pyentry.program.entry)
        ),
        ("python3", "solve.py")
    );
    assert!(submission(&package, "accepted/cycle.cpp").model_solution);
    assert_eq!(
        submission(&package, "accepted/cycle.cpp").time_limit_bound,
        TimeLimitBound::Lower
    );

    let Expectation::Rules(rules) = &submission(&package, "partial/dp.c").expectation else {
        panic!()
    };
    let summary: Vec<RuleSummary<'_>> = rules
        .iter()
        .map(|r| {
            (
                r.tests.as_deref(),
                r.permitted.as_deref(),
                r.required.as_deref(),
                r.score,
            )
        })
        .collect();
    use Verdict::{Accepted as AC, TimeLimitExceeded as TLE};
    assert_eq!(
        summary,
        [
            (
                None,
                Some(&[AC, TLE][..]),
                Some(&[TLE][..]),
                Some((70.0, 70.0))
            ),
            (Some("secret/group1"), Some(&[AC][..]), None, None),
            (Some("secret/group2"), None, Some(&[TLE][..]), None),
        ]
    );
    assert!(
        rules[0].origin.contains("changed by submissions.yaml line"),
        "{}",
        rules[0].origin
    );

    assert!(rules[0].applies_to("secret/group2/03-huge") && rules[0].applies_to("sample/1"));
    assert!(rules[1].applies_to("secret/group1/02-files") && rules[1].applies_to("secret/group1"));
    assert!(
        !rules[1].applies_to("secret/group2/01-from-group1") && !rules[1].applies_to("sample/1")
    );

    let Expectation::Rules(rules) = &submission(&package, "wrong_answer/modulo.py").expectation
    else {
        panic!()
    };
    assert_eq!(
        rules[0].permitted.as_deref(),
        Some(&[AC, Verdict::WrongAnswer][..])
    );
    assert_eq!(rules[1].score, Some((0.0, 40.0)));
    let walk = submission(&package, "time_limit_exceeded/walk.py");
    assert_eq!(walk.time_limit_bound, TimeLimitBound::Upper);
    let Expectation::Rules(rules) = &walk.expectation else {
        panic!()
    };
    assert_eq!(rules[1].tests.as_deref(), Some("sample"));
    assert_eq!(
        submission(&package, "run_time_error/table.cpp").time_limit_bound,
        TimeLimitBound::Lower
    );
}

#[test]
fn folders_are_recognised_by_their_manifest() {
    assert_eq!(package_kind(&fixture("nimmove")), Some(PackageKind::Kattis));
    assert_eq!(
        package_kind(&fixture("pebbles")),
        Some(PackageKind::Polygon)
    );
    let native = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/problems/sum");
    assert_eq!(package_kind(&native), Some(PackageKind::Native));
    assert!(read_package(&native).is_none());
    assert_eq!(package_kind(&fixture("pebbles").join("files")), None);
}
