//! Interactive runs: a submission and an interactor, each one's stdout
//! relayed to the other's stdin by the submission's run loop.

use std::io;
use std::time::Instant;

use rustix::event::{Timespec, poll};

use super::SandboxError;
use super::box_state::BoxState;
use super::imp::Sandbox;
use super::relay::Relay;
use super::watch::CANCEL_POLL;
use super::{Interaction, RunRequest, Termination};

impl Sandbox {
    /// Runs `submission` in the box `held` against `interactor` (a trusted
    /// program, run with its own limits on a thread of its own), each one's
    /// stdout relayed to the other's stdin.
    pub(super) fn run_interactive_in_box(
        &self,
        held: &mut BoxState,
        submission: &RunRequest,
        interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        let io_error = |what: &str| {
            let what = what.to_string();
            move |source| SandboxError::Io { what, source }
        };
        let (mut relay, submission_fds, interactor_fds) =
            Relay::new(submission.conversation, interactor.conversation)
                .map_err(io_error("create the pipes of an interaction"))?;
        // A submission reaching its FIFOs by path must see their folder.
        let with_fifos;
        let submission = match relay.submission_folder() {
            Some(folder) => {
                let mut request = submission.clone();
                request.read_only.push(folder.to_path_buf());
                with_fifos = request;
                &with_fifos
            }
            None => submission,
        };
        std::thread::scope(|scope| {
            let interactor_run = scope.spawn(|| self.run_trusted(interactor, Some(interactor_fds)));
            let submission_run =
                self.run_in_box(held, submission, Some(submission_fds), Some(&mut relay));
            // A submission stopped at a limit stopped talking then, whether
            // or not the relay has read the end of its output yet.
            let submission_ended = Instant::now();
            // Stopped at the wall clock: whose turn was it? Asked before the
            // relay moves anything on, while the interactor is as it was.
            let interactor_stalled = matches!(
                &submission_run,
                Ok(run) if run.termination == Termination::WallLimit
            ) && relay.interactor_stalled() == Some(true);
            if interactor_stalled {
                relay.stop_interactor();
            }
            // The submission is over: what it wrote still reaches the
            // interactor, which then sees the end of its input and decides.
            relay.submission_gone();
            while !relay.finished() && !self.is_cancelled() {
                let ready = {
                    let mut fds = relay.poll_fds();
                    let timeout = Timespec {
                        tv_sec: 0,
                        tv_nsec: CANCEL_POLL.as_nanos() as _,
                    };
                    match poll(&mut fds, Some(&timeout)) {
                        Ok(n) => n > 0,
                        Err(rustix::io::Errno::INTR) => true,
                        Err(e) => return Err(io_error("poll the interactor")(e.into())),
                    }
                };
                if ready {
                    relay.pump().map_err(io_error("relay the interaction"))?;
                } else if interactor_run.is_finished() {
                    // Gone, but something it left holds its pipe open.
                    break;
                }
            }
            let interactor_run = interactor_run.join().unwrap_or_else(|_| {
                Err(SandboxError::Io {
                    what: "watch the interactor".into(),
                    source: io::Error::other("its thread panicked"),
                })
            });
            let (interactor_closed, submission_closed) = relay.closed_at();
            let submission_closed =
                submission_closed.map_or(submission_ended, |closed| closed.min(submission_ended));
            Ok(Interaction {
                submission: submission_run?,
                interactor: interactor_run,
                interactor_first: interactor_closed.is_some_and(|i| i < submission_closed),
                interactor_stalled,
                transcript: relay.into_transcript(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::sandbox::{Containment, Conversation, IsolationLevel, Limits, RunRequest, Sandbox};
    use crate::test_support::have;

    /// `sh -c script` with `args` after it (its `$0`, `$1`, ...), talking
    /// through `conversation`.
    fn shell(
        dir: &std::path::Path,
        script: &str,
        conversation: Conversation,
        containment: Containment,
    ) -> RunRequest {
        RunRequest {
            args: vec!["-c".into(), script.into()],
            conversation,
            ..RunRequest::new(
                "/bin/sh".into(),
                dir.to_path_buf(),
                Limits::for_tests(256 << 20),
                containment,
            )
        }
    }

    /// CMS's manager and a `fifo_io` solution open the conversation by the
    /// paths they are given (the one they read, then the one they write);
    /// their stdin and stdout stay their own: the manager's input is its
    /// stdin, and what either prints on stdout never reaches the other.
    #[test]
    fn sides_reached_by_path_keep_their_standard_streams() {
        talk_by_path(&Sandbox::new());
    }

    /// The same with the solution in a full box, under a uid of its own
    /// (its FIFOs, mode 0666, in a folder its box shows read-only).
    #[test]
    fn a_boxed_solution_reaches_the_manager_by_path() {
        if !have(&["root"]) {
            return;
        }
        talk_by_path(&Sandbox::with_isolation(IsolationLevel::Full, 1));
    }

    fn talk_by_path(sandbox: &Sandbox) {
        let dir = tempfile::tempdir().unwrap();
        let (manager_dir, solution_dir) = (dir.path().join("m"), dir.path().join("s"));
        for folder in [&manager_dir, &solution_dir] {
            std::fs::create_dir(folder).unwrap();
        }
        let input = dir.path().join("input.txt");
        std::fs::write(&input, "41\n").unwrap();
        let by_path = Conversation::PathArguments { at: 2 };
        let manager = RunRequest {
            stdin: Some(input),
            ..shell(
                &manager_dir,
                r#"exec 4>"$1" 3<"$0"; read n; echo $n >&4; read answer <&3; echo "1.0 got $answer""#,
                by_path,
                Containment::Tool,
            )
        };
        let solution = shell(
            &solution_dir,
            r#"exec 3<"$0" 4>"$1"; read n <&3; echo debug; echo $((n + 1)) >&4"#,
            by_path,
            Containment::Submission,
        );
        let interaction = sandbox
            .worker()
            .run_interactive(&solution, &manager)
            .unwrap();
        let manager = interaction.interactor.unwrap();
        assert_eq!(String::from_utf8_lossy(&manager.stdout), "1.0 got 42\n");
        assert_eq!(
            String::from_utf8_lossy(&interaction.submission.stdout),
            "debug\n"
        );
        let said: Vec<_> = interaction
            .transcript
            .last_lines(2)
            .into_iter()
            .map(|(_, line)| line)
            .collect();
        assert_eq!(said, ["41", "42"]);
    }
}
