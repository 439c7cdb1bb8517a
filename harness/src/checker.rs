//! External programs of a package that speak the Kattis protocols: output
//! validators (checkers) and input validators. Their failures are judge
//! errors, never the submission's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::compare::{Comparison, Judgement};
use crate::compile::Executable;
use crate::formats::{CheckerOutcome, testlib_checker};
use crate::sandbox::{RunRequest, Runs, TOOL_LIMITS, Termination};
use crate::spec::{Protocol, TestCase, ToolSpec};
use crate::verdict::JudgeFailure;

/// Kattis: accepted / wrong answer; anything else is a judge error.
pub(crate) const EXIT_ACCEPT: i32 = 42;
pub(crate) const EXIT_REJECT: i32 = 43;

/// What a validator found in an input (its failures are `JudgeFailure`s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Validation {
    Valid,
    /// Rejected, with the validator's words.
    Invalid(String),
}

/// A new feedback folder in `scratch`, for one checker run.
pub(crate) fn feedback_folder(scratch: &Path) -> Result<PathBuf, JudgeFailure> {
    let feedback = scratch.join("feedback");
    std::fs::create_dir_all(&feedback)
        .map_err(|e| JudgeFailure::judge("create the feedback folder", e))?;
    Ok(feedback)
}

/// Runs the checker on `output` in `scratch`, by its protocol: Kattis
/// (`checker input answer feedback_dir/ [args] < output`) or testlib
/// (`checker input output answer [args]`). `feedback` may hold what the
/// checker left there before (the passes of a multi-pass problem share
/// one); a single run takes a new [`feedback_folder`]. `Err` is the
/// judge's failure.
pub(crate) fn run_checker(
    sandbox: &dyn Runs,
    checker: &Executable,
    tool: &ToolSpec,
    test: &TestCase,
    output: &[u8],
    scratch: &Path,
    feedback: &Path,
) -> Result<Comparison, JudgeFailure> {
    let (input, answer) = (&test.input, &test.answer);
    let output_file = scratch.join("team_output");
    std::fs::write(&output_file, output)
        .map_err(|e| JudgeFailure::judge("write the output for the checker", e))?;
    let mut args_all: Vec<OsString> = checker.args.clone();
    match tool.protocol {
        Protocol::Kattis => args_all.extend([
            input.as_os_str().to_owned(),
            answer.as_os_str().to_owned(),
            feedback_arg(feedback),
        ]),
        Protocol::Testlib => args_all.extend([
            input.as_os_str().to_owned(),
            output_file.as_os_str().to_owned(),
            answer.as_os_str().to_owned(),
        ]),
        // A CMS manager is an interactor, never a checker.
        Protocol::Cms | Protocol::CmsManager { .. } => args_all.extend([
            input.as_os_str().to_owned(),
            answer.as_os_str().to_owned(),
            output_file.as_os_str().to_owned(),
        ]),
    }
    args_all.extend(tool.args.iter().map(OsString::from));
    args_all.extend(test.checker_args.iter().map(OsString::from));
    let outcome = run_trusted(sandbox, checker, args_all, &output_file, scratch)
        .map_err(|e| JudgeFailure::judge("run the checker", e))?;
    match tool.protocol {
        Protocol::Testlib => return testlib_comparison(&outcome, "checker"),
        Protocol::Cms | Protocol::CmsManager { .. } => {
            return cms_comparison(&outcome, "checker");
        }
        Protocol::Kattis => {}
    }
    let judgement = judgement_of(&outcome, "checker", &checker.program)?;
    let (message, score) = read_feedback(feedback, "checker")?;
    Ok(Comparison {
        judgement,
        difference: None,
        message,
        score,
    })
}

/// A testlib checker's or interactor's verdict from its exit code; its
/// message (stderr) is shown, and `quitp` points become the test's score.
/// `Err` is a judge error, naming `role`.
pub(crate) fn testlib_comparison(
    outcome: &crate::sandbox::RunOutcome,
    role: &'static str,
) -> Result<Comparison, JudgeFailure> {
    let message = crate::escape::visible_bytes(&outcome.stderr)
        .trim()
        .to_string();
    let exit = exit_code(outcome.termination);
    comparison_of(testlib_checker(exit, &message), message, role)
}

/// A CMS checker's (or Communication manager's, the `role`) verdict: the
/// fraction of the test's points it wrote on stdout (1 accepted; 0 wrong;
/// between, accepted with that share, as a percentage of the test's
/// points) and its message, the first line of its stderr. Any exit but 0,
/// or no fraction, is a judge error.
pub(crate) fn cms_comparison(
    outcome: &crate::sandbox::RunOutcome,
    role: &'static str,
) -> Result<Comparison, JudgeFailure> {
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    let message = crate::escape::visible_bytes(&outcome.stderr);
    let message = message
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    let outcome = crate::formats::cms_checker(exit_code(outcome.termination), &stdout);
    comparison_of(outcome, message, role)
}

/// A checker's outcome (testlib's or CMS's) as the comparison of a test,
/// its message kept when there is one.
fn comparison_of(
    outcome: CheckerOutcome,
    message: String,
    role: &'static str,
) -> Result<Comparison, JudgeFailure> {
    let (judgement, score) = match outcome {
        CheckerOutcome::Accepted => (Judgement::Accepted, None),
        CheckerOutcome::WrongAnswer => (Judgement::WrongAnswer, None),
        CheckerOutcome::PresentationError => (Judgement::PresentationError, None),
        CheckerOutcome::Points(points) => (Judgement::Accepted, Some(points)),
        CheckerOutcome::JudgeError(why) => return Err(JudgeFailure::program(role, why)),
    };
    Ok(Comparison {
        judgement,
        difference: None,
        message: (!message.is_empty()).then_some(message),
        score,
    })
}

/// Accepted or rejected by a program speaking the Kattis protocol (exit 42
/// or 43); anything else is a judge error, described with its stderr.
pub(crate) fn judgement_of(
    outcome: &crate::sandbox::RunOutcome,
    role: &'static str,
    program: &Path,
) -> Result<Judgement, JudgeFailure> {
    let exit = exit_code(outcome.termination);
    match crate::formats::kattis_output_validator(exit) {
        CheckerOutcome::Accepted => Ok(Judgement::Accepted),
        CheckerOutcome::WrongAnswer => Ok(Judgement::WrongAnswer),
        _ => {
            let other = outcome.termination;
            let stderr = crate::escape::visible_bytes(&outcome.stderr);
            Err(JudgeFailure::program(
                role,
                format!(
                    "{}: {} (expected exit 42 or 43){}",
                    program.display(),
                    crate::verdict::describe_termination(other),
                    if stderr.trim().is_empty() {
                        String::new()
                    } else {
                        format!("\n{}", stderr.trim())
                    }
                ),
            ))
        }
    }
}

/// The message (`judgemessage.txt`, escaped) and score (`score.txt`) a
/// Kattis program left in its feedback folder. An unreadable score is a
/// failure of `role`, the program that wrote it.
pub(crate) fn read_feedback(
    feedback: &Path,
    role: &'static str,
) -> Result<(Option<String>, Option<f64>), JudgeFailure> {
    let read = |name: &str| {
        std::fs::read_to_string(feedback.join(name))
            .ok()
            .map(|s| crate::escape::visible(s.trim()))
    };
    let message = read("judgemessage.txt").filter(|m| !m.is_empty());
    let score = match read("score.txt") {
        None => None,
        Some(text) => match text.parse::<f64>() {
            Ok(score) if score.is_finite() => Some(score),
            _ => {
                return Err(JudgeFailure::program(
                    role,
                    format!("wrote an unreadable score.txt: {text:?}"),
                ));
            }
        },
    };
    Ok((message, score))
}

/// The argument naming a feedback folder: with a trailing slash, as the
/// Kattis protocol passes it.
pub(crate) fn feedback_arg(feedback: &Path) -> OsString {
    let mut arg = feedback.as_os_str().to_owned();
    arg.push("/");
    arg
}

/// Runs `validator [args] < input`: `Invalid` with its words if it rejects
/// the input (Kattis: anything but exit 42; testlib: anything but exit 0).
pub(crate) fn run_validator(
    sandbox: &dyn Runs,
    validator: &Executable,
    tool: &ToolSpec,
    input: &Path,
    scratch: &Path,
) -> Result<Validation, JudgeFailure> {
    let mut all = validator.args.clone();
    all.extend(tool.args.iter().map(OsString::from));
    let outcome = run_trusted(sandbox, validator, all, input, scratch)
        .map_err(|e| JudgeFailure::judge("run the validator", e))?;
    let exit = exit_code(outcome.termination);
    let valid = match tool.protocol {
        Protocol::Kattis => crate::formats::kattis_input_validator(exit),
        // CMS's tasks bring no input validator.
        Protocol::Testlib | Protocol::Cms | Protocol::CmsManager { .. } => {
            crate::formats::testlib_validator(exit)
        }
    };
    match outcome.termination {
        _ if valid => Ok(Validation::Valid),
        other => {
            let mut why = crate::escape::visible_bytes(&outcome.stderr)
                .trim()
                .to_string();
            if why.is_empty() {
                why = crate::escape::visible_bytes(&outcome.stdout)
                    .trim()
                    .to_string();
            }
            if why.is_empty() {
                why = crate::verdict::describe_termination(other);
            }
            Ok(Validation::Invalid(why))
        }
    }
}

/// Runs a checktestdata `script` (already in `scratch`, where the tool can
/// read it) on `input`: `checktestdata script < input`, `tool` being the
/// C++ binary or the Python reimplementation. `Invalid` if the input is
/// invalid (exit 1); any other exit means the script or the tool is
/// broken, the judge's failure (`Err`).
pub(crate) fn run_checktestdata(
    sandbox: &dyn Runs,
    tool: &Executable,
    script: &Path,
    input: &Path,
    scratch: &Path,
) -> Result<Validation, JudgeFailure> {
    let mut args = tool.args.clone();
    args.push(script.as_os_str().to_owned());
    let outcome = run_trusted(sandbox, tool, args, input, scratch)
        .map_err(|e| JudgeFailure::judge("run checktestdata", e))?;
    let exit = exit_code(outcome.termination);
    let message = crate::escape::visible_bytes(&outcome.stderr)
        .trim()
        .to_string();
    match crate::formats::checktestdata(exit) {
        Ok(true) => Ok(Validation::Valid),
        Ok(false) => Ok(Validation::Invalid(message)),
        Err(why) if message.is_empty() => {
            Err(JudgeFailure::program("checktestdata", why.to_string()))
        }
        Err(why) => Err(JudgeFailure::program(
            "checktestdata",
            format!("{why}: {message}"),
        )),
    }
}

/// Runs a trusted program of the package (`args` in full) with its limits,
/// `stdin` on its standard input, in `scratch`.
fn run_trusted(
    sandbox: &dyn Runs,
    program: &Executable,
    args: Vec<OsString>,
    stdin: &Path,
    scratch: &Path,
) -> Result<crate::sandbox::RunOutcome, crate::sandbox::SandboxError> {
    sandbox.run(&RunRequest {
        args,
        stdin: Some(stdin.to_path_buf()),
        ..program.request(scratch, TOOL_LIMITS, crate::sandbox::Containment::Tool)
    })
}

/// The exit code of a program that exited by itself (`None` when it was
/// killed by a signal or at a limit).
pub(crate) fn exit_code(termination: Termination) -> Option<i32> {
    match termination {
        Termination::Exited(code) => Some(code),
        _ => None,
    }
}
