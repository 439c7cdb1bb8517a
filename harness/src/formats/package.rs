//! What a package reader returns: plain data, the same shape for every
//! format, with paths resolved inside the package and every default of the
//! package's own format applied. Nothing here runs a program.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::verdict::Verdict;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PackageFormat {
    /// Kattis/ICPC without `problem_format_version` (problemtools' `legacy`).
    KattisLegacy,
    /// Kattis/ICPC `problem_format_version: 2023-07-draft`, read as
    /// problemtools reads it: the draft's `problem.yaml` and folder names,
    /// legacy test data groups (`testdata.yaml`) and submission folders.
    Kattis2023Draft,
    /// Kattis/ICPC `problem_format_version: 2025-09`.
    Kattis2025,
    /// A Polygon full package (`problem.xml`).
    Polygon,
    /// CMS's Italian task layout (`task.yaml`).
    CmsItalian,
    /// A TPS task (`problem.json`).
    Tps,
}

impl PackageFormat {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            PackageFormat::KattisLegacy => "Kattis (legacy)",
            PackageFormat::Kattis2023Draft => "Kattis (2023-07-draft)",
            PackageFormat::Kattis2025 => "Kattis (2025-09)",
            PackageFormat::Polygon => "Polygon",
            PackageFormat::CmsItalian => "CMS (Italian)",
            PackageFormat::Tps => "TPS",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Package {
    pub(crate) format: PackageFormat,
    /// The package folder.
    pub(crate) dir: PathBuf,
    /// The folder name: the problem's id for the judge.
    pub(crate) id: String,
    /// The display name (English when there are several).
    pub(crate) name: String,
    pub(crate) interaction: Interaction,
    /// Submissions get a score, not only a verdict.
    pub(crate) scoring: bool,
    pub(crate) limits: PackageLimits,
    /// Which languages a submission may use and whether it may write files.
    pub(crate) rules: SubmissionRules,
    /// In run order: samples first, then the rest in lexicographic order.
    pub(crate) tests: Vec<TestCase>,
    /// Parents before children; a test names the innermost group it is in.
    pub(crate) groups: Vec<TestGroup>,
    /// Legacy test data groups (legacy and 2023-07-draft packages): the
    /// `data/` folder's grading, the root of the default grader's tree
    /// (see `grader`). `None` for other packages.
    pub(crate) legacy_root: Option<LegacyGrading>,
    pub(crate) input_validators: Vec<InputValidator>,
    /// Validators of every test's `.ans` (BAPCtools' `answer_validators/`):
    /// programs run as `validator input [args] < answer`, and scripts.
    pub(crate) answer_validators: Vec<InputValidator>,
    pub(crate) output: OutputJudging,
    pub(crate) submissions: Vec<Submission>,
    /// Polygon generators (executables that are no checker, validator or
    /// interactor), by name without extension as used in test commands.
    pub(crate) generators: Vec<Program>,
    pub(crate) constants: Constants,
    pub(crate) includes: Includes,
    /// An IOI-style task's grader (or a Communication task's stub), built
    /// with every solution in its language, a file handed in too.
    pub(crate) grader: Option<TaskGrader>,
    /// 2025-09 `output_visualizer/`: run after the output is judged, its
    /// images kept, never judged.
    pub(crate) output_visualizer: Option<Program>,
    /// 2025-09 `static_validator/`: run on a submission's source files.
    pub(crate) static_validator: Option<Program>,
    /// Static validation test cases (`static_validation_score` of a
    /// group's `test_group.yaml`), in the order of their groups.
    pub(crate) static_cases: Vec<StaticCase>,
    pub(crate) self_tests: SelfTests,
    /// Things the package's own tools only warn about.
    pub(crate) warnings: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interaction {
    /// `.in` on stdin, stdout judged afterwards.
    Batch,
    /// The output validator (Kattis) or interactor (Polygon) talks to the
    /// submission through pipes; the submission never sees the input file.
    Interactive,
    /// Kattis multi-pass: re-run on `nextpass.in` up to `passes` times.
    MultiPass { passes: u32, interactive: bool },
    /// Kattis `submit-answer`: a submission is its answers, one file per
    /// test, judged by the output validator with no program run.
    SubmitAnswer,
}

/// 2025-09's rules for every submission beyond its limits (`languages`,
/// `allow_file_writing`). The default restricts nothing: packages of
/// other versions and formats have no such keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SubmissionRules {
    /// `languages:`, the language codes of the languages table; `None`:
    /// `all`.
    pub(crate) languages: Option<Vec<String>>,
    /// `allow_file_writing: false` (2025-09's default): the submission may
    /// only read in its working folder.
    pub(crate) read_only_folder: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PackageLimits {
    pub(crate) time: TimeLimitRule,
    /// Bytes; `None`: the judge's default.
    pub(crate) memory: Option<u64>,
    /// Bytes of stdout + stderr.
    pub(crate) output: Option<u64>,
    /// Bytes of submitted source.
    pub(crate) code: Option<u64>,
    pub(crate) compilation_time: Option<Duration>,
    pub(crate) compilation_memory: Option<u64>,
    /// For output validators, checkers and interactors.
    pub(crate) validation_time: Option<Duration>,
    pub(crate) validation_memory: Option<u64>,
    pub(crate) validation_output: Option<u64>,
}

impl PackageLimits {
    /// A time limit and a memory limit, and the judge's defaults for the
    /// rest (Polygon, CMS and TPS state no other).
    pub(crate) fn time_and_memory(time: TimeLimitRule, memory: Option<u64>) -> PackageLimits {
        PackageLimits {
            time,
            memory,
            output: None,
            code: None,
            compilation_time: None,
            compilation_memory: None,
            validation_time: None,
            validation_memory: None,
            validation_output: None,
        }
    }
}

/// How the package decides its CPU time limit (see `timing::derive`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TimeLimitRule {
    /// Given outright (Polygon `<time-limit>`): used as is.
    Fixed { limit: Duration, origin: String },
    /// Kattis: from the slowest accepted submission times `ac_to_time_limit`,
    /// rounded up to a multiple of `resolution`; `fixed`, when given, is
    /// checked against that instead. The fastest submission that must time
    /// out must need at least `limit × time_limit_to_tle`.
    FromSubmissions {
        fixed: Option<(Duration, String)>,
        ac_to_time_limit: f64,
        time_limit_to_tle: f64,
        /// Seconds.
        resolution: f64,
        /// Where the multipliers came from, e.g. `problem.yaml defaults (legacy)`.
        origin: String,
        /// Legacy packages only warn when the safety margin is not kept.
        margin_is_error: bool,
    },
}

/// The one sample rule: a test is a sample when its group (its folder
/// under `data/`) is `sample` or inside it. A Kattis test's `sample` flag
/// is read by it; a Polygon test marked sample outside every group is
/// lowered into the group `sample`; reports, scores and feedback ask
/// `spec::TestCase::is_sample` or `runner::TestReport::is_sample`, which
/// call it.
pub(crate) fn is_sample_group(group: &str) -> bool {
    group == "sample" || group.starts_with("sample/")
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TestCase {
    /// Kattis: the path under `data/` without `.in` (`secret/g1/01`);
    /// Polygon: the test number, two digits at least (`07`).
    pub(crate) name: String,
    pub(crate) input: PathBuf,
    pub(crate) answer: PathBuf,
    pub(crate) sample: bool,
    /// The innermost group (a name in `Package::groups`).
    pub(crate) group: Option<String>,
    /// Where a symlinked `.in` points (inside the package, checked).
    pub(crate) symlink_target: Option<PathBuf>,
    /// Kattis 2025-09 `<case>.files/`: copied into the submission's folder.
    pub(crate) files_dir: Option<PathBuf>,
    /// Command-line arguments for the submission.
    pub(crate) args: Vec<String>,
    pub(crate) input_validator_args: ValidatorArgs,
    /// Arguments of the answer validators (`answer_validator_args`).
    pub(crate) answer_validator_args: ValidatorArgs,
    pub(crate) output_validator_args: Vec<String>,
    /// Arguments of the output visualizer (2025-09).
    pub(crate) output_visualizer_args: Vec<String>,
    /// Polygon: the points this test is worth.
    pub(crate) points: Option<f64>,
    /// Polygon: the generator command that made this test.
    pub(crate) generator_command: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) hint: Option<String>,
}

/// `input_validator_args` / `input_validator_flags`: one list for every
/// validator, or a list per validator name (others get none).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum ValidatorArgs {
    #[default]
    None,
    Same(Vec<String>),
    PerValidator(BTreeMap<String, Vec<String>>),
}

impl ValidatorArgs {
    /// The arguments for the validator called `name` (file stem or folder).
    pub(crate) fn for_validator(&self, name: &str) -> &[String] {
        match self {
            ValidatorArgs::None => &[],
            ValidatorArgs::Same(args) => args,
            ValidatorArgs::PerValidator(map) => {
                let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
                map.get(name)
                    .or_else(|| map.get(stem))
                    .map_or(&[], Vec::as_slice)
            }
        }
    }
}

/// A group's static validation test case: the static validator on the
/// submission's files, judged as a test of the group.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StaticCase {
    /// `<group>/static_validation`: how reports name it.
    pub(crate) name: String,
    pub(crate) group: String,
    /// `static_validation_score`: its maximum score, or `None` for
    /// `pass-fail`.
    pub(crate) max_score: Option<f64>,
    /// `static_validator_args`.
    pub(crate) args: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TestGroup {
    /// Kattis: the path under `data/` (`sample`, `secret`, `secret/g1`);
    /// Polygon: the group's name.
    pub(crate) name: String,
    pub(crate) parent: Option<String>,
    pub(crate) aggregation: Aggregation,
    pub(crate) max_score: MaxScore,
    /// Groups (or `sample`) that must be all accepted for this one to score.
    pub(crate) require_pass: Vec<String>,
    /// Legacy Kattis `testdata.yaml` settings, inherited down the tree.
    pub(crate) legacy: Option<LegacyGrading>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aggregation {
    /// Full score only if every test is accepted.
    PassFail,
    Sum,
    Min,
    /// Legacy default grader only.
    Max,
    /// Legacy default grader only.
    Average,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum MaxScore {
    Bounded(f64),
    Unbounded,
}

/// Legacy `testdata.yaml` (problemtools' default grader).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LegacyGrading {
    /// `on_reject: break` (default) stops the group at its first rejection.
    pub(crate) stop_on_reject: bool,
    /// `grading: custom` (a grader program) is not supported; kept to say so.
    pub(crate) custom_grader: bool,
    pub(crate) grader_flags: Vec<String>,
    pub(crate) accept_score: f64,
    pub(crate) reject_score: f64,
    pub(crate) range: (f64, f64),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum InputValidator {
    Program {
        program: Program,
        protocol: ValidatorProtocol,
    },
    /// A checktestdata script (`.ctd`): exit 0 valid, 1 invalid.
    /// `substitute_constants`: replace `{{constants}}` in the script first
    /// (2025-09 packages).
    Checktestdata {
        path: PathBuf,
        name: String,
        substitute_constants: bool,
    },
    /// A VIVA script (`.viva`).
    Viva {
        path: PathBuf,
        name: String,
        substitute_constants: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValidatorProtocol {
    /// Exit 42 valid (Kattis).
    Kattis,
    /// Exit 0 valid, `--testset`/`--group` given (testlib).
    Testlib,
}

/// How a submission's output is judged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum OutputJudging {
    /// The Kattis default output validator; its flags are per test
    /// (`TestCase::output_validator_args`).
    KattisDefault,
    /// A Kattis output validator (exit 42/43), batch or interactive.
    KattisValidator(Program),
    /// A testlib checker: `check input output answer` (exit 0/1/2/3/7).
    TestlibChecker {
        checker: Program,
        /// Polygon's "treat points from checker as percent".
        points_are_percent: bool,
    },
    /// A checker in CMS's protocol (`checker input answer output`; the
    /// fraction of the test's points on stdout, a message on stderr).
    CmsChecker(Program),
    /// CMS's Communication manager (`manager from_solution to_solution <
    /// input`, two FIFOs; the fraction on stdout, a message on stderr),
    /// the interactor of its task, and how the solution reaches it. With
    /// `checker` (TPS's `has_checker`), the manager only reports: its
    /// stdout is judged by the checker as a batch output would be
    /// (`checker input answer manager_output`, CMS's protocol).
    CmsManager {
        manager: Program,
        user_io: UserIo,
        checker: Option<Program>,
    },
    /// A testlib interactor (`interactor input output answer`), then the
    /// checker on the interactor's output file.
    TestlibInteractor {
        interactor: Program,
        checker: Program,
    },
}

/// A program of the package or a submission: one source file, or a folder
/// of sources built together.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Program {
    /// Validators: the file or folder name. Submissions: the path under
    /// `submissions/` (Kattis) or under the package (Polygon).
    pub(crate) name: String,
    /// The file or folder in the package.
    pub(crate) path: PathBuf,
    /// A Kattis language code (`c`, `cpp`, `python3`, `java`, ...), or
    /// `build-run` for a folder with its own `build`/`run` scripts.
    pub(crate) language: String,
    /// Every source file of that language, sorted: all are compiled.
    pub(crate) sources: Vec<PathBuf>,
    /// The main file (what an interpreter runs; Java's main class comes
    /// from its stem).
    pub(crate) entry: PathBuf,
    /// Headers and other files to place beside the sources.
    pub(crate) extra_files: Vec<PathBuf>,
    /// Folders to put on the include path.
    pub(crate) include_dirs: Vec<PathBuf>,
    /// `{{constants}}` are substituted in every file before building
    /// (Kattis 2025-09 validators, submissions and included files).
    pub(crate) substitute_constants: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Submission {
    pub(crate) program: Program,
    pub(crate) expectation: Expectation,
    /// Where the expectation came from, for messages: `folder wrong_answer`,
    /// `submissions.yaml line 12`, `problem.xml line 80: tag wrong-answer`.
    pub(crate) origin: String,
    /// Kattis `model_solution`, Polygon `main`.
    pub(crate) model_solution: bool,
    pub(crate) time_limit_bound: TimeLimitBound,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expectation {
    /// Legacy Kattis, as problemtools checks it: the overall verdict (the
    /// first rejected test's, tests in order and stopping there) must be
    /// `verdict`; `partially_accepted` is AC without the full score.
    Overall { verdict: Verdict, partial: bool },
    /// Kattis 2025-09 and Polygon: rules over the tests' verdicts.
    Rules(Vec<ExpectationRule>),
    /// DOMjudge's `@EXPECTED_RESULTS@` line: the overall verdict (the
    /// first rejected test's, tests in order) is one of `verdicts`; and
    /// with an `@EXPECTED_SCORE@` number, the score is that.
    OneOf {
        verdicts: Vec<Verdict>,
        score: Option<f64>,
    },
    /// Polygon `do-not-run`.
    NotRun,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExpectationRule {
    /// A glob over test and group names (`secret/*-hard`); `None`: all.
    pub(crate) tests: Option<String>,
    /// Every test's verdict must be one of these.
    pub(crate) permitted: Option<Vec<Verdict>>,
    /// At least one test's verdict must be one of these.
    pub(crate) required: Option<Vec<Verdict>>,
    /// The score (or the group's score, with `tests`) lies in this range.
    pub(crate) score: Option<(f64, f64)>,
    /// A substring of some `judgemessage.txt`.
    pub(crate) message: Option<String>,
    pub(crate) origin: String,
}

impl ExpectationRule {
    /// Whether the rule covers the test (or group) called `name`: every
    /// test without a glob, else the ones the glob (or a parent group of
    /// theirs) matches.
    pub(crate) fn applies_to(&self, name: &str) -> bool {
        self.tests
            .as_deref()
            .is_none_or(|glob| super::glob::glob_matches(glob, name))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeLimitBound {
    /// Not used to decide the time limit.
    None,
    /// Its slowest run bounds the limit from below (accepted solutions;
    /// in 2025-09 any whose permitted verdicts leave out TLE).
    Lower,
    /// Its fastest timed-out run bounds the limit from above.
    Upper,
}

/// Kattis 2025-09 `constants`: name → value (and variants such as `tex`).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Constants {
    pub(crate) values: BTreeMap<String, Constant>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Constant {
    /// As written in `problem.yaml` (numbers keep their exact text).
    pub(crate) value: String,
    pub(crate) variants: BTreeMap<String, String>,
}

/// Kattis `include/<language>/` (and 2025-09 `include/default/`): files
/// copied into every submission of that language before it is built.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Includes {
    pub(crate) by_language: BTreeMap<String, Vec<PathBuf>>,
}

impl Includes {
    /// `default` files, then the language's own, which win on equal names.
    pub(crate) fn for_language(&self, language: &str) -> Vec<PathBuf> {
        let mut files: BTreeMap<std::ffi::OsString, PathBuf> = BTreeMap::new();
        for key in ["default", language] {
            for file in self.by_language.get(key).into_iter().flatten() {
                if let Some(name) = file.file_name() {
                    files.insert(name.to_os_string(), file.clone());
                }
            }
        }
        files.into_values().collect()
    }
}

/// An IOI-style task's grader: the sources that hold `main` and call the
/// contestant's functions (a solution has no `main`), and the headers
/// they share with the solution.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TaskGrader {
    /// A Kattis language code: a solution in another cannot be built.
    pub(crate) language: String,
    pub(crate) sources: Vec<PathBuf>,
    pub(crate) headers: Vec<PathBuf>,
    /// The grader's folder, on the include path of the task's solutions.
    pub(crate) dir: PathBuf,
}

/// Tests of the package's own programs.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SelfTests {
    /// Kattis `data/invalid_input/`, Polygon validator tests.
    pub(crate) inputs: Vec<InputSelfTest>,
    /// Kattis `data/{valid,invalid}_output/`, Polygon checker tests.
    pub(crate) outputs: Vec<OutputSelfTest>,
    /// `data/invalid_answer/` (BAPCtools): a valid input with an answer
    /// that some answer validator must reject.
    pub(crate) answers: Vec<AnswerSelfTest>,
    /// 2025-09: the samples' `.out` (or shown `.ans`) files, which the
    /// output validator must accept.
    pub(crate) samples: Vec<OutputSelfTest>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AnswerSelfTest {
    pub(crate) name: String,
    pub(crate) input: PathBuf,
    pub(crate) answer: PathBuf,
    pub(crate) input_validator_args: ValidatorArgs,
    pub(crate) answer_validator_args: ValidatorArgs,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InputSelfTest {
    pub(crate) name: String,
    pub(crate) input: PathBuf,
    pub(crate) valid: bool,
    pub(crate) args: ValidatorArgs,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OutputSelfTest {
    pub(crate) name: String,
    pub(crate) input: PathBuf,
    pub(crate) output: PathBuf,
    pub(crate) answer: PathBuf,
    /// What the checker must say (AC, WA, PE, JE).
    pub(crate) expected: Verdict,
    pub(crate) output_validator_args: Vec<String>,
    /// Kattis: the input must be valid, checked with these arguments;
    /// `None` (Polygon checker tests): the input is not validated.
    pub(crate) input_validator_args: Option<ValidatorArgs>,
}

/// How a Communication task's solution reaches the manager (CMS's
/// `user_io`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserIo {
    /// `std_io`: through its stdin and stdout.
    Std,
    /// `fifo_io`: through two paths given as its arguments (the one it
    /// reads, then the one it writes).
    Fifos,
}
