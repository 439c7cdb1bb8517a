//! `judge verify`'s package stage, before any solution runs: generators
//! reproduce the committed inputs, the validator accepts every input, and
//! for Kattis and Polygon packages their programs' own tests: input
//! validators, invalid inputs, output validators on outputs of known
//! verdict (`packages::check_self_tests`). Each package's checks are
//! independent, so they run side by side on the worker pool.

use std::path::Path;

use super::findings::{Finding, Severity};
use super::packages;
use crate::checker::Validation;
use crate::checker::run_validator;
use crate::compile::{Built, Executable, NotProgram};
use crate::plan::Means;
use crate::report::human;
use crate::sandbox::SandboxError;
use crate::sandbox::TOOL_LIMITS;
use crate::sandbox::{Boxes, Containment, RunRequest, Termination};
use crate::spec::{GeneratedTest, ProblemSpec, ToolSpec};
use crate::store::ToolMemo;
use crate::verdict::JudgeFailure;

/// What the package stage found for one package, in the order found.
#[derive(Debug, Default)]
pub(crate) struct PackageCheck {
    pub(crate) findings: Vec<Finding>,
}

impl PackageCheck {
    /// The package breaks a rule: `judge verify` fails.
    pub(crate) fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// The findings of `severity`, as lines.
    pub(crate) fn lines(&self, severity: Severity) -> impl Iterator<Item = String> + '_ {
        self.findings
            .iter()
            .filter(move |f| f.severity == severity)
            .map(Finding::line)
    }
}

/// The package stage for every problem, in the problems' order.
pub(crate) fn package_checks(
    means: &mut Means<'_>,
    problems: &[ProblemSpec],
    memo: Option<&ToolMemo>,
) -> Vec<PackageCheck> {
    // Building may compile: one at a time; running is side by side.
    let tools: Vec<PackageTools> = problems.iter().map(|p| package_tools(means, p)).collect();
    let inputs: Vec<_> = problems
        .iter()
        .map(|problem| packages::check_self_tests(means, problem))
        .collect();
    let pairs: Vec<(&ProblemSpec, &PackageTools)> = problems.iter().zip(&tools).collect();
    let ours = crate::runner::pool::map(&pairs, means.jobs, |(problem, tools)| {
        check_package(means.sandbox, means.scratch, problem, tools, memo)
    });
    ours.into_iter()
        .zip(inputs)
        .map(|(mut findings, more)| {
            findings.extend(more);
            PackageCheck { findings }
        })
        .collect()
}

/// A package's own program (generator, validator) that gave nothing to
/// run; `what` names it.
#[derive(Debug, thiserror::Error)]
#[error("the {what} {}", describe(.why))]
pub(crate) struct Unbuilt {
    what: &'static str,
    why: NotProgram,
}

/// As the package stage has always said it (the first line of a build's
/// failure).
fn describe(why: &NotProgram) -> String {
    match why {
        NotProgram::AnswerSet(set) => {
            format!("is an answer set ({}), not a program", set.source.display())
        }
        NotProgram::NotBuilt(why) => format!("did not build: {}", why.first_line()),
    }
}

pub(crate) fn built_or_message(
    built: Built,
    what: &'static str,
) -> std::result::Result<Executable, Unbuilt> {
    built.into_program().map_err(|why| Unbuilt { what, why })
}

/// Why a package program run by `run_tool` gave no output.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ToolError {
    #[error("failed to create a folder: {0}")]
    Folder(#[source] std::io::Error),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// Its path, how it ended, and `: ` with its first line of stderr.
    #[error("{}: {ended}{stderr}", program.display())]
    Failed {
        program: std::path::PathBuf,
        ended: String,
        stderr: String,
    },
}

/// Runs `exe` with TOOL_LIMITS in a fresh folder; its stdout, or why not.
pub(crate) fn run_tool(
    sandbox: &dyn Boxes,
    scratch: &Path,
    exe: &Executable,
    stdin: Option<&Path>,
) -> std::result::Result<Vec<u8>, ToolError> {
    let workdir = tempfile::tempdir_in(scratch).map_err(ToolError::Folder)?;
    // A trusted program: a box of this thread's, which it leaves empty.
    let outcome = sandbox.open().run(&RunRequest {
        stdin: stdin.map(Path::to_path_buf),
        ..exe.request(workdir.path(), TOOL_LIMITS, Containment::Tool)
    })?;
    match outcome.termination {
        Termination::Exited(0) => Ok(outcome.stdout),
        other => Err(ToolError::Failed {
            program: exe.program.clone(),
            ended: crate::verdict::describe_termination(other),
            stderr: String::from_utf8_lossy(&outcome.stderr)
                .lines()
                .next()
                .map(|l| format!(": {l}"))
                .unwrap_or_default(),
        }),
    }
}

/// A package's generator and validator, built (or why not).
struct PackageTools {
    generator: Option<std::result::Result<Executable, Unbuilt>>,
    validator: Option<std::result::Result<Executable, Unbuilt>>,
}

/// Builds the package's own programs; sequential, as building may compile.
fn package_tools(means: &mut Means<'_>, problem: &ProblemSpec) -> PackageTools {
    PackageTools {
        generator: problem
            .generator
            .as_ref()
            .map(|(program, _)| built_or_message(means.builder.build(program), "generator")),
        validator: problem
            .validator
            .as_ref()
            .map(|v| built_or_message(means.builder.build(&v.program), "validator")),
    }
}

/// `run`'s outcome, or the one `memo` remembers for `key` (see `ToolMemo`).
fn remembered<E>(
    memo: Option<&ToolMemo>,
    key: impl FnOnce(&ToolMemo) -> Option<String>,
    run: impl FnOnce() -> std::result::Result<String, E>,
) -> std::result::Result<String, E> {
    match memo {
        Some(memo) => memo.outcome(key(memo), run),
        None => run(),
    }
}

fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// The package's own checks: generators reproduce the committed inputs and
/// the validator accepts every input.
fn check_package(
    sandbox: &dyn Boxes,
    scratch: &Path,
    problem: &ProblemSpec,
    tools: &PackageTools,
    memo: Option<&ToolMemo>,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    if problem.tests.is_empty() {
        findings.push(Finding::error("", "no tests under data/"));
    }
    let run = ToolRun {
        sandbox,
        scratch,
        memo,
    };
    if let (Some((_, tests)), Some(built)) = (&problem.generator, &tools.generator) {
        match built {
            Err(unbuilt) => findings.push(Finding::error("", unbuilt.to_string())),
            Ok(exe) => findings.extend(run.check_generated(problem, tests, exe)),
        }
    }
    if let (Some(validator), Some(built)) = (&problem.validator, &tools.validator) {
        match built {
            Err(unbuilt) => findings.push(Finding::error("", unbuilt.to_string())),
            Ok(exe) => findings.extend(run.check_validated(problem, validator, exe)),
        }
    }
    findings
}

/// Where the package stage runs a package's programs, and what it
/// remembers of their runs.
struct ToolRun<'a> {
    sandbox: &'a dyn Boxes,
    scratch: &'a Path,
    memo: Option<&'a ToolMemo>,
}

impl ToolRun<'_> {
    /// The generator `exe` makes each of `tests` as committed.
    fn check_generated(
        &self,
        problem: &ProblemSpec,
        tests: &[GeneratedTest],
        exe: &Executable,
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        let mut drifted = 0;
        for test in tests {
            let path = problem.dir.join("data").join(format!("{}.in", test.name));
            let made = remembered(
                self.memo,
                |memo| memo.key(exe, &test.args, None),
                || {
                    run_tool(self.sandbox, self.scratch, &exe.with_args(&test.args), None)
                        .map(|bytes| hash(&bytes))
                },
            );
            match (made, std::fs::read(&path).map(|bytes| hash(&bytes))) {
                (Err(error), _) => findings.push(Finding::error(
                    format!("generator for {}", test.name),
                    error.to_string(),
                )),
                (Ok(_), Err(_)) => findings.push(Finding::error(
                    "",
                    format!(
                        "{} is not generated yet: run `judge generate {}`",
                        path.display(),
                        problem.id
                    ),
                )),
                (Ok(made), Ok(committed)) if made != committed => {
                    drifted += 1;
                    findings.push(Finding::error(
                        path.display().to_string(),
                        "the generator's output differs from the committed file",
                    ));
                }
                (Ok(_), Ok(_)) => {}
            }
        }
        if drifted == 0 && !tests.is_empty() {
            findings.push(Finding::passed(
                "",
                format!(
                    "{} reproduced",
                    human::count(tests.len(), "generated input")
                ),
            ));
        }
        findings
    }

    /// The validator `exe` accepts every input of `problem`.
    fn check_validated(
        &self,
        problem: &ProblemSpec,
        validator: &ToolSpec,
        exe: &Executable,
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        let mut rejected = 0;
        let memo_args: Vec<String> = validator
            .args
            .iter()
            .cloned()
            .chain([format!("protocol={:?}", validator.protocol)])
            .collect();
        for test in &problem.tests {
            // Only an acceptance is remembered: a rejection is shown and checked again.
            let validated = remembered(
                self.memo,
                // The protocol decides what an exit means: part of the key.
                |memo| memo.key(exe, &memo_args, Some(&test.input)),
                || {
                    let workdir = tempfile::tempdir_in(self.scratch).map_err(|e| {
                        Err(JudgeFailure::judge("create a folder for the validator", e))
                    })?;
                    match run_validator(
                        &*self.sandbox.open(),
                        exe,
                        validator,
                        &test.input,
                        workdir.path(),
                    ) {
                        Ok(Validation::Valid) => Ok("accepted".to_string()),
                        Ok(invalid) => Err(Ok(invalid)),
                        Err(failure) => Err(Err(failure)),
                    }
                },
            );
            match validated {
                Ok(_) => {}
                Err(Ok(Validation::Invalid(why))) => {
                    rejected += 1;
                    findings.push(Finding::error(
                        "",
                        format!(
                            "validator rejects {}: {}",
                            test.name,
                            why.lines().next().unwrap_or_default()
                        ),
                    ));
                }
                Err(Ok(Validation::Valid)) => unreachable!("a valid input is Ok"),
                Err(Err(failure)) => findings.push(Finding::error("", failure.to_string())),
            }
        }
        if rejected == 0 {
            findings.push(Finding::passed(
                "",
                format!("{} valid", human::count(problem.tests.len(), "input")),
            ));
        }
        findings
    }
}
