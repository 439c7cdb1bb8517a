//! The Polygon reader on the fixture packages of `tests/fixtures/ecosystem/`.

use std::time::Duration;

use super::tests::{file_name, groups, names, read, submission};
use super::*;
use crate::verdict::Verdict;

/// The name, scoring (its tests carry points) and the `tests` testset's limits.
#[test]
fn polygon_package_name_scoring_and_limits() {
    let package = read("pebbles");
    assert_eq!(package.format, PackageFormat::Polygon);
    assert_eq!(package.name, "Pebbles");
    assert!(package.scoring);
    assert_eq!(
        package.limits.time,
        TimeLimitRule::Fixed {
            limit: Duration::from_secs(1),
            origin: "problem.xml line 12 (<testset name=\"tests\"> <time-limit>)".to_string()
        }
    );
    assert_eq!(package.limits.memory, Some(268_435_456));
}

/// The tests in order, each with its answer, points, generator command
/// and validator arguments.
#[test]
fn polygon_tests_with_answers_points_commands_and_validator_args() {
    let package = read("pebbles");
    assert_eq!(
        names(&package),
        ["01", "02", "03", "04", "05", "06", "07", "08", "09"]
    );
    assert!(package.tests[1].sample && !package.tests[2].sample);
    assert_eq!(file_name(&package.tests[6].answer), "07.a");
    assert_eq!(package.tests[6].points, Some(20.0));
    assert_eq!(
        package.tests[6].generator_command.as_deref(),
        Some("gen 100000 1000000000000000000 1000000000000000000 1")
    );
    assert_eq!(
        package.tests[2]
            .input_validator_args
            .for_validator("val.cpp"),
        ["--testset", "tests", "--group", "small"]
    );
}

/// The groups with their points policy, points and dependencies.
#[test]
fn polygon_groups_with_points_policy_and_dependencies() {
    let package = read("pebbles");
    let groups = groups(&package);
    let small = ["small".to_string()];
    assert_eq!(
        groups,
        [
            (
                "samples",
                Aggregation::PassFail,
                MaxScore::Bounded(0.0),
                &[][..]
            ),
            ("small", Aggregation::Sum, MaxScore::Bounded(40.0), &[][..]),
            (
                "large",
                Aggregation::PassFail,
                MaxScore::Bounded(60.0),
                &small[..]
            ),
        ]
    );
}

/// The testlib checker, built with the typed resources (testlib.h), not
/// those for statements only (olymp.sty).
#[test]
fn polygon_checker_built_with_typed_resources_only() {
    let package = read("pebbles");
    let OutputJudging::TestlibChecker {
        checker,
        points_are_percent: false,
    } = &package.output
    else {
        panic!("{:?}", package.output)
    };
    assert_eq!(checker.language, "cpp");
    assert!(
        checker
            .extra_files
            .iter()
            .any(|f| file_name(f) == "testlib.h")
    );
    assert!(
        !checker
            .extra_files
            .iter()
            .any(|f| file_name(f) == "olymp.sty")
    );
}

/// The testlib validator, the generators (the executables left over) and
/// the self-tests of the validator and the checker.
#[test]
fn polygon_validator_generators_and_self_tests() {
    let package = read("pebbles");
    let [
        InputValidator::Program {
            protocol: ValidatorProtocol::Testlib,
            ..
        },
    ] = package.input_validators.as_slice()
    else {
        panic!()
    };
    assert_eq!(
        package
            .generators
            .iter()
            .map(|g| g.name.as_str())
            .collect::<Vec<_>>(),
        ["gen"]
    );
    let validity: Vec<bool> = package.self_tests.inputs.iter().map(|t| t.valid).collect();
    assert_eq!(validity, [false, true, false]);
    let checks: Vec<Verdict> = package
        .self_tests
        .outputs
        .iter()
        .map(|t| t.expected)
        .collect();
    assert_eq!(
        checks,
        [
            Verdict::WrongAnswer,
            Verdict::Accepted,
            Verdict::PresentationError
        ]
    );
}

/// The solutions, their tags and what a tag promises.
#[test]
fn polygon_solutions_with_their_tags() {
    let package = read("pebbles");
    let tags: Vec<(&str, &str)> = package
        .submissions
        .iter()
        .map(|s| {
            (
                s.program.name.as_str(),
                s.origin.rsplit("tag ").next().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tags,
        [
            ("solutions/main.cpp", "main"),
            ("solutions/ok.py", "accepted"),
            ("solutions/wrong-mod.cpp", "wrong-answer"),
            ("solutions/twice.cpp", "presentation-error"),
            ("solutions/slow.py", "time-limit-exceeded"),
            ("solutions/scan.cpp", "time-limit-exceeded-or-accepted"),
            ("solutions/table.cpp", "rejected"),
        ]
    );
    assert!(package.submissions[0].model_solution);
    let Expectation::Rules(rules) = &package.submissions[3].expectation else {
        panic!()
    };
    assert_eq!(
        rules[0].required.as_deref(),
        Some(&[Verdict::PresentationError][..])
    );
    assert_eq!(package.submissions[1].program.language, "python3");
}

#[test]
fn polygon_interactive_package() {
    let package = read("countdown");
    assert_eq!(package.interaction, Interaction::Interactive);
    assert!(!package.scoring);
    let OutputJudging::TestlibInteractor {
        interactor,
        checker,
    } = &package.output
    else {
        panic!("{:?}", package.output)
    };
    assert_eq!(file_name(&interactor.entry), "interactor.cpp");
    assert_eq!(file_name(&checker.entry), "check.cpp");
    assert!(
        interactor
            .extra_files
            .iter()
            .any(|f| file_name(f) == "testlib.h")
    );
    assert!(package.generators.is_empty());
    assert_eq!(package.submissions.len(), 5);
    assert_eq!(
        submission(&package, "solutions/ponder.c").program.language,
        "c"
    );
}
