//! What the two IOI-style formats CMS reads have in common (`cms.rs`: the
//! Italian `task.yaml` layout; `tps.rs`: TPS's `problem.json`): a stated
//! time limit, tests in subtasks scored by CMS's `GroupMin` (a subtask's
//! points times the lowest fraction any of its tests got) or `Sum` (each
//! test its share), a checker in CMS's protocol or CMS's `white-diff` (or,
//! in a Communication task, a manager talking to the solution), and
//! solutions built alone or with the task's C++ grader (or stub).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::error::{FormatError, FormatResult};
use super::package::UserIo;
use super::package::{
    Aggregation, Constants, Expectation, Includes, Interaction, MaxScore, OutputJudging, Package,
    PackageFormat, PackageLimits, Program, SelfTests, Submission, SubmissionRules, TaskGrader,
    TestCase, TestGroup, TimeLimitBound, ValidatorArgs,
};
use super::program::{ProgramHints, read_program};

/// What both readers gather before the package is assembled.
pub(super) struct IoiTask {
    pub(super) format: PackageFormat,
    pub(super) dir: PathBuf,
    pub(super) name: String,
    pub(super) time_limit: (Duration, String),
    pub(super) memory_mib: Option<u64>,
    pub(super) tests: Vec<TestCase>,
    pub(super) groups: Vec<TestGroup>,
    pub(super) checker: Option<Program>,
    /// A Communication task's manager and how solutions reach it: the
    /// task is then interactive, and `checker`, if any, judges the
    /// manager's output (TPS's `has_checker`).
    pub(super) manager: Option<(Program, UserIo)>,
    /// The grader (or stub) the solutions are built with, and so any
    /// file handed in for the task.
    pub(super) grader: Option<TaskGrader>,
    pub(super) submissions: Vec<Submission>,
    pub(super) warnings: Vec<String>,
}

/// A test read from the task's files: its input and its correct output,
/// in `group` (a subtask), compared as CMS's `white-diff` compares when
/// there is no checker (whitespace-insensitive, case-sensitive).
pub(super) fn test_case(name: String, input: PathBuf, answer: PathBuf, group: &str) -> TestCase {
    TestCase {
        name,
        input,
        answer,
        sample: false,
        group: Some(group.to_string()),
        symlink_target: None,
        files_dir: None,
        args: Vec::new(),
        input_validator_args: ValidatorArgs::None,
        answer_validator_args: ValidatorArgs::None,
        output_validator_args: vec!["case_sensitive".to_string()],
        output_visualizer_args: Vec::new(),
        points: None,
        generator_command: None,
        description: None,
        hint: None,
    }
}

/// A subtask: CMS's `GroupMin` (its points times the lowest fraction of
/// its tests) or, for a task without subtasks, `Sum` (each test its
/// share of the total).
pub(super) fn subtask(name: &str, points: f64, aggregation: Aggregation) -> TestGroup {
    TestGroup {
        name: name.to_string(),
        parent: None,
        aggregation,
        max_score: MaxScore::Bounded(points),
        require_pass: Vec::new(),
        legacy: None,
    }
}

/// A checker or a manager at `path`, a C++ source speaking CMS's
/// protocol: a checker runs as `checker input correct_output
/// contestant_output`, a Communication task's manager as `manager
/// from_solution to_solution < input` (two FIFOs), and either writes a
/// fraction from 0 to 1 on stdout, a message on stderr. The headers
/// beside it (TPS's `testlib.h`) are built with it.
pub(super) fn cms_program(path: &Path) -> FormatResult<Program> {
    let mut program = read_program(path, &file_name(path), &ProgramHints::default())?;
    let folder = path.parent().unwrap_or(Path::new("."));
    program.extra_files.extend(headers_in(folder));
    Ok(program)
}

/// The C and C++ headers of `dir`.
fn headers_in(dir: &Path) -> Vec<PathBuf> {
    files_in(dir)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "h" || e == "hpp"))
        .collect()
}

/// A solution at `path` (named `name` in reports), built with `grader`'s
/// files when the task has a grader for its language: the grader's
/// sources are compiled with it and its headers placed beside it. A
/// solution in a language the grader is not written in cannot run.
pub(super) fn solution(
    path: &Path,
    name: &str,
    grader: Option<&TaskGrader>,
) -> FormatResult<Result<Program, String>> {
    let mut program = read_program(path, name, &ProgramHints::default())?;
    let Some(grader) = grader else {
        return Ok(Ok(program));
    };
    if program.language != grader.language {
        return Ok(Err(format!(
            "{name}: the task's grader is in {}, not {}: not run",
            grader.language, program.language
        )));
    }
    program.sources.extend(grader.sources.iter().cloned());
    program.sources.sort();
    program.extra_files.extend(grader.headers.iter().cloned());
    program.include_dirs.push(grader.dir.clone());
    Ok(Ok(program))
}

/// The C++ grader `file` in `dir` (`grader.cpp`, or a Communication
/// task's `stub.cpp`) and the headers beside it, if there is one.
pub(super) fn cpp_grader(dir: &Path, file: &str) -> Option<TaskGrader> {
    let grader = dir.join(file);
    if !grader.is_file() {
        return None;
    }
    Some(TaskGrader {
        language: "cpp".to_string(),
        sources: vec![grader],
        headers: headers_in(dir),
        dir: dir.to_path_buf(),
    })
}

/// A submission that must get `expectation`, said by `origin`; a model
/// solution bounds nothing: the limit is stated.
pub(super) fn submission(program: Program, expectation: Expectation, origin: String) -> Submission {
    Submission {
        program,
        expectation,
        origin,
        model_solution: false,
        time_limit_bound: TimeLimitBound::None,
    }
}

/// The files of `dir`, sorted (none if it cannot be read).
pub(super) fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A file the task needs, or an error naming it.
pub(super) fn required(path: PathBuf) -> FormatResult<PathBuf> {
    match path.is_file() {
        true => Ok(path),
        false => Err(FormatError::file(&path, "is missing")),
    }
}

impl IoiTask {
    /// The package the judge runs.
    pub(super) fn into_package(self) -> Package {
        let id = file_name(&self.dir);
        let (limit, origin) = self.time_limit;
        let (interaction, output) = match (self.manager, self.checker) {
            (Some((manager, user_io)), checker) => (
                Interaction::Interactive,
                OutputJudging::CmsManager {
                    manager,
                    user_io,
                    checker,
                },
            ),
            (None, Some(checker)) => (Interaction::Batch, OutputJudging::CmsChecker(checker)),
            (None, None) => (Interaction::Batch, OutputJudging::KattisDefault),
        };
        Package {
            format: self.format,
            dir: self.dir,
            id,
            name: self.name,
            interaction,
            scoring: true,
            limits: PackageLimits::time_and_memory(
                super::package::TimeLimitRule::Fixed { limit, origin },
                self.memory_mib.map(|mib| mib << 20),
            ),
            rules: SubmissionRules::default(),
            tests: self.tests,
            groups: self.groups,
            legacy_root: None,
            input_validators: Vec::new(),
            answer_validators: Vec::new(),
            output,
            submissions: self.submissions,
            generators: Vec::new(),
            constants: Constants::default(),
            includes: Includes::default(),
            grader: self.grader,
            output_visualizer: None,
            static_validator: None,
            static_cases: Vec::new(),
            self_tests: SelfTests::default(),
            warnings: self.warnings,
        }
    }
}
