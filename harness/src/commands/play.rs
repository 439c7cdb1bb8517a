//! `judge play ID`: a person takes the submission's seat against the
//! package's interactor, in the terminal. The interactor is told (env
//! `JUDGE_PLAY=1`) that a person plays, and draws the board on stderr.
//! A Kattis interactor judges alone (exit 42/43, `judgemessage.txt`); a
//! testlib interactor gets `input output_file answer` in a scratch folder,
//! says OK, WA or PE by its exit code, and on OK the problem's checker
//! judges the output file it wrote, as a submission's game would be judged.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};

use wait_timeout::ChildExt;

use super::Context;
use crate::compile::{Executable, NotProgram};
use crate::errors::{Error, Result};
use crate::runner::{game_result, referee_args};
use crate::spec::{CompareMode, ProblemSpec, Protocol, TestCase};
use crate::verdict::Verdict;

/// How long the referee may take to exit once it has closed its output.
const REFEREE_EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// The end of the referee's stderr kept for its verdict message.
const STDERR_TAIL: usize = 4 << 10;

pub(super) fn play(ctx: &mut Context, id: &str, test_name: Option<&str>) -> Result<u8> {
    play_at(ctx, id, test_name, referee)
}

/// [`play`], with `seat` starting the referee's command and returning how
/// it ended and the end of its stderr: [`referee`] puts the person at the
/// terminal in the submission's seat; a test plays the game itself.
pub(crate) fn play_at(
    ctx: &mut Context,
    id: &str,
    test_name: Option<&str>,
    seat: impl FnOnce(Command) -> Result<(ExitStatus, Vec<u8>)>,
) -> Result<u8> {
    let problem = ctx.load_one(id)?;
    let Some(interactor) = problem.playable_referee() else {
        let why = match problem.interactor {
            Some(_) => format!(": {}", crate::runner::MANAGER_NOT_PLAYED),
            None => " is not interactive: there is nobody to play against".into(),
        };
        return Err(Error::Usage(format!(
            "{id}{why} (try `judge test {id} FILE`)"
        )));
    };
    let test = find_test(&problem, test_name)?;
    let exe = build(ctx, &interactor.program, "interactor")?;
    // The checker of a testlib interactor's output file, built before the
    // game so that a broken one does not waste the player's moves.
    let checker = match (&problem.compare.mode, interactor.protocol) {
        (CompareMode::Checker(tool), Protocol::Testlib) => {
            Some(build(ctx, &tool.program, "checker")?)
        }
        _ => None,
    };
    let scratch = tempfile::tempdir_in(ctx.scratch.path()).map_err(|source| Error::Report {
        what: "a scratch folder".into(),
        source,
    })?;
    let args = referee_args(interactor, &exe, test, scratch.path());
    writeln!(
        ctx.out,
        "{} — {}: you play against the referee on {}. Type your moves; Ctrl-D gives up.",
        ctx.styles.bold(&problem.id),
        problem.title,
        test.name
    )
    .map_err(io)?;
    ctx.out.flush().map_err(io)?;
    let mut command = Command::new(&exe.program);
    command
        .args(&args)
        .current_dir(scratch.path())
        .env("JUDGE_PLAY", "1");
    let (status, stderr) = seat(command)?;
    let (verdict, message) = game_result(
        ctx.builder.worker(),
        &problem,
        checker.as_ref(),
        test,
        status,
        &stderr,
        scratch.path(),
    );
    let line = match verdict {
        Verdict::Accepted => ctx.styles.good("You win (AC)."),
        Verdict::JudgeError => ctx.styles.bad(&format!(
            "The referee broke down ({status}): a judge error."
        )),
        other => ctx.styles.bad(&format!("The referee wins ({other}).")),
    };
    writeln!(ctx.out, "{line} {message}").map_err(io)?;
    Ok(if verdict == Verdict::Accepted { 0 } else { 1 })
}

pub(crate) fn find_test<'a>(problem: &'a ProblemSpec, name: Option<&str>) -> Result<&'a TestCase> {
    let id = &problem.id;
    match name {
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
            }),
        None => problem
            .tests
            .first()
            .ok_or_else(|| Error::Usage(format!("{id} has no tests to play"))),
    }
}

fn build(ctx: &mut Context, program: &crate::spec::ProgramRef, role: &str) -> Result<Executable> {
    match ctx.builder.build(program).into_program() {
        Ok(exe) => Ok(exe),
        Err(NotProgram::NotBuilt(why)) => {
            Err(Error::Usage(format!("the {role} did not build: {why}")))
        }
        Err(NotProgram::AnswerSet(_)) => Err(Error::Usage(format!(
            "the {role} is an answer set: an output-only problem is not played"
        ))),
    }
}

/// Runs the referee with the player on its stdin; its stdout and stderr
/// reach the terminal as they come. Returns how it ended and the end of
/// its stderr (where a testlib interactor says its verdict).
fn referee(mut command: Command) -> Result<(ExitStatus, Vec<u8>)> {
    let mut child = command
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| Error::Report {
            what: format!("start {}", command.get_program().to_string_lossy()),
            source,
        })?;
    // The referee's messages and drawings reach the terminal as they come,
    // with control bytes escaped (a package is not trusted with the terminal).
    let stdout = child
        .stdout
        .take()
        .map(|pipe| copy_visible(pipe, std::io::stdout()));
    let stderr = child
        .stderr
        .take()
        .map(|pipe| copy_visible(pipe, std::io::stderr()));
    // The referee's pipes close when it is done; a referee that then fails
    // to exit is stopped, so the judge never hangs on it.
    if let Some(copier) = stdout {
        let _ = copier.join();
    }
    let stderr = stderr
        .and_then(|copier| copier.join().ok())
        .unwrap_or_default();
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
    Ok((status, stderr))
}

/// Copies `from` to `to` as it comes, escaped; returns the end of what it
/// copied (at most `STDERR_TAIL` bytes).
fn copy_visible(
    mut from: impl Read + Send + 'static,
    mut to: impl Write + Send + 'static,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        // A character split between two reads waits for its other half.
        let mut held: Vec<u8> = Vec::new();
        let mut tail: Vec<u8> = Vec::new();
        let mut writing = true;
        while let Ok(n) = from.read(&mut buffer) {
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&buffer[..n]);
            if tail.len() > STDERR_TAIL {
                tail.drain(..tail.len() - STDERR_TAIL);
            }
            if !writing {
                continue;
            }
            held.extend_from_slice(&buffer[..n]);
            let complete = match std::str::from_utf8(&held) {
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                _ => held.len(),
            };
            let text = crate::escape::visible_bytes(&held[..complete]);
            held.drain(..complete);
            // A closed terminal stops the echo, not the reading: the
            // referee must not block on a full pipe.
            writing = to
                .write_all(text.as_bytes())
                .and_then(|_| to.flush())
                .is_ok();
        }
        tail
    })
}

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use crate::runner::last_line;

    #[test]
    fn the_verdict_message_is_the_last_line_said() {
        assert_eq!(
            last_line(b"board\n. . x\nok found 7 after 3 questions\n\n"),
            "ok found 7 after 3 questions"
        );
        assert_eq!(last_line(b""), "");
    }
}
