//! A game's referee as a person plays it (`judge play` in a terminal, the
//! play page of `judge serve`): started with the arguments a judged
//! conversation gives it (`referee_args`, which `interaction.rs` uses
//! too), and a finished game judged as a submission's would be.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitStatus;

use crate::checker::{EXIT_ACCEPT, EXIT_REJECT, feedback_arg, read_feedback};
use crate::compile::Executable;
use crate::formats::{CheckerOutcome, testlib_checker};
use crate::spec::{ProblemSpec, Protocol, TestCase, ToolSpec};
use crate::verdict::Verdict;

/// The output file a testlib interactor writes, in its own folder.
pub(crate) const INTERACTOR_OUTPUT: &str = "interactor_output";

/// Why a CMS Communication task cannot be played by a person.
pub(crate) const MANAGER_NOT_PLAYED: &str = "a Communication task's manager talks to the solution through FIFOs, not to a person: it cannot be played";

/// The referee's (interactor's) arguments on `test` with its own folder
/// `folder`: its program's, by its protocol the test's files (and the
/// Kattis feedback folder, or the testlib output file), then its own and
/// the test's arguments.
pub(crate) fn referee_args(
    interactor: &ToolSpec,
    exe: &Executable,
    test: &TestCase,
    folder: &Path,
) -> Vec<OsString> {
    let output_file = folder.join(INTERACTOR_OUTPUT);
    let mut args = exe.args.clone();
    match interactor.protocol {
        // CMS's manager reads the test on its stdin; the sandbox puts the
        // paths of the conversation among its arguments.
        Protocol::CmsManager { .. } => {
            args.extend(interactor.args.iter().map(Into::into));
            return args;
        }
        // A CMS checker is never an interactor.
        Protocol::Kattis | Protocol::Cms => args.extend([
            test.input.as_os_str().to_owned(),
            test.answer.as_os_str().to_owned(),
            feedback_arg(folder),
        ]),
        Protocol::Testlib => args.extend([
            test.input.as_os_str().to_owned(),
            output_file.as_os_str().to_owned(),
            test.answer.as_os_str().to_owned(),
        ]),
    }
    args.extend(interactor.args.iter().map(Into::into));
    args.extend(test.checker_args.iter().map(Into::into));
    args
}

/// A finished game's verdict and the referee's words: a Kattis referee
/// judges alone (exit 42/43, `judgemessage.txt`); a testlib one says OK,
/// WA or PE by its exit code, and on OK the problem's `checker` judges the
/// output file it wrote.
pub(crate) fn game_result(
    sandbox: &dyn crate::sandbox::Runs,
    problem: &ProblemSpec,
    checker: Option<&Executable>,
    test: &TestCase,
    status: ExitStatus,
    stderr: &[u8],
    scratch: &Path,
) -> (Verdict, String) {
    let Some(interactor) = &problem.interactor else {
        return (Verdict::JudgeError, "no interactor".into());
    };
    match interactor.protocol {
        Protocol::CmsManager { .. } => (Verdict::JudgeError, MANAGER_NOT_PLAYED.into()),
        Protocol::Kattis | Protocol::Cms => {
            let (message, _) = read_feedback(scratch, "interactor").unwrap_or_default();
            let verdict = match status.code() {
                Some(EXIT_ACCEPT) => Verdict::Accepted,
                Some(EXIT_REJECT) => Verdict::WrongAnswer,
                _ => Verdict::JudgeError,
            };
            (verdict, message.unwrap_or_default())
        }
        Protocol::Testlib => {
            let said = last_line(stderr);
            match testlib_checker(status.code(), &said) {
                CheckerOutcome::Accepted | CheckerOutcome::Points(_) => {
                    let output = std::fs::read(scratch.join(INTERACTOR_OUTPUT)).unwrap_or_default();
                    let judge = crate::runner::OutputJudge {
                        sandbox,
                        problem,
                        checker,
                    };
                    let (verdict, detail) = judge.verdict(test, &output, scratch);
                    (verdict, detail.unwrap_or(said))
                }
                CheckerOutcome::WrongAnswer => (Verdict::WrongAnswer, said),
                CheckerOutcome::PresentationError => (Verdict::PresentationError, said),
                CheckerOutcome::JudgeError(why) => {
                    (Verdict::JudgeError, format!("interactor {why}"))
                }
            }
        }
    }
}

/// The last non-empty line of `bytes`, escaped.
pub(crate) fn last_line(bytes: &[u8]) -> String {
    let text = crate::escape::visible_bytes(bytes);
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or_default()
        .trim()
        .to_string()
}
