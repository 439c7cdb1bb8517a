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
            Relay::new().map_err(io_error("create the pipes of an interaction"))?;
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
