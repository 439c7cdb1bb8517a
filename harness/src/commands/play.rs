//! `judge play ID`: a person takes the submission's seat against the
//! package's interactor, in the terminal. The interactor is told (env
//! `JUDGE_PLAY=1`) that a person plays, and draws the board on stderr.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use wait_timeout::ChildExt;

use super::Context;
use crate::checker::{EXIT_ACCEPT, EXIT_REJECT, feedback_arg, read_feedback};
use crate::compile::Built;
use crate::errors::{Error, Result};

/// How long the referee may take to exit once it has closed its output.
const REFEREE_EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

pub(super) fn play(ctx: &mut Context, id: &str, test_name: Option<&str>) -> Result<u8> {
    let problem = ctx.load_one(id)?;
    let Some(interactor) = &problem.interactor else {
        return Err(Error::Usage(format!(
            "{id} is not interactive: there is nobody to play against (try `judge test {id} FILE`)"
        )));
    };
    if interactor.protocol != crate::spec::Protocol::Kattis {
        return Err(Error::Usage(format!(
            "{id}'s interactor speaks the testlib protocol; `judge play` seats a person only against a Kattis interactor (try `judge test {id} FILE`)"
        )));
    }
    let test = match test_name {
        Some(name) => problem
            .tests
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{id} has no test `{name}`; its tests: {}",
                    problem
                        .tests
                        .iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
        None => problem
            .tests
            .first()
            .ok_or_else(|| Error::Usage(format!("{id} has no tests to play")))?,
    };
    let exe = match ctx.builder.build(&interactor.program) {
        Built::Ready(exe) => exe,
        Built::CompileError(m) | Built::JudgeError(m) => {
            return Err(Error::Usage(format!("the interactor did not build: {m}")));
        }
    };
    let feedback = tempfile::tempdir_in(ctx.scratch.path()).map_err(|source| Error::Report {
        what: "a feedback folder".into(),
        source,
    })?;
    writeln!(
        ctx.out,
        "{} — {}: you play against the referee on {}. Type your moves; Ctrl-D gives up.",
        ctx.styles.bold(&problem.id),
        problem.title,
        test.name
    )
    .map_err(io)?;
    ctx.out.flush().map_err(io)?;
    let mut child = Command::new(&exe.program)
        .args(&exe.args)
        .arg(&test.input)
        .arg(&test.answer)
        .arg(feedback_arg(feedback.path()))
        .args(&interactor.args)
        .env("JUDGE_PLAY", "1")
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| Error::Report {
            what: format!("start {}", exe.program.display()),
            source,
        })?;
    // The referee's messages and drawings reach the terminal as they come,
    // with control bytes escaped (a package is not trusted with the terminal).
    let copiers = [
        child
            .stdout
            .take()
            .map(|pipe| copy_visible(pipe, std::io::stdout())),
        child
            .stderr
            .take()
            .map(|pipe| copy_visible(pipe, std::io::stderr())),
    ];
    // The referee's pipes close when it is done; a referee that then fails
    // to exit is stopped, so the judge never hangs on it.
    for copier in copiers.into_iter().flatten() {
        let _ = copier.join();
    }
    let waited = child
        .wait_timeout(REFEREE_EXIT_GRACE)
        .map_err(|source| Error::Report {
            what: "wait for the interactor".into(),
            source,
        })?;
    let status = match waited {
        Some(status) => status,
        None => {
            let _ = child.kill();
            child.wait().map_err(|source| Error::Report {
                what: "wait for the interactor".into(),
                source,
            })?
        }
    };
    let (message, _) = read_feedback(feedback.path()).unwrap_or_default();
    let message = message.unwrap_or_default();
    let (won, line) = match status.code() {
        Some(EXIT_ACCEPT) => (true, ctx.styles.good("You win (AC).")),
        Some(EXIT_REJECT) => (false, ctx.styles.bad("The referee wins (WA).")),
        _ => (
            false,
            ctx.styles.bad(&format!(
                "The referee broke down ({status}): a judge error."
            )),
        ),
    };
    writeln!(ctx.out, "{line} {message}").map_err(io)?;
    Ok(if won { 0 } else { 1 })
}

fn copy_visible(
    mut from: impl Read + Send + 'static,
    mut to: impl Write + Send + 'static,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        // A character split between two reads waits for its other half.
        let mut held: Vec<u8> = Vec::new();
        while let Ok(n) = from.read(&mut buffer) {
            if n == 0 {
                break;
            }
            held.extend_from_slice(&buffer[..n]);
            let complete = match std::str::from_utf8(&held) {
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                _ => held.len(),
            };
            let text = crate::escape::visible_bytes(&held[..complete]);
            held.drain(..complete);
            if to
                .write_all(text.as_bytes())
                .and_then(|_| to.flush())
                .is_err()
            {
                break;
            }
        }
    })
}

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}
