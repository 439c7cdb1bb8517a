//! One stress input through the package's programs: the generator makes
//! it, the validator must accept it, the reference (or the package's
//! answers program) writes its answer and must pass, and the program under
//! test is judged on it exactly as `judge test` judges a test.

use std::path::{Path, PathBuf};

use crate::checker::Validation;
use crate::checker::{feedback_folder, run_checker, run_validator};
use crate::compare::Judgement;
use crate::compile::Executable;
use crate::runner::{Submission, TestReport, TestRun, judge_test, submission_stack};
use crate::sandbox::Limits;
use crate::sandbox::SandboxError;
use crate::sandbox::TOOL_LIMITS;
use crate::sandbox::{Containment, RunOutcome, RunRequest, Runs, Termination};
use crate::spec::{CompareMode, ProblemSpec, TestCase, ToolSpec};
use crate::verdict::JudgeFailure;
use crate::verdict::{Verdict, describe_termination};

/// The built programs of a stress session.
#[derive(Debug, Clone)]
pub(crate) struct Programs {
    pub generator: Executable,
    /// With the validator's arguments from `problem.toml`.
    pub validator: Option<(Executable, ToolSpec)>,
    /// Writes answers for inputs: the package's `[answers]` program; when
    /// `None`, the reference's output is the answer.
    pub answers: Option<Executable>,
    pub reference: Executable,
    /// The checker or interactor, when the problem has one.
    pub judging: Option<Executable>,
    /// The checker of a testlib interactor's output file.
    pub output_checker: Option<Executable>,
    /// The program under test.
    pub candidate: Executable,
}

/// Why a stress input could not be judged: a package program failed, or
/// the judge could not do its own part. A judge error, never the
/// candidate's.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StressError {
    #[error("the generator with `{args}` {ended}{stderr}")]
    Generator {
        args: String,
        ended: String,
        /// `: ` and its first line of stderr, or empty.
        stderr: String,
    },
    #[error("the answers program {ended}{stderr}")]
    AnswersProgram { ended: String, stderr: String },
    /// The validator or the checker broke its protocol.
    #[error(transparent)]
    Program(#[from] JudgeFailure),
    #[error(transparent)]
    Run(#[from] SandboxError),
    #[error("failed to {what}: {source}")]
    Io {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// The candidate's test was a judge error (the report's detail).
    #[error("{0}")]
    Judging(String),
    #[error(
        "{count} generated inputs in a row are no tests; the first: {first}",
        count = super::search::NOT_TESTS_IN_A_ROW
    )]
    NoTests { first: String },
}

/// Why a generated input is not a test.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NotATest {
    /// The validator's first line.
    #[error("the validator rejects it: {0}")]
    Invalid(String),
    #[error("the reference gets {} on it ({ended})", verdict.short())]
    ReferenceFails { verdict: Verdict, ended: String },
    /// An interactive problem: the referee does not accept the reference.
    #[error("the reference gets {} on it", .0.short())]
    ReferenceLoses(Verdict),
    /// The checker's message, `: ` first, or empty.
    #[error("the checker rejects the reference's output{0}")]
    CheckerRejects(String),
}

/// What one input gave.
#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    /// Not a test: the validator rejected it, or the reference failed on it.
    NotATest(NotATest),
    /// The program under test was judged: its report, and the answer it was
    /// judged against.
    Judged {
        answer: Vec<u8>,
        report: Box<TestReport>,
    },
}

/// Runs inputs through one problem's programs, in a folder of its own.
pub(crate) struct Bench<'a> {
    /// The box its runs are made in (the calling thread's).
    pub sandbox: &'a dyn Runs,
    pub problem: &'a ProblemSpec,
    pub programs: &'a Programs,
    /// Holds the current input and answer, and the run folders.
    pub folder: PathBuf,
}

impl Bench<'_> {
    /// The generator's output for `args`; `Err` says why it failed.
    pub(crate) fn generate(&self, args: &[String]) -> Result<Vec<u8>, StressError> {
        let outcome = self.tool(&self.programs.generator.with_args(args), None)?;
        match outcome.termination {
            Termination::Exited(0) => Ok(outcome.stdout),
            other => Err(StressError::Generator {
                args: args.join(" "),
                ended: describe_termination(other),
                stderr: first_line(&outcome.stderr),
            }),
        }
    }

    /// Judges the program under test on `input`. `Err` is a judge error
    /// (a package program failed, I/O).
    pub(crate) fn try_input(&self, input: &[u8]) -> Result<Outcome, StressError> {
        let test = self.write_test(input)?;
        if let Some((validator, tool)) = &self.programs.validator {
            let work = self.fresh_folder()?;
            let validation =
                run_validator(self.sandbox, validator, tool, &test.input, work.path())?;
            if let Validation::Invalid(why) = validation {
                return Ok(Outcome::NotATest(NotATest::Invalid(
                    why.lines().next().unwrap_or_default().to_string(),
                )));
            }
        }
        let answer = match self.answer(&test)? {
            Ok(answer) => answer,
            Err(why) => return Ok(Outcome::NotATest(why)),
        };
        std::fs::write(&test.answer, &answer).map_err(|source| StressError::Io {
            what: "write the answer",
            source,
        })?;
        if self.problem.kind.is_interactive() {
            // The referee plays the reference too: it must win.
            let report = self.judge(&self.programs.reference, &test)?;
            if report.verdict != Verdict::Accepted {
                return Ok(Outcome::NotATest(NotATest::ReferenceLoses(report.verdict)));
            }
        }
        let report = self.judge(&self.programs.candidate, &test)?;
        if report.verdict == Verdict::JudgeError {
            return Err(StressError::Judging(
                report.detail.unwrap_or_else(|| "a judge error".into()),
            ));
        }
        Ok(Outcome::Judged {
            answer,
            report: Box::new(report),
        })
    }

    /// The program under test's stdout on `input` (its full output, for
    /// showing; the verdict comes from `try_input`).
    pub(crate) fn output_of_candidate(&self, input: &[u8]) -> Result<Vec<u8>, StressError> {
        let test = self.write_test(input)?;
        let outcome = self.contained(&self.programs.candidate, &test.input)?;
        Ok(outcome.stdout)
    }

    /// The answer for `test`: the answers program's output, or the
    /// reference's, which must then pass (run under the problem's limits,
    /// and accepted by the checker where there is one). `Ok(Err)`: not a test.
    fn answer(&self, test: &TestCase) -> Result<Result<Vec<u8>, NotATest>, StressError> {
        if let Some(answers) = &self.programs.answers {
            let outcome = self.tool(answers, Some(&test.input))?;
            return match outcome.termination {
                Termination::Exited(0) => Ok(Ok(outcome.stdout)),
                other => Err(StressError::AnswersProgram {
                    ended: describe_termination(other),
                    stderr: first_line(&outcome.stderr),
                }),
            };
        }
        if self.problem.kind.is_interactive() {
            return Ok(Ok(Vec::new()));
        }
        let outcome = self.contained(&self.programs.reference, &test.input)?;
        if let Some(verdict) = Verdict::from_run(&outcome, &self.problem.limits) {
            return Ok(Err(NotATest::ReferenceFails {
                verdict,
                ended: describe_termination(outcome.termination),
            }));
        }
        if let (CompareMode::Checker(tool), Some(checker)) =
            (&self.problem.compare.mode, &self.programs.judging)
        {
            std::fs::write(&test.answer, &outcome.stdout).map_err(|source| StressError::Io {
                what: "write the answer",
                source,
            })?;
            let work = self.fresh_folder()?;
            let feedback = feedback_folder(work.path())?;
            let comparison = run_checker(
                self.sandbox,
                checker,
                tool,
                test,
                &outcome.stdout,
                work.path(),
                &feedback,
            )?;
            if comparison.judgement != Judgement::Accepted {
                return Ok(Err(NotATest::CheckerRejects(
                    comparison
                        .message
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default(),
                )));
            }
        }
        Ok(Ok(outcome.stdout))
    }

    fn judge(&self, exe: &Executable, test: &TestCase) -> Result<TestReport, StressError> {
        let work = self.fresh_folder()?;
        Ok(judge_test(&TestRun {
            sandbox: self.sandbox,
            problem: self.problem,
            checker: self.programs.judging.as_ref(),
            output_checker: self.programs.output_checker.as_ref(),
            submission: Submission::Program(exe),
            test,
            workdir: work.path(),
            static_validation: None,
            output_visualization: None,
        }))
    }

    /// The test files in this bench's folder, `input` written.
    fn write_test(&self, input: &[u8]) -> Result<TestCase, StressError> {
        let test = TestCase {
            name: "stress".into(),
            group: "stress".into(),
            input: self.folder.join("stress.in"),
            answer: self.folder.join("stress.ans"),
            ..TestCase::default()
        };
        std::fs::write(&test.input, input).map_err(|source| StressError::Io {
            what: "write the input",
            source,
        })?;
        Ok(test)
    }

    fn fresh_folder(&self) -> Result<tempfile::TempDir, StressError> {
        tempfile::tempdir_in(&self.folder).map_err(|source| StressError::Io {
            what: "create a folder",
            source,
        })
    }

    /// A package program (trusted): its own limits, a folder of its own.
    fn tool(&self, exe: &Executable, stdin: Option<&Path>) -> Result<RunOutcome, StressError> {
        self.run(exe, stdin, TOOL_LIMITS, Containment::Tool, None)
    }

    /// A solution, contained and limited as a submission is.
    fn contained(&self, exe: &Executable, stdin: &Path) -> Result<RunOutcome, StressError> {
        let limits = self.problem.limits;
        let stack = Some(submission_stack(limits.memory));
        self.run(exe, Some(stdin), limits, Containment::Submission, stack)
    }

    fn run(
        &self,
        exe: &Executable,
        stdin: Option<&Path>,
        limits: Limits,
        containment: Containment,
        stack: Option<u64>,
    ) -> Result<RunOutcome, StressError> {
        let work = self.fresh_folder()?;
        Ok(self.sandbox.run(&RunRequest {
            stdin: stdin.map(Path::to_path_buf),
            stack,
            ..exe.request(work.path(), limits, containment)
        })?)
    }
}

fn first_line(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .next()
        .map(|line| format!(": {line}"))
        .unwrap_or_default()
}
