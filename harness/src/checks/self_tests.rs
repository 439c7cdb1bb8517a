//! A Kattis or Polygon package's own programs checked on their own tests,
//! for `judge verify`: the input validators (programs and checktestdata
//! scripts) on every test input and on the invalid inputs, and the output
//! validator or checker on the package's outputs of known verdict (Kattis
//! `data/valid_output/` and `data/invalid_output/`, Polygon checker tests).
//! Each check returns its findings.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::findings::{Finding, Severity};
use crate::checker::Validation;
use crate::checker::{run_checktestdata, run_validator};
use crate::compile::{Executable, NotProgram};
use crate::formats::{InputValidator, OutputSelfTest, Package, PackageFormat, ValidatorProtocol};
use crate::plan::Means;
use crate::spec::{CompareMode, ProblemSpec, ProgramRef, Protocol, TestCase, ToolSpec};
use crate::verdict::JudgeFailure;

/// Why a validator could not say whether a file is valid.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ValidateError {
    #[error("failed to read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Its run folder, or its script's copy there, could not be made.
    #[error("failed to write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Program(#[from] JudgeFailure),
}

/// Whether any of `findings` is an error.
fn has_error(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// An input (or answer) validator ready to run.
pub(crate) enum Validator {
    Program {
        name: String,
        protocol: ValidatorProtocol,
        exe: Executable,
    },
    /// A checktestdata or VIVA script, its `{{constants}}` already
    /// substituted, and the tool that runs it.
    Script {
        name: String,
        script: String,
        tool: Executable,
        kind: ScriptKind,
    },
}

#[derive(Clone, Copy)]
pub(crate) enum ScriptKind {
    /// `checktestdata script < input`: exit 0 valid, 1 invalid.
    Checktestdata,
    /// problemtools' `viva.sh script < input` wrapper: exit 42 valid.
    Viva,
}

impl Validator {
    pub(crate) fn name(&self) -> &str {
        match self {
            Validator::Program { name, .. } | Validator::Script { name, .. } => name,
        }
    }
}

/// The validators of `list` that this machine can run; the others are
/// findings (skipped for a missing tool, an error for a broken build).
pub(crate) fn ready(
    means: &mut Means<'_>,
    package: &Package,
    list: &[InputValidator],
    findings: &mut Vec<Finding>,
) -> Vec<Validator> {
    let mut ready = Vec::new();
    for validator in list {
        match prepare(means, package, validator) {
            Ok(Some(validator)) => ready.push(validator),
            Ok(None) => {}
            Err(finding) => findings.push(finding),
        }
    }
    ready
}

/// The package's input validators on every test input, and its invalid
/// inputs, each of which some validator must reject.
pub(crate) fn check_inputs(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = Vec::new();
    let Some(package) = &problem.package else {
        return findings;
    };
    let validators = ready(means, package, &package.input_validators, &mut findings);
    if validators.is_empty() {
        return findings;
    }
    let skipped_some = findings.iter().any(|f| f.severity == Severity::Skipped);
    findings.extend(valid_inputs(means, package, &validators));
    findings.extend(invalid_inputs(means, package, &validators, skipped_some));
    findings
}

/// Every test input, and the inputs of the output validator's own tests
/// (Kattis asks that they be valid too), accepted by every validator.
fn valid_inputs(means: &Means<'_>, package: &Package, validators: &[Validator]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let inputs: Vec<(&str, &Path, &crate::formats::ValidatorArgs)> = package
        .tests
        .iter()
        .map(|t| (t.name.as_str(), t.input.as_path(), &t.input_validator_args))
        .chain(package.self_tests.outputs.iter().filter_map(|t| {
            let args = t.input_validator_args.as_ref()?;
            Some((t.name.as_str(), t.input.as_path(), args))
        }))
        .collect();
    // A validator that fails to run (a broken script) is reported once.
    let mut broken = vec![false; validators.len()];
    for (test, input, args) in &inputs {
        for (validator, broken) in validators.iter().zip(&mut broken) {
            if *broken {
                continue;
            }
            let name = validator.name();
            match validate(means, validator, args, input, None) {
                Ok(true) => {}
                Ok(false) => {
                    findings.push(Finding::error(
                        "",
                        format!("input validator {name} rejects {test}"),
                    ));
                }
                Err(why) => {
                    *broken = true;
                    findings.push(Finding::error(
                        format!("input validator {name}"),
                        why.to_string(),
                    ));
                }
            }
        }
    }
    if !has_error(&findings) {
        findings.push(Finding::passed(
            "",
            format!(
                "{} inputs valid ({} validators)",
                inputs.len(),
                validators.len()
            ),
        ));
    }
    findings
}

/// The package's invalid inputs, each rejected by some validator; when a
/// validator was skipped, one accepted by all that ran is not checked.
fn invalid_inputs(
    means: &Means<'_>,
    package: &Package,
    validators: &[Validator],
    skipped_some: bool,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let invalid: Vec<_> = package
        .self_tests
        .inputs
        .iter()
        .filter(|t| !t.valid)
        .collect();
    let mut accepted_invalid = 0;
    for test in &invalid {
        let caught = validators.iter().any(|validator| {
            matches!(
                validate(means, validator, &test.args, &test.input, None),
                Ok(false)
            )
        });
        if !caught {
            accepted_invalid += 1;
            // A validator that did not run may be the one that rejects it.
            if !skipped_some {
                findings.push(Finding::error(
                    "",
                    format!("invalid input {} is accepted by every validator", test.name),
                ));
            }
        }
    }
    if !invalid.is_empty() && accepted_invalid == 0 {
        findings.push(Finding::passed(
            "",
            format!("{} invalid inputs rejected", invalid.len()),
        ));
    } else if accepted_invalid > 0 && skipped_some {
        findings.push(Finding::skipped(
            "",
            format!(
                "{accepted_invalid} of {} invalid inputs not rejected by the validators that ran: not checked",
                invalid.len()
            ),
        ));
    }
    findings
}

/// Runs `validator` on `file` (its stdin) with its arguments among `args`:
/// whether it finds the file valid, or why it could not say. `input`: an
/// answer validator's test input, its first argument (scripts get none).
pub(crate) fn validate(
    means: &Means<'_>,
    validator: &Validator,
    args: &crate::formats::ValidatorArgs,
    file: &Path,
    input: Option<&Path>,
) -> Result<bool, ValidateError> {
    let scratch = tempfile::tempdir_in(means.scratch).map_err(|source| ValidateError::Write {
        path: means.scratch.to_path_buf(),
        source,
    })?;
    let verdict = match validator {
        Validator::Program {
            name,
            protocol,
            exe,
        } => {
            let tool = ToolSpec {
                program: ProgramRef::Bin(name.clone()),
                args: input
                    .map(|input| input.display().to_string())
                    .into_iter()
                    .chain(args.for_validator(name).iter().cloned())
                    .collect(),
                protocol: match protocol {
                    ValidatorProtocol::Kattis => Protocol::Kattis,
                    ValidatorProtocol::Testlib => Protocol::Testlib,
                },
            };
            run_validator(means.builder.worker(), exe, &tool, file, scratch.path())?
        }
        // A script takes no arguments: it states its bounds itself. It is
        // copied into the run's folder, where the tool can read it.
        Validator::Script {
            name,
            script,
            tool,
            kind,
        } => {
            let copy = scratch.path().join(name);
            std::fs::write(&copy, script).map_err(|source| ValidateError::Write {
                path: copy.clone(),
                source,
            })?;
            match kind {
                ScriptKind::Checktestdata => {
                    run_checktestdata(means.builder.worker(), tool, &copy, file, scratch.path())
                }
                ScriptKind::Viva => {
                    let viva = ToolSpec {
                        program: ProgramRef::Bin(name.clone()),
                        args: vec![copy.display().to_string()],
                        protocol: Protocol::Kattis,
                    };
                    run_validator(means.builder.worker(), tool, &viva, file, scratch.path())
                }
            }?
        }
    };
    Ok(verdict == Validation::Valid)
}

/// Builds a validator program, or finds the tool that runs a script.
/// `Err`: why it is not run, a finding: skipped for a tool this machine
/// lacks, an error when it does not build or its script cannot be read.
pub(crate) fn prepare(
    means: &mut Means<'_>,
    package: &Package,
    validator: &InputValidator,
) -> Result<Option<Validator>, Finding> {
    match validator {
        InputValidator::Program { program, protocol } => {
            let program_ref = crate::spec::package_program(package, program);
            if let Some(tool) = means.builder.unavailable_tool(&program_ref) {
                return Err(Finding::skipped(
                    format!("input validator {}", program.name),
                    format!("no {tool}"),
                ));
            }
            match means.builder.build(&program_ref).into_program() {
                Ok(exe) => Ok(Some(Validator::Program {
                    name: program.name.clone(),
                    protocol: *protocol,
                    exe,
                })),
                Err(NotProgram::AnswerSet(_)) => Err(Finding::error(
                    "",
                    format!("input validator {} is not a program", program.name),
                )),
                Err(NotProgram::NotBuilt(why)) => Err(Finding::error(
                    "",
                    format!(
                        "input validator {} did not build: {}",
                        program.name,
                        why.first_line()
                    ),
                )),
            }
        }
        InputValidator::Checktestdata {
            path,
            name,
            substitute_constants,
        }
        | InputValidator::Viva {
            path,
            name,
            substitute_constants,
        } => {
            let (kind, tool, missing) = match validator {
                InputValidator::Checktestdata { .. } => (
                    ScriptKind::Checktestdata,
                    checktestdata_tool(),
                    "checktestdata",
                ),
                _ => (ScriptKind::Viva, viva_tool(), "viva"),
            };
            let Some(tool) = tool else {
                return Err(Finding::skipped(
                    format!("input validator {name}"),
                    format!("skipped: no {missing}"),
                ));
            };
            let text = std::fs::read_to_string(path).map_err(|e| {
                Finding::error(
                    format!("input validator {name}"),
                    format!("{}: {e}", path.display()),
                )
            })?;
            let script = match substitute_constants {
                true => package.constants.substitute(&text),
                false => text,
            };
            Ok(Some(Validator::Script {
                name: name.clone(),
                script,
                tool,
                kind,
            }))
        }
    }
}

/// How this machine runs VIVA scripts, if it can: problemtools' `viva.sh`
/// wrapper around the VIVA jar, which exits 42 for a valid input (VIVA is
/// in no package registry; untested here for want of it).
fn viva_tool() -> Option<Executable> {
    which::which("viva.sh").ok().map(|program| Executable {
        program,
        args: Vec::new(),
        read_only: Vec::new(),
        note: None,
    })
}

/// How this machine runs checktestdata scripts, if it can: the C++
/// `checktestdata`, else the Python reimplementation, as its `pyctd`
/// command or as `python3 -m checktestdata` (both take `script < input`).
fn checktestdata_tool() -> Option<Executable> {
    let tool = |program: PathBuf, args: &[&str]| Executable {
        program,
        args: args.iter().map(OsString::from).collect(),
        read_only: Vec::new(),
        note: None,
    };
    for name in ["checktestdata", "pyctd"] {
        if let Ok(program) = which::which(name) {
            return Some(tool(program, &[]));
        }
    }
    let python = which::which("python3").ok()?;
    let has_module = std::process::Command::new(&python)
        .args(["-c", "import checktestdata"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    has_module.then(|| tool(python, &["-m", "checktestdata"]))
}

/// The package's output validator (Kattis) or checker (Polygon) on each of
/// its outputs of known verdict, judged as a submission's output would be,
/// with the test's arguments: each must get the verdict the package says.
pub(crate) fn check_outputs(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = Vec::new();
    let Some(package) = &problem.package else {
        return findings;
    };
    let (own, samples) = (&package.self_tests.outputs, &package.self_tests.samples);
    let count = own.len() + samples.len();
    if count == 0 {
        return findings;
    }
    let what = match package.format {
        PackageFormat::Polygon => "checker",
        _ => "output validator",
    };
    // A Kattis interactive validator judges a conversation, not a file.
    if problem
        .interactor
        .as_ref()
        .is_some_and(|i| i.protocol == Protocol::Kattis)
    {
        findings.push(Finding::skipped(
            format!("{count} {what} tests"),
            "skipped: an interactive validator judges no output file",
        ));
        return findings;
    }
    let checker = match &problem.compare.mode {
        CompareMode::Checker(tool) => {
            if let Some(missing) = means.builder.unavailable_tool(&tool.program) {
                findings.push(Finding::skipped(
                    format!("{count} {what} tests"),
                    format!("skipped: no {missing}"),
                ));
                return findings;
            }
            match means.builder.build(&tool.program).into_program() {
                Ok(exe) => Some(exe),
                Err(NotProgram::AnswerSet(_)) => {
                    findings.push(Finding::error("", format!("{what} is not a program")));
                    return findings;
                }
                Err(NotProgram::NotBuilt(why)) => {
                    findings.push(Finding::error(
                        "",
                        format!("{what} did not build: {}", why.first_line()),
                    ));
                    return findings;
                }
            }
        }
        _ => None,
    };
    // A sample's file is named by its path under data/ (a test of the
    // validator's own, by its case name).
    for (tests, prefix, passed) in [
        (own, "", format!("{} {what} tests pass", own.len())),
        (
            samples,
            "data/",
            format!("{} sample outputs accepted by the {what}", samples.len()),
        ),
    ] {
        let before = findings.len();
        for test in tests {
            let on = format!("{what} on {prefix}{}", test.name);
            match judge_self_test(means, problem, checker.as_ref(), test) {
                Ok((verdict, _)) if verdict == test.expected => {}
                Ok((verdict, detail)) => findings.push(Finding::error(
                    on,
                    format!(
                        "expected {}, got {verdict}{}",
                        test.expected,
                        detail
                            .map(|d| format!(" ({})", first_line(&d)))
                            .unwrap_or_default()
                    ),
                )),
                Err(why) => findings.push(Finding::error(on, why.to_string())),
            }
        }
        if !tests.is_empty() && !has_error(&findings[before..]) {
            findings.push(Finding::passed("", passed));
        }
    }
    findings
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// The verdict the problem's output judging gives `test`'s output.
fn judge_self_test(
    means: &mut Means<'_>,
    problem: &ProblemSpec,
    checker: Option<&Executable>,
    test: &OutputSelfTest,
) -> Result<(crate::verdict::Verdict, Option<String>), ValidateError> {
    let case = TestCase {
        name: test.name.clone(),
        group: String::new(),
        input: test.input.clone(),
        answer: test.answer.clone(),
        args: Vec::new(),
        checker_args: test.output_validator_args.clone(),
        files: None,
        static_validation: None,
    };
    let output = std::fs::read(&test.output).map_err(|source| ValidateError::Read {
        path: test.output.clone(),
        source,
    })?;
    let scratch = tempfile::tempdir_in(means.scratch).map_err(|source| ValidateError::Write {
        path: means.scratch.to_path_buf(),
        source,
    })?;
    let judge = crate::runner::OutputJudge {
        sandbox: means.builder.worker(),
        problem,
        checker,
    };
    Ok(judge.verdict(&case, &output, scratch.path()))
}
