//! The validated problem spec: every default applied, every cross-key rule
//! checked. Nothing past this module sees raw TOML.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::kind::JudgingKind;
use super::raw::{RawAggregate, RawCompareMode, RawKind, RawProblem, RawProtocol, RawTool};
use crate::compare::TokenOptions;
use crate::errors::SpecError;
use crate::verdict::Verdict;

pub(super) const DEFAULT_TIME: Duration = Duration::from_secs(1);
pub(super) const DEFAULT_MEMORY: u64 = 256 << 20;
pub(super) const DEFAULT_OUTPUT: u64 = 64 << 20;

#[derive(Debug, Clone)]
pub struct ProblemSpec {
    pub id: String,
    pub title: String,
    pub source: Option<String>,
    /// The package folder.
    pub dir: PathBuf,
    pub limits: Limits,
    pub compare: CompareSpec,
    pub validator: Option<ToolSpec>,
    /// Interactive problems: the referee the submission talks to. A Kattis
    /// interactor judges alone (`compare` is unused); a testlib interactor
    /// writes an output file, which `compare` then judges when it accepts.
    pub interactor: Option<ToolSpec>,
    /// Writes a test's `.ans` from its `.in` (stdin to stdout), for problems
    /// whose reference cannot (interactive ones); else the reference does.
    pub answers: Option<ToolSpec>,
    pub generator: Option<(ProgramRef, Vec<GeneratedTest>)>,
    pub aggregate: ScoreAggregate,
    pub solutions: Vec<SolutionSpec>,
    /// Samples first, then secret cases, each in lexicographic path order.
    pub tests: Vec<TestCase>,
    /// Kattis static validation test cases, judged before `tests` (kept
    /// apart: they have no input for validators, generators or samples).
    pub static_tests: Vec<TestCase>,
    /// How `judge stress` draws inputs (`[stress]`).
    pub stress: super::stress::StressSpec,
    /// A whitespace difference is a presentation error (else a wrong
    /// answer, as in Kattis packages, whose default validator has no PE).
    pub presentation_errors: bool,
    /// How a submission is judged on a test (batch, interactive,
    /// multi-pass, output-only), decided once at load.
    pub kind: JudgingKind,
    /// A Kattis or Polygon package judged as it is: what it holds beyond
    /// what `problem.toml` can say (groups, validators, expectations, the
    /// rule its time limit follows).
    pub(crate) package: Option<std::sync::Arc<crate::formats::Package>>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time: decides TLE.
    pub time: Duration,
    /// Wall-clock backstop for programs that sleep or block.
    pub wall: Duration,
    /// Peak memory in bytes: decides MLE.
    pub memory: u64,
    /// stdout + stderr in bytes: decides OLE.
    pub output: u64,
}

impl Limits {
    /// The wall backstop when none is given: max(2×time, time+1s).
    pub fn default_wall(time: Duration) -> Duration {
        (time * 2).max(time + Duration::from_secs(1))
    }
}

#[derive(Debug, Clone)]
pub enum CompareMode {
    Tokens(TokenOptions),
    /// The Kattis default output validator with each test's flags
    /// (`TestCase::checker_args`), read when the test is judged.
    KattisFlags,
    Exact,
    Checker(ToolSpec),
}

#[derive(Debug, Clone)]
pub struct CompareSpec {
    pub mode: CompareMode,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ProgramRef {
    /// A binary built from the Cargo workspace.
    Bin(String),
    /// A package's source file, compiled through the language table.
    File(PathBuf),
    /// A file handed in from outside any package (a learner's, a
    /// student's, a grader's): built like `File`, but hostile, so neither
    /// it nor a header beside it is read through a link, from a FIFO or a
    /// device, or past a size limit (see `untrusted`).
    Submitted(PathBuf),
    /// Several source files built together (a Kattis or Polygon program
    /// that is a folder, with headers beside its sources).
    Sources(std::sync::Arc<SourceSet>),
    /// An output-only problem's submission: a folder of answer files, one
    /// per test (or a lone file for a problem of one test), read and never
    /// run (see `runner::output_only`). `submitted`: handed in from
    /// outside the package, so read as hostile (no links, no FIFOs).
    Answers {
        path: PathBuf,
        /// How reports name it: `accepted/mine`, `answers/right`.
        name: String,
        submitted: bool,
    },
}

/// The files of a program built as one: every source of its language, the
/// files placed beside them (headers such as `validate.h` or `testlib.h`,
/// Kattis `include/` files), and the text substitutions to apply first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceSet {
    /// How reports name it: `accepted/split`, `output_validators/check`.
    pub name: String,
    /// A key of the language table (`c`, `cpp`, `python`, `java`, ...).
    pub language: String,
    /// Every source file of that language; all are compiled.
    pub sources: Vec<PathBuf>,
    /// The source an interpreter runs (Java: its stem is the main class).
    pub entry: PathBuf,
    /// Placed beside the sources, under their own file names (a file here
    /// with the name of a source replaces it: Kattis `include/` wins).
    pub beside: Vec<PathBuf>,
    /// `{{name}}` → value, replaced in every source and beside file before
    /// building (Kattis 2025-09 constants); empty for other packages.
    pub constants: Vec<(String, String)>,
}

impl ProgramRef {
    pub fn display_name(&self) -> String {
        match self {
            ProgramRef::Bin(name) => name.clone(),
            ProgramRef::File(path) | ProgramRef::Submitted(path) => path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            ProgramRef::Sources(set) => set.name.clone(),
            ProgramRef::Answers { name, .. } => name.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub program: ProgramRef,
    pub args: Vec<String>,
    pub protocol: Protocol,
}

/// How a checker, validator or interactor says what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// Kattis: exit 42 yes, 43 no; `feedback_dir/` for messages and scores.
    Kattis,
    /// testlib (Polygon, Codeforces): a checker runs as
    /// `checker input output answer`, exit 0 OK, 1 WA, 2 PE, 3 fail (JE),
    /// 7 points; a validator exits 0 for a valid input; an interactor runs
    /// as `interactor input output answer`, exits as a checker does, and
    /// writes the output file that the checker then judges.
    Testlib,
}

#[derive(Debug, Clone)]
pub struct GeneratedTest {
    /// Path under `data/` without extension, e.g. `secret/random/01`.
    pub name: String,
    pub args: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreAggregate {
    Sum,
    Min,
}

#[derive(Debug, Clone)]
pub struct SolutionSpec {
    pub program: ProgramRef,
    pub expect: Vec<Verdict>,
    pub score: Option<f64>,
    /// A Kattis or Polygon submission: its index in the package's
    /// `submissions`, whose expectation replaces `expect` and `score`.
    pub(crate) package_submission: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TestCase {
    /// Path under `data/` without extension: `sample/1`, `secret/large/03`.
    pub name: String,
    /// The folder under `data/`: `sample`, `secret`, `secret/large`.
    pub group: String,
    pub input: PathBuf,
    pub answer: PathBuf,
    /// Command-line arguments for the submission (Kattis `args`).
    pub args: Vec<String>,
    /// Arguments for the checker or interactor on this test, after the
    /// problem's own (Kattis `output_validator_args`; for the default
    /// comparison, its flags).
    pub checker_args: Vec<String>,
    /// A folder whose files are copied into the run's working folder
    /// (Kattis `<test>.files/`).
    pub files: Option<PathBuf>,
    /// A Kattis static validation test case (no input: the static
    /// validator judges the submission's files), with its arguments.
    pub static_validation: Option<Vec<String>>,
}

impl TestCase {
    /// Whether the test is a sample (by the one rule,
    /// `formats::is_sample_group`).
    pub fn is_sample(&self) -> bool {
        crate::formats::is_sample_group(&self.group)
    }
}

impl ProblemSpec {
    /// A file or folder handed in for this problem: an answer set on an
    /// output-only problem, else a program.
    pub fn submitted(&self, path: PathBuf) -> ProgramRef {
        match self.kind.is_output_only() {
            true => ProgramRef::Answers {
                name: path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                ),
                path,
                submitted: true,
            },
            false => ProgramRef::Submitted(path),
        }
    }

    /// The package program that judges a run: the interactor of an
    /// interactive problem, or the checker.
    pub fn judging_program(&self) -> Option<&ToolSpec> {
        match (&self.interactor, &self.compare.mode) {
            (Some(interactor), _) => Some(interactor),
            (None, CompareMode::Checker(checker)) => Some(checker),
            (None, _) => None,
        }
    }

    /// The checker of the output file a testlib interactor writes, when the
    /// problem judges that file with one.
    pub fn output_checker(&self) -> Option<&ToolSpec> {
        match (&self.interactor, &self.compare.mode) {
            (Some(interactor), CompareMode::Checker(checker))
                if interactor.protocol == Protocol::Testlib =>
            {
                Some(checker)
            }
            _ => None,
        }
    }

    /// Every package program that judges a run: the checker, or the
    /// interactor and the checker of its output file.
    pub fn judging_programs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.judging_program()
            .into_iter()
            .chain(self.output_checker())
    }

    /// Every program the package names: its solutions, judging programs,
    /// validator, answers program and generator.
    pub fn programs(&self) -> Vec<&ProgramRef> {
        let mut all: Vec<&ProgramRef> = self.solutions.iter().map(|s| &s.program).collect();
        all.extend(self.judging_programs().map(|tool| &tool.program));
        all.extend(self.validator.iter().map(|v| &v.program));
        all.extend(self.answers.iter().map(|a| &a.program));
        all.extend(self.generator.iter().map(|(g, _)| g));
        all
    }

    /// Validates a parsed `problem.toml`. `text` is the file's contents, for
    /// turning spans into line numbers.
    pub(crate) fn from_raw(
        raw: RawProblem,
        dir: &Path,
        manifest: &Path,
        text: &str,
        tests: Vec<TestCase>,
    ) -> Result<ProblemSpec, SpecError> {
        let at = |span: std::ops::Range<usize>, key: &str, message: String| SpecError::Invalid {
            path: manifest.to_path_buf(),
            line: line_of(text, span.start),
            key: key.to_string(),
            message,
        };
        let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if folder.as_deref() != Some(raw.id.get_ref().as_str()) {
            return Err(at(
                raw.id.span(),
                "id",
                format!(
                    "id `{}` must equal the folder name `{}`",
                    raw.id.get_ref(),
                    folder.unwrap_or_default()
                ),
            ));
        }

        let time = raw.limits.time.unwrap_or(DEFAULT_TIME);
        let limits = Limits {
            time,
            wall: raw
                .limits
                .wall
                .unwrap_or_else(|| Limits::default_wall(time)),
            memory: raw.limits.memory.unwrap_or(DEFAULT_MEMORY),
            output: raw.limits.output.unwrap_or(DEFAULT_OUTPUT),
        };
        if limits.wall < limits.time {
            return Err(SpecError::Invalid {
                path: manifest.to_path_buf(),
                line: line_of_key(text, "wall"),
                key: "limits.wall".into(),
                message: "the wall backstop must not be shorter than the CPU time limit".into(),
            });
        }

        let tool = |raw: RawTool, key: &str| -> Result<ToolSpec, SpecError> {
            let program =
                program_ref(raw.bin, raw.file, dir).map_err(|error| SpecError::Invalid {
                    path: manifest.to_path_buf(),
                    line: line_of_key(text, &format!("[{key}]")),
                    key: key.to_string(),
                    message: error.to_string(),
                })?;
            if raw.protocol == RawProtocol::Testlib
                && !matches!(key, "checker" | "validator" | "interactor")
            {
                return Err(SpecError::Invalid {
                    path: manifest.to_path_buf(),
                    line: line_of_key(text, &format!("[{key}]")),
                    key: format!("{key}.protocol"),
                    message:
                        "the testlib protocol is read for checkers, validators and interactors only"
                            .into(),
                });
            }
            Ok(ToolSpec {
                program,
                args: raw.args,
                protocol: match raw.protocol {
                    RawProtocol::Kattis => Protocol::Kattis,
                    RawProtocol::Testlib => Protocol::Testlib,
                },
            })
        };

        let compare = &raw.compare;
        let tolerance = |value: &Option<toml::Spanned<f64>>, key: &str| match value {
            Some(v) if !(v.get_ref().is_finite() && *v.get_ref() >= 0.0) => Err(at(
                v.span(),
                key,
                "a tolerance must be a finite number ≥ 0".into(),
            )),
            Some(v) => Ok(Some(*v.get_ref())),
            None => Ok(None),
        };
        let mut abs = tolerance(
            &compare.float_absolute_tolerance,
            "compare.float-absolute-tolerance",
        )?;
        let mut rel = tolerance(
            &compare.float_relative_tolerance,
            "compare.float-relative-tolerance",
        )?;
        if let Some(both) = tolerance(&compare.float_tolerance, "compare.float-tolerance")? {
            if abs.is_some() || rel.is_some() {
                let span = compare
                    .float_tolerance
                    .as_ref()
                    .map(toml::Spanned::span)
                    .unwrap_or_default();
                return Err(at(
                    span,
                    "compare.float-tolerance",
                    "float-tolerance sets both tolerances; do not combine it with float-absolute-tolerance or float-relative-tolerance".into(),
                ));
            }
            abs = Some(both);
            rel = Some(both);
        }
        let token_options = TokenOptions {
            case_sensitive: compare.case_sensitive,
            space_change_sensitive: compare.space_change_sensitive,
            float_absolute: abs,
            float_relative: rel,
        };
        let has_checker = raw.checker.is_some();
        let mode_span = compare
            .mode
            .as_ref()
            .map(toml::Spanned::span)
            .unwrap_or_default();
        let mode = match compare.mode.as_ref().map(|m| *m.get_ref()) {
            None | Some(RawCompareMode::Tokens) => CompareMode::Tokens(token_options),
            Some(RawCompareMode::Exact) => CompareMode::Exact,
            Some(RawCompareMode::Checker) => match raw.checker {
                Some(checker) => CompareMode::Checker(tool(checker, "checker")?),
                None => {
                    return Err(at(
                        mode_span,
                        "compare.mode",
                        "mode = \"checker\" needs a [checker] table".into(),
                    ));
                }
            },
        };
        if !matches!(mode, CompareMode::Checker(_)) && has_checker {
            return Err(SpecError::Invalid {
                path: manifest.to_path_buf(),
                line: line_of_key(text, "[checker]"),
                key: "checker".into(),
                message: "a [checker] is only used with compare.mode = \"checker\"".into(),
            });
        }

        let validator = raw.validator.map(|v| tool(v, "validator")).transpose()?;
        // A testlib interactor's output file is judged by [compare], as a
        // batch submission's stdout is; a Kattis interactor judges alone.
        let kattis_interactor = raw
            .interactor
            .as_ref()
            .is_some_and(|i| i.protocol == RawProtocol::Kattis);
        if kattis_interactor && compare.mode.is_some() {
            return Err(at(
                mode_span,
                "compare.mode",
                "a Kattis interactor judges alone; remove [compare] (with interactor.protocol = \"testlib\", [compare] judges the interactor's output file)".into(),
            ));
        }
        let interactor = raw.interactor.map(|t| tool(t, "interactor")).transpose()?;
        let answers = raw.answers.map(|t| tool(t, "answers")).transpose()?;
        let generator = match raw.generator {
            None => None,
            Some(generator) => {
                let program = program_ref(generator.bin, generator.file, dir).map_err(|error| {
                    SpecError::Invalid {
                        path: manifest.to_path_buf(),
                        line: line_of_key(text, "[generator]"),
                        key: "generator".into(),
                        message: error.to_string(),
                    }
                })?;
                let mut tests = Vec::new();
                for test in generator.tests {
                    let span = test.span();
                    let test = test.into_inner();
                    if test.name.is_empty()
                        || test.name.contains("..")
                        || test.name.starts_with('/')
                        || !(test.name.starts_with("sample/") || test.name.starts_with("secret/"))
                    {
                        return Err(at(
                            span,
                            "generator.tests.name",
                            format!(
                                "test name `{}` must be a path under data/ starting with sample/ or secret/",
                                test.name
                            ),
                        ));
                    }
                    tests.push(GeneratedTest {
                        name: test.name,
                        args: test.args,
                    });
                }
                Some((program, tests))
            }
        };

        let output_only = raw
            .kind
            .as_ref()
            .is_some_and(|kind| *kind.get_ref() == RawKind::OutputOnly);
        if let (true, Some(kind)) = (output_only && interactor.is_some(), &raw.kind) {
            return Err(at(
                kind.span(),
                "kind",
                "an output-only problem runs no program: it cannot have an [interactor]".into(),
            ));
        }
        let mut solutions = Vec::new();
        for solution in raw.solutions {
            let span = solution.span();
            let solution = solution.into_inner();
            let program = match (output_only, solution.bin, solution.file) {
                // An output-only problem's solutions are answer sets.
                (true, None, Some(file)) => ProgramRef::Answers {
                    name: file.display().to_string(),
                    path: dir.join(file),
                    submitted: false,
                },
                (true, ..) => {
                    return Err(at(
                        span,
                        "solution",
                        "an output-only problem's solution is a folder of answer files: give `file = \"<folder>\"`".into(),
                    ));
                }
                (false, bin, file) => program_ref(bin, file, dir)
                    .map_err(|error| at(span.clone(), "solution", error.to_string()))?,
            };
            solutions.push(SolutionSpec {
                program,
                expect: solution.expect,
                score: solution.score,
                package_submission: None,
            });
        }

        let stress = super::stress::StressSpec::from_raw(raw.stress, generator.is_some())
            .map_err(|(span, error)| at(span, "stress.args", error.to_string()))?;

        let kind = match (output_only, &interactor) {
            (true, _) => JudgingKind::OutputOnly,
            (false, Some(_)) => JudgingKind::Interactive,
            (false, None) => JudgingKind::Batch,
        };
        Ok(ProblemSpec {
            title: raw.title.unwrap_or_else(|| raw.id.get_ref().clone()),
            id: raw.id.into_inner(),
            source: raw.source,
            dir: dir.to_path_buf(),
            limits,
            compare: CompareSpec { mode },
            validator,
            interactor,
            answers,
            generator,
            aggregate: match raw.scoring.aggregate {
                Some(RawAggregate::Min) => ScoreAggregate::Min,
                Some(RawAggregate::Sum) | None => ScoreAggregate::Sum,
            },
            solutions,
            tests,
            static_tests: Vec::new(),
            stress,
            presentation_errors: true,
            kind,
            package: None,
        })
    }
}

/// Why a program table names no program.
#[derive(Debug, thiserror::Error)]
enum ProgramRefError {
    #[error("give either `bin` or `file`, not both")]
    Both,
    #[error("needs `bin = \"<workspace binary>\"` or `file = \"<source path>\"`")]
    Neither,
}

fn program_ref(
    bin: Option<String>,
    file: Option<PathBuf>,
    dir: &Path,
) -> Result<ProgramRef, ProgramRefError> {
    match (bin, file) {
        (Some(bin), None) if !bin.is_empty() => Ok(ProgramRef::Bin(bin)),
        (None, Some(file)) => Ok(ProgramRef::File(dir.join(file))),
        (Some(_), Some(_)) => Err(ProgramRefError::Both),
        _ => Err(ProgramRefError::Neither),
    }
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// 1-based line where `needle` first starts a line (a key or table header), or 1.
fn line_of_key(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|line| line.trim_start().starts_with(needle))
        .map_or(1, |i| i + 1)
}
