//! The validated problem spec: every default applied, every cross-key rule
//! checked (`from_toml.rs` reads `problem.toml` into it, `lower.rs` a
//! Kattis or Polygon package). Nothing past this module sees raw TOML.

use std::path::PathBuf;
use std::time::Duration;

use super::kind::JudgingKind;
use crate::compare::TokenOptions;
use crate::sandbox::Limits;
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
    /// A file handed in from outside the package, built with these files
    /// (an IOI task's grader and its headers) as its entry: read as
    /// `Submitted` is (hostile), and built as `solution.<ext>`.
    pub submitted: Option<PathBuf>,
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
    /// CMS's checkers ("comparators"): `checker input answer output`,
    /// writing the fraction of the test's points (0 to 1) on stdout and a
    /// message on stderr, exit 0.
    Cms,
    /// CMS's Communication manager, the interactor of its task: run as
    /// `manager from_solution to_solution < input` (two FIFOs), it writes
    /// the fraction and the message as CMS's checkers do.
    CmsManager { user_io: UserIo },
}

/// How a Communication task's solution reaches the manager: the package
/// formats read it, so it is theirs.
pub use crate::formats::UserIo;

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

    /// The referee a person can play against (`judge play`, the play
    /// page): the interactor, unless it is a CMS manager, which talks to a
    /// solution through FIFOs only.
    pub fn playable_referee(&self) -> Option<&ToolSpec> {
        self.interactor
            .as_ref()
            .filter(|i| !matches!(i.protocol, Protocol::CmsManager { .. }))
    }

    /// The checker of what an interactor writes, when the problem judges it
    /// with one: a testlib interactor's output file, or a CMS manager's
    /// stdout (TPS's `has_checker`).
    pub fn output_checker(&self) -> Option<&ToolSpec> {
        match (&self.interactor, &self.compare.mode) {
            (Some(interactor), CompareMode::Checker(checker))
                if matches!(
                    interactor.protocol,
                    Protocol::Testlib | Protocol::CmsManager { .. }
                ) =>
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
}
