//! A Kattis or Polygon package's own programs checked on their own tests,
//! for `judge verify`: the input validators (programs and checktestdata
//! scripts) on every test input and on the invalid inputs, and the output
//! validator or checker on the package's outputs of known verdict (Kattis
//! `data/valid_output/` and `data/invalid_output/`, Polygon checker tests).
//! Each check returns (what passed, what failed, what was skipped and why).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::Context;
use crate::checker::{run_checktestdata, run_validator};
use crate::compile::{Built, Executable};
use crate::errors::Validation;
use crate::formats::{InputValidator, Package, PackageFormat, ValidatorProtocol};
use crate::spec::{CompareMode, ProblemSpec, ProgramRef, Protocol, TestCase, ToolSpec};

/// (passed, failed, skipped) lines, as `judge verify` prints them.
pub(super) type Checks = (Vec<String>, Vec<String>, Vec<String>);

/// An input (or answer) validator ready to run.
pub(super) enum Validator {
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
pub(super) enum ScriptKind {
    /// `checktestdata script < input`: exit 0 valid, 1 invalid.
    Checktestdata,
    /// problemtools' `viva.sh script < input` wrapper: exit 42 valid.
    Viva,
}

impl Validator {
    pub(super) fn name(&self) -> &str {
        match self {
            Validator::Program { name, .. } | Validator::Script { name, .. } => name,
        }
    }
}

/// The package's input validators on every test input, and its invalid
/// inputs, each of which some validator must reject.
pub(super) fn check_inputs(ctx: &mut Context, problem: &ProblemSpec) -> Checks {
    let (mut passed, mut failures, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    let Some(package) = &problem.package else {
        return (passed, failures, skipped);
    };
    let mut validators = Vec::new();
    for validator in &package.input_validators {
        match prepare(ctx, package, validator) {
            Ok(Some(ready)) => validators.push(ready),
            Ok(None) => {}
            Err(Prepared::Skipped(why)) => skipped.push(why),
            Err(Prepared::Failed(why)) => failures.push(why),
        }
    }
    if validators.is_empty() {
        return (passed, failures, skipped);
    }
    let validate = |validator: &Validator,
                    args: &crate::formats::ValidatorArgs,
                    input: &Path|
     -> Result<bool, String> { validate(ctx, validator, args, input, None) };
    let before = failures.len();
    // Every test input, and the inputs of the output validator's own tests
    // (Kattis asks that they be valid too).
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
            match validate(validator, args, input) {
                Ok(true) => {}
                Ok(false) => {
                    failures.push(format!("input validator {name} rejects {test}"));
                }
                Err(why) => {
                    *broken = true;
                    failures.push(format!("input validator {name}: {why}"));
                }
            }
        }
    }
    if failures.len() == before {
        passed.push(format!(
            "{} inputs valid ({} validators)",
            inputs.len(),
            validators.len()
        ));
    }
    let invalid: Vec<_> = package
        .self_tests
        .inputs
        .iter()
        .filter(|t| !t.valid)
        .collect();
    let mut accepted_invalid = 0;
    for test in &invalid {
        let caught = validators
            .iter()
            .any(|validator| matches!(validate(validator, &test.args, &test.input), Ok(false)));
        if !caught {
            accepted_invalid += 1;
            // A validator that did not run may be the one that rejects it.
            if skipped.is_empty() {
                failures.push(format!(
                    "invalid input {} is accepted by every validator",
                    test.name
                ));
            }
        }
    }
    if !invalid.is_empty() && accepted_invalid == 0 {
        passed.push(format!("{} invalid inputs rejected", invalid.len()));
    } else if accepted_invalid > 0 && !skipped.is_empty() {
        skipped.push(format!(
            "{accepted_invalid} of {} invalid inputs not rejected by the validators that ran: not checked",
            invalid.len()
        ));
    }
    (passed, failures, skipped)
}

/// Runs `validator` on `file` (its stdin) with its arguments among `args`:
/// whether it finds the file valid, or why it could not say. `input`: an
/// answer validator's test input, its first argument (scripts get none).
pub(super) fn validate(
    ctx: &Context,
    validator: &Validator,
    args: &crate::formats::ValidatorArgs,
    file: &Path,
    input: Option<&Path>,
) -> Result<bool, String> {
    let scratch = tempfile::tempdir_in(ctx.scratch.path()).map_err(|e| e.to_string())?;
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
            run_validator(ctx.builder.worker(), exe, &tool, file, scratch.path())
                .map_err(|failure| failure.to_string())?
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
            std::fs::write(&copy, script)
                .map_err(|e| format!("failed to write {}: {e}", copy.display()))?;
            match kind {
                ScriptKind::Checktestdata => {
                    run_checktestdata(ctx.builder.worker(), tool, &copy, file, scratch.path())
                }
                ScriptKind::Viva => {
                    let viva = ToolSpec {
                        program: ProgramRef::Bin(name.clone()),
                        args: vec![copy.display().to_string()],
                        protocol: Protocol::Kattis,
                    };
                    run_validator(ctx.builder.worker(), tool, &viva, file, scratch.path())
                }
            }
            .map_err(|failure| failure.to_string())?
        }
    };
    Ok(verdict == Validation::Valid)
}

/// Why an input validator is not run.
pub(super) enum Prepared {
    /// A tool this machine lacks.
    Skipped(String),
    /// It does not build, or its script cannot be read: the package's fault.
    Failed(String),
}

/// Builds a validator program, or finds the tool that runs a script.
pub(super) fn prepare(
    ctx: &mut Context,
    package: &Package,
    validator: &InputValidator,
) -> Result<Option<Validator>, Prepared> {
    match validator {
        InputValidator::Program { program, protocol } => {
            let program_ref = crate::spec::package_program(package, program);
            if let Some(tool) = ctx.builder.unavailable_tool(&program_ref) {
                return Err(Prepared::Skipped(format!(
                    "input validator {}: no {tool}",
                    program.name
                )));
            }
            match ctx.builder.build(&program_ref) {
                Built::Ready(exe) => Ok(Some(Validator::Program {
                    name: program.name.clone(),
                    protocol: *protocol,
                    exe,
                })),
                Built::Answers(_) => Err(Prepared::Failed(format!(
                    "input validator {} is not a program",
                    program.name
                ))),
                Built::CompileError(m) | Built::JudgeError(m) => Err(Prepared::Failed(format!(
                    "input validator {} did not build: {}",
                    program.name,
                    m.lines().next().unwrap_or_default()
                ))),
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
                return Err(Prepared::Skipped(format!(
                    "input validator {name}: skipped: no {missing}"
                )));
            };
            let text = std::fs::read_to_string(path).map_err(|e| {
                Prepared::Failed(format!("input validator {name}: {}: {e}", path.display()))
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
pub(super) fn check_outputs(ctx: &mut Context, problem: &ProblemSpec) -> Checks {
    let (mut passed, mut failures, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    let Some(package) = &problem.package else {
        return (passed, failures, skipped);
    };
    let tests = &package.self_tests.outputs;
    if tests.is_empty() {
        return (passed, failures, skipped);
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
        skipped.push(format!(
            "{} {what} tests: skipped: an interactive validator judges no output file",
            tests.len()
        ));
        return (passed, failures, skipped);
    }
    let checker = match &problem.compare.mode {
        CompareMode::Checker(tool) => {
            if let Some(missing) = ctx.builder.unavailable_tool(&tool.program) {
                skipped.push(format!(
                    "{} {what} tests: skipped: no {missing}",
                    tests.len()
                ));
                return (passed, failures, skipped);
            }
            match ctx.builder.build(&tool.program) {
                Built::Ready(exe) => Some(exe),
                Built::Answers(_) => {
                    failures.push(format!("{what} is not a program"));
                    return (passed, failures, skipped);
                }
                Built::CompileError(m) | Built::JudgeError(m) => {
                    failures.push(format!(
                        "{what} did not build: {}",
                        m.lines().next().unwrap_or_default()
                    ));
                    return (passed, failures, skipped);
                }
            }
        }
        _ => None,
    };
    let before = failures.len();
    for test in tests {
        let case = TestCase {
            name: test.name.clone(),
            group: String::new(),
            input: test.input.clone(),
            answer: test.answer.clone(),
            args: Vec::new(),
            checker_args: test.output_validator_args.clone(),
            files: None,
        };
        let judged = std::fs::read(&test.output)
            .map_err(|e| format!("failed to read {}: {e}", test.output.display()))
            .and_then(|output| {
                let scratch =
                    tempfile::tempdir_in(ctx.scratch.path()).map_err(|e| e.to_string())?;
                Ok(crate::runner::judge_output_file(
                    ctx.builder.worker(),
                    problem,
                    checker.as_ref(),
                    &case,
                    &output,
                    scratch.path(),
                ))
            });
        match judged {
            Ok((verdict, _)) if verdict == test.expected => {}
            Ok((verdict, detail)) => failures.push(format!(
                "{what} on {}: expected {}, got {verdict}{}",
                test.name,
                test.expected,
                detail
                    .map(|d| format!(" ({})", first_line(&d)))
                    .unwrap_or_default()
            )),
            Err(why) => failures.push(format!("{what} on {}: {why}", test.name)),
        }
    }
    if failures.len() == before {
        passed.push(format!("{} {what} tests pass", tests.len()));
    }
    (passed, failures, skipped)
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}
