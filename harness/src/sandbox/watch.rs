//! Watching one run (the third stage of `Sandbox::run_in`): drain its
//! stdout and stderr with a cap, relay an interaction, read its CPU time
//! and its wall clock less the time it waited for a busy CPU, and stop
//! at the first limit it passes. The child is left unreaped.

use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::SandboxError;
use super::cgroup::Slot;
use super::relay::Relay;
use super::spawn::Spawned;
use super::unix;
use super::{Limits, STDERR_KEEP, Termination};

/// How often a running child's CPU time is checked once it could be near the limit.
const CPU_POLL: Duration = Duration::from_millis(20);
/// The longest the run loop sleeps before looking at the cancel flag again.
pub(super) const CANCEL_POLL: Duration = Duration::from_millis(100);
/// However busy the machine, a run is stopped after this many wall
/// backstops.
const WALL_GIVE_BACK_CAP: u32 = 4;

/// What the run loop measures a run by: its CPU time (all of its tasks, from
/// the cgroup when there is one) and its wall time less the time its tasks
/// spent waiting for a CPU that another program held.
pub(super) struct RunClock<'a> {
    pub(super) start: Instant,
    pub(super) slot: Option<&'a Slot>,
    pub(super) pid: i32,
    /// How many cores the run can use at once: CPU time grows at most this
    /// much faster than wall time.
    pub(super) cpu_share: u64,
}

impl RunClock<'_> {
    fn cpu(&self) -> Option<Duration> {
        self.slot
            .and_then(Slot::cpu_used)
            .or_else(|| unix::cpu_time_so_far(self.pid))
    }

    /// The run's tasks' time spent runnable but not running (run queue
    /// delay), summed: a busy machine's doing, not the program's.
    pub(super) fn waited(&self) -> Duration {
        let tasks = match self.slot {
            Some(slot) => slot.tasks(),
            None => unix::threads_of(self.pid),
        };
        let mut tasks = tasks;
        if !tasks.contains(&self.pid) {
            tasks.push(self.pid);
        }
        tasks.into_iter().filter_map(unix::run_queue_delay).sum()
    }

    /// At the wall backstop `wall`, at `now`: `None` if the run is over
    /// it, else when to look again. The backstop stops programs that
    /// sleep or block, not programs that waited for a CPU another program
    /// held: that time is given back before the run is called over. In an
    /// interaction the submission also waits on the interactor and the
    /// relay, so their time running or waiting to run (`others`) is given
    /// back too. Waiting is summed over the run's tasks and can exceed the
    /// elapsed time, so the run's own give-back is capped: no run outlives
    /// `WALL_GIVE_BACK_CAP` times its backstop, plus the others' time
    /// (which their own limits bound).
    fn next_wall_deadline(
        &self,
        now: Instant,
        wall: Duration,
        others: Duration,
    ) -> Option<Instant> {
        let elapsed = now.duration_since(self.start);
        let idle = elapsed.saturating_sub(self.waited() + others);
        if idle >= wall || elapsed >= wall * WALL_GIVE_BACK_CAP + others {
            return None;
        }
        Some(now + (wall - idle).max(CPU_POLL))
    }
}

/// How a run ended as the run loop saw it.
pub(super) struct Watched {
    /// The limit the run was stopped for; `None` when it exited by itself.
    pub(super) stopped_for: Option<Termination>,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
    /// All it wrote (and sent to an interactor), kept or not.
    pub(super) output_bytes: u64,
}

/// The run's stdout and stderr as they are drained: kept up to a cap,
/// every byte counted.
struct Output {
    /// `None` once at its end (or wired to an interactor).
    stdout_pipe: Option<File>,
    stderr_pipe: Option<File>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    bytes: u64,
    buffer: Vec<u8>,
}

impl Output {
    fn new(child: Spawned) -> io::Result<Output> {
        let output = Output {
            stdout_pipe: child.stdout,
            stderr_pipe: Some(child.stderr),
            stdout: Vec::new(),
            stderr: Vec::new(),
            bytes: 0,
            buffer: vec![0u8; 64 << 10],
        };
        for pipe in output.pipes() {
            rustix::io::ioctl_fionbio(pipe, true)?;
        }
        Ok(output)
    }

    fn pipes(&self) -> impl Iterator<Item = &File> {
        self.stdout_pipe.iter().chain(self.stderr_pipe.iter())
    }

    /// Reads whatever is readable; stdout is kept up to `stdout_keep`
    /// bytes, stderr up to `STDERR_KEEP`.
    fn drain(&mut self, stdout_keep: usize) -> io::Result<()> {
        for (pipe, keep, kept) in [
            (&mut self.stdout_pipe, stdout_keep, &mut self.stdout),
            (&mut self.stderr_pipe, STDERR_KEEP, &mut self.stderr),
        ] {
            let Some(reader) = pipe.as_mut() else {
                continue;
            };
            loop {
                match reader.read(&mut self.buffer) {
                    Ok(0) => {
                        *pipe = None;
                        break;
                    }
                    Ok(n) => {
                        self.bytes += n as u64;
                        let room = keep.saturating_sub(kept.len()).min(n);
                        kept.extend_from_slice(&self.buffer[..room]);
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// The end of the watch: stopped for `stopped_for`, with `relayed`
    /// bytes sent to an interactor besides.
    fn end(self, stopped_for: Option<Termination>, relayed: u64) -> Watched {
        Watched {
            stopped_for,
            stdout: self.stdout,
            stderr: self.stderr,
            output_bytes: self.bytes + relayed,
        }
    }
}

/// Drains the pipes and waits for the child to exit or pass a limit. The
/// child is left unreaped.
pub(super) fn watch(
    child: Spawned,
    process: &unix::RunProcess,
    limits: &Limits,
    clock: &RunClock<'_>,
    cancel: &AtomicBool,
    mut relay: Option<&mut Relay>,
) -> Result<Watched, SandboxError> {
    let io_error = |what: &str| {
        let what = what.to_string();
        move |source| SandboxError::Io { what, source }
    };
    let mut output = Output::new(child).map_err(io_error("make a pipe non-blocking"))?;
    let mut exited = false;
    let mut wall_deadline = clock.start + limits.wall;
    // CPU time grows at most `cpu_share` times as fast as wall time, so
    // checks start near the earliest moment the limit could be reached.
    let first_cpu_check = clock.start + limits.time.mul_f64(0.9 / clock.cpu_share as f64);
    loop {
        output
            .drain(limits.output as usize)
            .map_err(io_error("read the child's output"))?;
        if let Some(relay) = relay.as_deref_mut() {
            relay
                .pump()
                .map_err(|e| io_error("relay the interaction")(e))?;
        }
        let relayed = relay.as_deref().map_or(0, |r| r.submission_output);
        if output.bytes + relayed > limits.output {
            return Ok(output.end(Some(Termination::OutputLimit), relayed));
        }
        if exited {
            // The child is gone and its group was killed by the caller only
            // after we return; data it wrote is already in the pipes, and any
            // descendant still holding them must not keep us waiting.
            return Ok(output.end(None, relayed));
        }
        if cancel.load(Ordering::SeqCst) {
            return Err(SandboxError::Interrupted);
        }
        let now = Instant::now();
        if now >= wall_deadline {
            let others = relay
                .as_deref_mut()
                .map_or(Duration::ZERO, Relay::others_busy);
            match clock.next_wall_deadline(now, limits.wall, others) {
                Some(next) => wall_deadline = next,
                None => return Ok(output.end(Some(Termination::WallLimit), relayed)),
            }
        }
        if now >= first_cpu_check && clock.cpu().is_some_and(|cpu| cpu > limits.time) {
            return Ok(output.end(Some(Termination::CpuLimit), relayed));
        }
        let wake = match now >= first_cpu_check {
            true => wall_deadline.min(now + CPU_POLL),
            false => wall_deadline.min(first_cpu_check),
        };
        let timeout = wake.saturating_duration_since(now).min(CANCEL_POLL);
        exited = wait(process, &output, relay.as_deref(), timeout)
            .map_err(|e| io_error("poll the child")(e))?;
    }
}

/// Sleeps until the child exits, a pipe is readable, the relay has work,
/// or `timeout` passes; whether the child exited. A signal ends the sleep
/// early, as no event.
fn wait(
    process: &unix::RunProcess,
    output: &Output,
    relay: Option<&Relay>,
    timeout: Duration,
) -> io::Result<bool> {
    let timespec = Timespec {
        tv_sec: timeout.as_secs() as _,
        tv_nsec: timeout.subsec_nanos() as _,
    };
    let mut fds = Vec::with_capacity(5);
    fds.push(PollFd::new(process.pidfd(), PollFlags::IN));
    fds.extend(output.pipes().map(|p| PollFd::new(p, PollFlags::IN)));
    if let Some(relay) = relay {
        fds.extend(relay.poll_fds());
    }
    match poll(&mut fds, Some(&timespec)) {
        Ok(_) => Ok(!fds[0].revents().is_empty()),
        Err(rustix::io::Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}
