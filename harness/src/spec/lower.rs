//! A Kattis or Polygon package, as a reader returns it, turned into the
//! spec the judge runs: the same tests, limits and judging program, with
//! what `problem.toml` has no words for kept in `ProblemSpec::package`.

use std::sync::Arc;
use std::time::Duration;

use super::SpecError;
use super::kind::JudgingKind;
use super::problem::{
    CompareMode, CompareSpec, DEFAULT_MEMORY, DEFAULT_OUTPUT, ProblemSpec, ProgramRef, Protocol,
    ScoreAggregate, SolutionSpec, SourceSet, TestCase, ToolSpec,
};
use crate::formats::{
    Constants, Expectation, Interaction, OutputJudging, Package, PackageFormat, Program,
};
use crate::sandbox::Limits;

/// The spec of `package`, judged with the CPU time limit `time` (see
/// `formats::derive`: Kattis packages learn theirs from their own
/// accepted submissions, so a first run uses a provisional one).
pub(crate) fn lower(package: Arc<Package>, time: Duration) -> Result<ProblemSpec, SpecError> {
    let kind = match package.interaction {
        Interaction::Batch => JudgingKind::Batch,
        Interaction::Interactive => JudgingKind::Interactive,
        Interaction::MultiPass {
            passes,
            interactive,
        } => JudgingKind::MultiPass {
            passes,
            interactive,
        },
        Interaction::SubmitAnswer => JudgingKind::OutputOnly,
    };
    let (mode, interactor) = judging_programs(&package, &kind)?;
    let limits = Limits {
        time,
        wall: Limits::default_wall(time),
        memory: package.limits.memory.unwrap_or(DEFAULT_MEMORY),
        output: package.limits.output.unwrap_or(DEFAULT_OUTPUT),
    };
    Ok(ProblemSpec {
        id: package.id.clone(),
        title: package.name.clone(),
        source: None,
        dir: package.dir.clone(),
        limits,
        compare: CompareSpec { mode },
        validator: None,
        interactor,
        answers: None,
        generator: None,
        aggregate: ScoreAggregate::Sum,
        solutions: solutions(&package, &kind),
        tests: tests(&package),
        static_tests: static_tests(&package),
        stress: Default::default(),
        // Kattis' default validator has no presentation error; Polygon's
        // testlib checkers do.
        presentation_errors: package.format == PackageFormat::Polygon,
        kind,
        package: Some(package),
    })
}

/// How a package's outputs are judged, and its interactor: a multi-pass
/// problem's passes are batch or interactive runs (see
/// `runner::multipass`), its judging programs are theirs.
fn judging_programs(
    package: &Package,
    kind: &JudgingKind,
) -> Result<(CompareMode, Option<ToolSpec>), SpecError> {
    let unsupported = |what: &str| {
        SpecError::Package(format!(
            "{}: {what} is not supported by this judge",
            package.dir.display()
        ))
    };
    let tool = |program: &Program, protocol| ToolSpec {
        program: package_program(package, program),
        args: Vec::new(),
        protocol,
    };
    Ok(match (&package.output, kind.is_interactive()) {
        (OutputJudging::KattisDefault, false) => (CompareMode::KattisFlags, None),
        (OutputJudging::KattisValidator(program), false) => {
            (CompareMode::Checker(tool(program, Protocol::Kattis)), None)
        }
        (OutputJudging::KattisValidator(program), true) => (
            CompareMode::KattisFlags,
            Some(tool(program, Protocol::Kattis)),
        ),
        (OutputJudging::TestlibChecker { checker, .. }, false) => {
            (CompareMode::Checker(tool(checker, Protocol::Testlib)), None)
        }
        (OutputJudging::CmsChecker(checker), false) => {
            (CompareMode::Checker(tool(checker, Protocol::Cms)), None)
        }
        (
            OutputJudging::CmsManager {
                manager,
                user_io,
                checker,
            },
            true,
        ) => (
            checker
                .as_ref()
                .map_or(CompareMode::KattisFlags, |checker| {
                    CompareMode::Checker(tool(checker, Protocol::Cms))
                }),
            Some(tool(manager, Protocol::CmsManager { user_io: *user_io })),
        ),
        (
            OutputJudging::TestlibInteractor {
                interactor,
                checker,
            },
            true,
        ) => (
            CompareMode::Checker(tool(checker, Protocol::Testlib)),
            Some(tool(interactor, Protocol::Testlib)),
        ),
        (_, true) => return Err(unsupported("an interactive problem without an interactor")),
        (OutputJudging::TestlibInteractor { .. } | OutputJudging::CmsManager { .. }, false) => {
            return Err(unsupported("an interactor in a batch problem"));
        }
    })
}

/// A package's tests; one outside a group is a sample or secret.
fn tests(package: &Package) -> Vec<TestCase> {
    package
        .tests
        .iter()
        .map(|test| TestCase {
            name: test.name.clone(),
            group: match (&test.group, test.sample) {
                (Some(group), _) => group.clone(),
                (None, true) => "sample".into(),
                (None, false) => "secret".into(),
            },
            input: test.input.clone(),
            answer: test.answer.clone(),
            args: test.args.clone(),
            checker_args: test.output_validator_args.clone(),
            files: test.files_dir.clone(),
            static_validation: None,
        })
        .collect()
}

/// A package's static validation test cases (Kattis 2025-09).
fn static_tests(package: &Package) -> Vec<TestCase> {
    package
        .static_cases
        .iter()
        .map(|case| TestCase {
            name: case.name.clone(),
            group: case.group.clone(),
            static_validation: Some(case.args.clone()),
            ..TestCase::default()
        })
        .collect()
}

/// The package's submissions that are run, each by its index in the
/// package.
fn solutions(package: &Package, kind: &JudgingKind) -> Vec<SolutionSpec> {
    package
        .submissions
        .iter()
        .enumerate()
        .filter(|(_, s)| s.expectation != Expectation::NotRun)
        .map(|(index, submission)| SolutionSpec {
            program: match kind {
                // An answer set is read, never built.
                JudgingKind::OutputOnly => ProgramRef::Answers {
                    path: submission.program.path.clone(),
                    name: submission.program.name.clone(),
                    submitted: false,
                },
                _ => package_program(package, &submission.program),
            },
            expect: Vec::new(),
            score: None,
            package_submission: Some(index),
        })
        .collect()
}

/// A program outside the package's own list (a BAPCtools generator): its
/// sources and the files beside them, no `include/`, and the package's
/// `{{constants}}` substituted (none given: none), as BAPCtools does.
pub(crate) fn with_constants(program: &Program, constants: &Constants) -> ProgramRef {
    ProgramRef::Sources(Arc::new(SourceSet {
        name: program.name.clone(),
        language: language_key(&program.language).to_string(),
        sources: program.sources.clone(),
        entry: entry_of(program),
        beside: program.extra_files.clone(),
        constants: constant_pairs(constants),
        submitted: None,
    }))
}

/// Every `name`, `name.value` and `name.variant` with its value.
pub(crate) fn constant_pairs(constants: &Constants) -> Vec<(String, String)> {
    constants
        .values
        .iter()
        .flat_map(|(name, constant)| {
            let value = constant.value.clone();
            [
                (name.clone(), value.clone()),
                (format!("{name}.value"), value),
            ]
            .into_iter()
            .chain(
                constant
                    .variants
                    .iter()
                    .map(move |(variant, value)| (format!("{name}.{variant}"), value.clone())),
            )
        })
        .collect()
}

/// A package program as the builder takes it: its sources, the files
/// beside them (headers, and the package's `include/` files for its
/// language, which replace same-named ones), and its constants.
pub(crate) fn package_program(package: &Package, program: &Program) -> ProgramRef {
    ProgramRef::Sources(Arc::new(source_set(package, program)))
}

fn source_set(package: &Package, program: &Program) -> SourceSet {
    // Polygon's include folders hold exactly the resources already listed
    // beside the program, so the files are enough.
    let mut beside = program.extra_files.clone();
    let is_submission = package
        .submissions
        .iter()
        .any(|s| s.program.path == program.path);
    if is_submission {
        beside.extend(package.includes.for_language(&program.language));
    }
    let constants = match program.substitute_constants {
        false => Vec::new(),
        true => constant_pairs(&package.constants),
    };
    SourceSet {
        name: program.name.clone(),
        language: language_key(&program.language).to_string(),
        sources: program.sources.clone(),
        entry: entry_of(program),
        beside,
        constants,
        submitted: None,
    }
}

/// A folder with build/run scripts may write `run` itself: `build` is
/// then the file the set is known by.
fn entry_of(program: &Program) -> std::path::PathBuf {
    match program.entry.exists() || program.language != "build-run" {
        true => program.entry.clone(),
        false => program.entry.with_file_name("build"),
    }
}

/// Our language table's key for a Kattis language code; codes the table
/// does not know stay as they are, and the builder names them.
pub(crate) fn language_key(kattis: &str) -> &str {
    match kattis {
        "python3" => "python",
        "pypy3" => "pypy",
        other => other,
    }
}
