//! The run loop: spawn into a fresh process group, drain stdout and stderr
//! with a cap, watch CPU time and the wall clock, kill the group at any
//! limit, and always reap the child with its own rusage.

use std::io::{self, Read};
use std::os::fd::AsFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, PidfdFlags, pidfd_open};

use super::cgroup::{CgroupPool, Slot};
use super::isolation::{Isolation, IsolationLevel};
use super::spawn::{ChildSetup, Spawned, env_pair, spawn};
use super::unix::{self, ChildLimits};
use super::{Containment, Metrics, RunOutcome, RunRequest, SANDBOX_PATH, STDERR_KEEP, Termination};
use crate::errors::SandboxError;

/// How often a running child's CPU time is checked once it could be near the limit.
const CPU_POLL: Duration = Duration::from_millis(20);

/// The longest the run loop sleeps before looking at the cancel flag again.
const CANCEL_POLL: Duration = Duration::from_millis(100);
/// Tasks (processes and threads) a contained submission may have at once.
const MAX_TASKS: u64 = 128;

/// Runs programs under limits. Cheap to clone and share between workers.
#[derive(Debug, Clone)]
pub struct Sandbox {
    cancel: Arc<AtomicBool>,
    isolation: Arc<Isolation>,
    /// Folders a contained run must not see (the judge's root, temp folders).
    hide: Arc<Vec<PathBuf>>,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new()
    }
}

impl Sandbox {
    /// Limits only: no namespaces, cgroups or privilege drop.
    pub fn new() -> Sandbox {
        Sandbox {
            cancel: Arc::default(),
            isolation: Arc::new(Isolation::detect(IsolationLevel::Limits)),
            hide: Arc::default(),
        }
    }

    /// The isolation `level` allows on this machine; contained runs see
    /// nothing of `hide` but their own program and working folders.
    pub fn with_isolation(level: IsolationLevel, hide: Vec<PathBuf>) -> Sandbox {
        // Only the outermost of nested folders is covered (a tmpfs over /tmp
        // already hides a root under /tmp); `/` itself is never covered.
        let mut hide: Vec<PathBuf> = hide.into_iter().filter(|p| p.parent().is_some()).collect();
        hide.sort();
        hide.dedup_by(|inner, outer| inner.starts_with(outer));
        Sandbox {
            cancel: Arc::default(),
            isolation: Arc::new(Isolation::detect(level)),
            hide: Arc::new(hide),
        }
    }

    /// The flag that, once set (by a Ctrl-C handler), kills running programs
    /// and makes every later run fail with `SandboxError::Interrupted`.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    /// One line saying which isolation this sandbox applies, and which not.
    pub fn describe(&self) -> String {
        self.isolation.describe()
    }

    /// The folders a contained run must see besides the system ones: its
    /// working folder (writable), and the folders of its program and of its
    /// path arguments (an interpreter's script), read-only.
    fn visible(&self, request: &RunRequest) -> Vec<(PathBuf, bool)> {
        let system = [
            "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/dev",
        ];
        let mut keep = vec![(request.workdir.clone(), true)];
        let paths =
            std::iter::once(request.program.as_path()).chain(request.args.iter().map(Path::new));
        for path in paths
            .filter(|p| p.is_absolute() && p.exists() && !system.iter().any(|s| p.starts_with(s)))
        {
            let dir = if path.is_dir() {
                path
            } else {
                path.parent().unwrap_or(path)
            };
            if !keep.iter().any(|(k, _)| dir.starts_with(k)) {
                keep.push((dir.to_path_buf(), false));
            }
        }
        keep
    }

    pub fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        if self.is_cancelled() {
            return Err(SandboxError::Interrupted);
        }
        match (&self.isolation.cgroups, request.containment) {
            (Some(pool), Containment::Submission) => {
                CgroupPool::with_slot(pool, request.limits.memory, MAX_TASKS, |slot| {
                    self.run_in(request, Some(slot))
                })
                .map_err(|source| SandboxError::Io {
                    what: "prepare the cgroup".into(),
                    source,
                })?
            }
            _ => self.run_in(request, None),
        }
    }

    fn run_in(
        &self,
        request: &RunRequest,
        slot: Option<&Slot>,
    ) -> Result<RunOutcome, SandboxError> {
        let limits = request.limits;
        let submission = request.containment == Containment::Submission;
        let drop_uid = submission && self.isolation.drop_to.is_some();
        let child_limits = ChildLimits {
            cpu_seconds: limits.time.as_secs() + 2,
            // A memory cgroup stops runaway allocation cleanly; without one an
            // address-space limit must, set high enough that a program growing
            // past the memory limit is still measured (MLE) rather than crashing.
            address_space: slot
                .is_none()
                .then(|| (limits.memory * 2).max(limits.memory + (256 << 20))),
            file_size: limits.output,
            stack: request.stack,
            open_files: 256,
            processes: drop_uid.then_some(MAX_TASKS * 4),
        };
        let mut setup = match request.containment {
            Containment::Tool => ChildSetup::default(),
            Containment::Submission | Containment::Compiler => self.isolation.child_setup(
                submission,
                self.hide.to_vec(),
                self.visible(request),
                // What a submission writes lives in memory (charged to its
                // cgroup), bounded by the output limit, and vanishes with it.
                submission.then(|| (request.workdir.clone(), limits.output)),
            ),
        };
        setup.limits = Some(child_limits);
        if let Some(slot) = slot {
            setup.cgroup_files = slot.join_fds();
        }
        if drop_uid {
            if let Some((uid, gid)) = self.isolation.drop_to {
                std::os::unix::fs::chown(&request.workdir, Some(uid), Some(gid)).map_err(
                    |source| SandboxError::Io {
                        what: format!("hand {} to the sandbox user", request.workdir.display()),
                        source,
                    },
                )?;
            }
        }
        let mut env = vec![
            env_pair("PATH", SANDBOX_PATH),
            env_pair("HOME", &request.workdir),
            env_pair("TMPDIR", &request.workdir),
            env_pair("LANG", "C.UTF-8"),
        ];
        // The request's variables replace the defaults of the same name.
        env.retain(|(key, _)| !request.env.iter().any(|(k, _)| k == key));
        env.extend(request.env.iter().cloned());

        let start = Instant::now();
        let spawned = spawn(
            &request.program,
            &request.args,
            &env,
            request.stdin.as_deref(),
            &request.workdir,
            &setup,
        )?;
        let pid = spawned.pid;
        let watched = watch(spawned, request, start, &self.cancel);
        // Whatever happened, nothing of this run may survive it.
        unix::kill_group(pid);
        let reaped = unix::wait4(pid);
        let wall = start.elapsed();
        let (peak_kib, oom) = match slot {
            Some(slot) => {
                // In a PID namespace everything died with PID 1 already.
                if self.isolation.namespaces & libc::CLONE_NEWPID == 0 {
                    slot.kill_all();
                }
                (slot.peak_kib(), slot.oom_killed())
            }
            None => (None, false),
        };
        let (termination_by_us, stdout, stderr, output_bytes) = watched?;
        let reaped = reaped.map_err(|source| SandboxError::Io {
            what: "wait for the child".into(),
            source,
        })?;

        let status = ExitStatus::from_raw(reaped.status);
        let termination =
            termination_by_us.unwrap_or_else(|| match (status.code(), status.signal()) {
                (Some(code), _) => Termination::Exited(code),
                (None, Some(libc::SIGKILL)) if oom => Termination::MemoryLimit,
                (None, Some(signal)) => Termination::Signaled(signal),
                (None, None) => Termination::Signaled(0),
            });
        Ok(RunOutcome {
            termination,
            metrics: Metrics {
                cpu: reaped.cpu,
                wall,
                peak_memory_kib: peak_kib.unwrap_or(reaped.max_rss_kib),
                output_bytes,
            },
            stdout,
            stderr,
        })
    }
}

type Watched = (Option<Termination>, Vec<u8>, Vec<u8>, u64);

/// Drains the pipes and waits for the child to exit or pass a limit. Returns
/// the limit we killed it for, if any. The child is left unreaped.
fn watch(
    child: Spawned,
    request: &RunRequest,
    start: Instant,
    cancel: &AtomicBool,
) -> Result<Watched, SandboxError> {
    let pid = child.pid;
    let limits = request.limits;
    let io_error = |what: &str| {
        let what = what.to_string();
        move |source| SandboxError::Io { what, source }
    };
    let pidfd = pidfd_open(
        Pid::from_raw(pid).expect("a child's pid is positive"),
        PidfdFlags::empty(),
    )
    .map_err(|e| io_error("open a pidfd")(e.into()))?;
    let mut stdout_pipe = Some(child.stdout);
    let mut stderr_pipe = Some(child.stderr);
    for pipe in [
        stdout_pipe.as_ref().map(|p| p.as_fd()),
        stderr_pipe.as_ref().map(|p| p.as_fd()),
    ]
    .into_iter()
    .flatten()
    {
        rustix::io::ioctl_fionbio(pipe, true)
            .map_err(|e| io_error("make a pipe non-blocking")(e.into()))?;
    }

    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let mut output_bytes: u64 = 0;
    let mut exited = false;
    let mut buffer = vec![0u8; 64 << 10];
    let wall_deadline = start + limits.wall;
    // A single thread can't use more CPU than wall time, so checks start near the limit.
    let first_cpu_check = start + limits.time.mul_f64(0.9);

    loop {
        // Drain whatever is readable, up to the output cap.
        for (pipe, keep, kept) in [
            (&mut stdout_pipe, limits.output as usize, &mut stdout),
            (&mut stderr_pipe, STDERR_KEEP, &mut stderr),
        ] {
            let Some(reader) = pipe.as_mut() else {
                continue;
            };
            loop {
                match reader.read(&mut buffer) {
                    Ok(0) => {
                        *pipe = None;
                        break;
                    }
                    Ok(n) => {
                        output_bytes += n as u64;
                        let room = keep.saturating_sub(kept.len()).min(n);
                        kept.extend_from_slice(&buffer[..room]);
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(io_error("read the child's output")(e)),
                }
            }
        }
        if output_bytes > limits.output {
            return Ok((Some(Termination::OutputLimit), stdout, stderr, output_bytes));
        }
        if exited {
            // The child is gone and its group was killed by the caller only
            // after we return; data it wrote is already in the pipes, and any
            // descendant still holding them must not keep us waiting.
            return Ok((None, stdout, stderr, output_bytes));
        }

        if cancel.load(Ordering::SeqCst) {
            return Err(SandboxError::Interrupted);
        }
        let now = Instant::now();
        if now >= wall_deadline {
            return Ok((Some(Termination::WallLimit), stdout, stderr, output_bytes));
        }
        if now >= first_cpu_check && unix::cpu_time_so_far(pid).is_some_and(|cpu| cpu > limits.time)
        {
            return Ok((Some(Termination::CpuLimit), stdout, stderr, output_bytes));
        }
        let mut wake = wall_deadline;
        if now >= first_cpu_check {
            wake = wake.min(now + CPU_POLL);
        } else {
            wake = wake.min(first_cpu_check);
        }
        let timeout = wake.saturating_duration_since(now).min(CANCEL_POLL);
        let timespec = Timespec {
            tv_sec: timeout.as_secs() as _,
            tv_nsec: timeout.subsec_nanos() as _,
        };

        let mut fds = Vec::with_capacity(3);
        fds.push(PollFd::new(&pidfd, PollFlags::IN));
        if let Some(p) = &stdout_pipe {
            fds.push(PollFd::new(p, PollFlags::IN));
        }
        if let Some(p) = &stderr_pipe {
            fds.push(PollFd::new(p, PollFlags::IN));
        }
        match poll(&mut fds, Some(&timespec)) {
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(io_error("poll the child")(e.into())),
        }
        if !fds[0].revents().is_empty() {
            exited = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Limits;

    fn limits() -> Limits {
        Limits {
            time: Duration::from_secs(1),
            wall: Duration::from_secs(2),
            memory: 256 << 20,
            output: 1 << 20,
        }
    }

    fn run_sh(script: &str, limits: Limits) -> RunOutcome {
        let dir = tempfile::tempdir().unwrap();
        let request = RunRequest {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            stdin: None,
            workdir: dir.path().to_path_buf(),
            limits,
            env: Vec::new(),
            stack: None,
            containment: Containment::Tool,
        };
        Sandbox::new().run(&request).unwrap()
    }

    #[test]
    fn captures_stdout_and_exit_code() {
        let outcome = run_sh("echo hello; echo oops >&2; exit 3", limits());
        assert_eq!(outcome.termination, Termination::Exited(3));
        assert_eq!(outcome.stdout, b"hello\n");
        assert_eq!(outcome.stderr, b"oops\n");
        assert_eq!(outcome.metrics.output_bytes, 11);
    }

    #[test]
    fn sleeper_hits_the_wall_backstop() {
        let mut l = limits();
        l.wall = Duration::from_millis(300);
        let outcome = run_sh("sleep 5", l);
        assert_eq!(outcome.termination, Termination::WallLimit);
        assert!(outcome.metrics.wall < Duration::from_secs(2));
    }

    #[test]
    fn busy_loop_hits_the_cpu_limit() {
        let mut l = limits();
        l.time = Duration::from_millis(200);
        l.wall = Duration::from_secs(5);
        let outcome = run_sh("while :; do :; done", l);
        assert_eq!(outcome.termination, Termination::CpuLimit);
        assert!(outcome.metrics.cpu >= Duration::from_millis(200));
    }

    #[test]
    fn flood_hits_the_output_limit() {
        let outcome = run_sh("yes", limits());
        assert_eq!(outcome.termination, Termination::OutputLimit);
        assert_eq!(outcome.stdout.len(), 1 << 20);
    }
}
