//! Interactive runs: a submission and an interactor, each one's stdout
//! relayed to the other's stdin by the submission's run loop.

use std::io;

use rustix::event::{Timespec, poll};

use super::box_state::BoxState;
use super::imp::{CANCEL_POLL, Sandbox};
use super::relay::Relay;
use super::{Interaction, RunRequest};
use crate::errors::SandboxError;

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
            Ok(Interaction {
                submission: submission_run?,
                interactor: interactor_run,
                interactor_first: match (interactor_closed, submission_closed) {
                    (Some(i), Some(s)) => i < s,
                    (Some(_), None) => true,
                    (None, _) => false,
                },
                transcript: relay.into_transcript(),
            })
        })
    }
}
