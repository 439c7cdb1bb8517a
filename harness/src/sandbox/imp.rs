//! One run: prepare the child's setup, spawn it into a fresh process
//! group, watch it under its limits (`watch.rs`), kill whatever it left
//! and always reap the child with its own rusage.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::SandboxError;
use super::box_state::BoxState;
use super::cgroup::{CgroupPool, Slot};
use super::isolation::{Isolation, IsolationLevel};
use super::relay::{Relay, SideFds};
use super::spawn::{ChildSetup, Spawned, env_pair, spawn};
use super::unix::{self, ChildLimits};
use super::watch::{RunClock, watch};
use super::worker_uid::UidRange;
use super::{Containment, Metrics, RunOutcome, RunRequest, SANDBOX_PATH, Termination};

/// Tasks (processes and threads) a contained submission may have at once.
const MAX_TASKS: u64 = 128;

/// Runs programs under limits. Cheap to clone and share between workers.
#[derive(Debug, Clone)]
pub struct Sandbox {
    cancel: Arc<AtomicBool>,
    isolation: Arc<Isolation>,
    /// The CPU cores one contained run may use at once (its cgroup quota):
    /// the machine's cores shared among the parallel runs, at least one.
    cpu_share: u64,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new()
    }
}

impl Sandbox {
    /// Limits only: no namespaces, cgroups or privilege drop.
    pub fn new() -> Sandbox {
        Sandbox::with_isolation(IsolationLevel::Limits, 1)
    }

    /// The isolation `level` allows on this machine, for `jobs` runs at once.
    pub fn with_isolation(level: IsolationLevel, jobs: usize) -> Sandbox {
        Sandbox::with_uid_range(level, jobs, UidRange::default())
    }

    /// As `with_isolation`, the workers' uids taken from `uids` (root judge).
    pub fn with_uid_range(level: IsolationLevel, jobs: usize, uids: UidRange) -> Sandbox {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Sandbox {
            cancel: Arc::default(),
            isolation: Arc::new(Isolation::detect(level, uids)),
            cpu_share: (cores / jobs.max(1)).max(1) as u64,
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
    /// working folder (writable), the folders of its program and of its path
    /// arguments (an interpreter's script), and `read_only`, read-only.
    fn visible(&self, request: &RunRequest) -> Vec<(PathBuf, bool)> {
        let system = [
            "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
        ];
        let mut keep = vec![(request.workdir.clone(), true)];
        let paths = std::iter::once(request.program.as_path())
            .chain(request.args.iter().map(Path::new))
            .chain(request.read_only.iter().map(PathBuf::as_path));
        for path in paths.filter(|p| p.is_absolute() && !system.iter().any(|s| p.starts_with(s))) {
            let Ok(meta) = std::fs::metadata(path) else {
                continue;
            };
            let dir = if meta.is_dir() {
                path
            } else {
                path.parent().unwrap_or(path)
            };
            if !keep.iter().any(|(k, _)| dir.starts_with(k)) {
                keep.retain(|(k, writable)| *writable || !k.starts_with(dir));
                keep.push((dir.to_path_buf(), false));
            }
        }
        keep
    }

    /// Runs `request` in the box `held` (a trusted program needs none);
    /// with `wired`, its stdin and stdout are those pipes, and with
    /// `relay`, the run loop also relays the interaction.
    pub(super) fn run_in_box(
        &self,
        held: &mut BoxState,
        request: &RunRequest,
        wired: Option<SideFds>,
        relay: Option<&mut Relay>,
    ) -> Result<RunOutcome, SandboxError> {
        if self.is_cancelled() {
            return Err(SandboxError::Interrupted);
        }
        let pool = match (&self.isolation.cgroups, request.containment) {
            (Some(pool), Containment::Submission | Containment::Compiler) => pool,
            _ => return self.run_in(Some(held), request, None, wired, relay),
        };
        // The slot is the box's, lent to this run.
        let mut lent = held.slot.take();
        let outcome = CgroupPool::slot_for(
            pool,
            &mut lent,
            request.limits.memory,
            MAX_TASKS,
            self.cpu_share,
        )
        .map_err(|source| SandboxError::Io {
            what: "prepare the cgroup".into(),
            source,
        })
        .and_then(|slot| self.run_in(Some(held), request, Some(slot), wired, relay));
        held.slot = lent;
        outcome
    }

    /// A trusted program, without a box (the interactor beside a
    /// submission, on a thread of its own).
    pub(super) fn run_trusted(
        &self,
        request: &RunRequest,
        wired: Option<SideFds>,
    ) -> Result<RunOutcome, SandboxError> {
        if self.is_cancelled() {
            return Err(SandboxError::Interrupted);
        }
        self.run_in(None, request, None, wired, None)
    }

    /// See `Worker::only_runs_from_now_on`.
    pub(super) fn filter_runs_on_this_thread(&self, held: &mut BoxState) {
        self.isolation.filter_runs_on_this_thread(held);
    }

    /// One run, in four stages: `prepare` the child's setup (and the
    /// working folder's files), `spawn` it, `watch` it under its limits,
    /// and `tear_down` whatever it left; then its outcome.
    fn run_in(
        &self,
        mut held: Option<&mut BoxState>,
        request: &RunRequest,
        slot: Option<&Slot>,
        wired: Option<SideFds>,
        relay: Option<&mut Relay>,
    ) -> Result<RunOutcome, SandboxError> {
        let setup = self.prepare(held.as_deref_mut(), request, slot)?;
        let working = open_working(held.as_deref(), request, &setup)?;
        if let Some(slot) = slot {
            slot.begin();
        }
        let start = Instant::now();
        let (spawned, process) = start_child(request, wired, &setup)?;
        let pid = spawned.pid;
        let clock = RunClock {
            start,
            slot,
            pid,
            cpu_share: if slot.is_some_and(|_| self.counts_all_cpu()) {
                self.cpu_share
            } else {
                1
            },
        };
        let watched = watch(
            spawned,
            &process,
            &request.limits,
            &clock,
            &self.cancel,
            relay,
        );
        let waited = clock.waited();
        let (reaped, cleared) = tear_down(held.as_deref_mut(), &setup, slot, &process, pid);
        let wall = start.elapsed();
        let (peak_kib, oom, cgroup_cpu) = match slot {
            Some(slot) => (slot.peak_kib(), slot.oom_killed(), slot.cpu_used()),
            None => (None, false, None),
        };
        // Taken out before the worker renews the folder, and only from a
        // run that ended well by itself.
        let exited_well = matches!(&watched, Ok(w) if w.stopped_for.is_none())
            && reaped.as_ref().is_ok_and(|r| r.status == 0);
        let collected = match (&request.collect, &working) {
            (Some(collect), Some(dir)) if exited_well || collect.whatever_the_exit => {
                Some(super::working::collect(dir.as_fd(), collect))
            }
            _ => None,
        };
        drop(working);
        renew_prepared_root(held, &setup);
        cleared.map_err(|source| SandboxError::Io {
            what: "clear the worker's PID namespace after the run".into(),
            source,
        })?;
        let watched = watched?;
        let reaped = reaped.map_err(|source| SandboxError::Io {
            what: "wait for the child".into(),
            source,
        })?;
        Ok(RunOutcome {
            termination: watched
                .stopped_for
                .unwrap_or_else(|| termination(reaped.status, oom)),
            metrics: Metrics {
                // The cgroup counts every task the run had; rusage only the
                // ones it waited for.
                cpu: cgroup_cpu.map_or(reaped.cpu, |cpu| cpu.max(reaped.cpu)),
                wall,
                waited,
                peak_memory_kib: peak_kib.unwrap_or(reaped.max_rss_kib),
                output_bytes: watched.output_bytes,
            },
            stdout: watched.stdout,
            stderr: watched.stderr,
            collected,
        })
    }

    /// What the child does before exec: the box's view and namespaces for
    /// a contained run, its limits, its cgroup; and the working folder
    /// handed to the worker's uid.
    fn prepare(
        &self,
        held: Option<&mut BoxState>,
        request: &RunRequest,
        slot: Option<&Slot>,
    ) -> Result<ChildSetup, SandboxError> {
        let limits = request.limits;
        // What a submission writes lives in memory (charged to its cgroup),
        // bounded by the output limit, and vanishes with it; so does what
        // a compile writes, bounded by its own size, once copied out.
        let scratch_bytes = match request.containment {
            Containment::Submission => Some(limits.output),
            Containment::Compiler => request.collect.as_ref().map(|c| c.working_bytes),
            Containment::Tool => None,
        };
        let mut setup = match (request.containment != Containment::Tool, held) {
            (true, Some(held)) => {
                let scratch = scratch_bytes.map(|bytes| (request.workdir.clone(), bytes));
                let setup = self
                    .isolation
                    .child_setup(held, self.visible(request), scratch);
                let tmpfs_out_of_reach = setup
                    .mounts
                    .as_ref()
                    .is_some_and(|plan| plan.scratch.is_some() && plan.prepared.is_none());
                if moves_files(request) && tmpfs_out_of_reach {
                    // A tmpfs the child mounts for itself is out of the
                    // judge's reach: files to put in or take out need the
                    // host folder.
                    self.isolation
                        .child_setup(held, self.visible(request), None)
                } else {
                    setup
                }
            }
            (true, None) => {
                return Err(SandboxError::Io {
                    what: format!("start {} contained", request.program.display()),
                    source: std::io::Error::other("a contained run needs a box"),
                });
            }
            (false, _) => ChildSetup::default(),
        };
        // The worker's own uid (root judge).
        let drop_to = setup.drop_to;
        setup.limits = Some(ChildLimits {
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
            // Per uid, and the uid is the worker's own: this worker's
            // processes alone count.
            processes: drop_to.is_some().then_some(MAX_TASKS * 4),
        });
        match (slot, &self.isolation.cgroups) {
            (Some(slot), _) => setup.cgroup_files = slot.join_fds(),
            // A worker thread sits in its slot (v1), and its children would
            // be born there: trusted programs go back to the judge's own
            // cgroups, so a submission is never charged for them.
            (None, Some(pool)) => setup.cgroup_files = pool.home_fds(),
            (None, None) => {}
        }
        if let Some((uid, gid)) = drop_to.filter(|_| !own_tmpfs(&setup)) {
            std::os::unix::fs::chown(&request.workdir, Some(uid), Some(gid)).map_err(|source| {
                SandboxError::Io {
                    what: format!("hand {} to the sandbox user", request.workdir.display()),
                    source,
                }
            })?;
        }
        Ok(setup)
    }

    /// Whether a contained run's CPU time includes every task it ever had.
    pub fn counts_all_cpu(&self) -> bool {
        self.isolation
            .cgroups
            .as_ref()
            .is_some_and(|pool| pool.counts_all_cpu())
    }
}

/// Whether the run has files to put in or take out of its working folder.
fn moves_files(request: &RunRequest) -> bool {
    !request.seed.is_empty() || request.collect.is_some()
}

/// Whether the run is given a fresh tmpfs as its working folder, and so
/// never sees the host folder under it.
fn own_tmpfs(setup: &ChildSetup) -> bool {
    setup
        .mounts
        .as_ref()
        .is_some_and(|plan| plan.scratch.is_some())
}

/// The working folder as the judge holds it (the worker's tmpfs, or the
/// host folder opened without following a link), seeded with the run's
/// files; `None` when the run moves no files.
fn open_working(
    held: Option<&BoxState>,
    request: &RunRequest,
    setup: &ChildSetup,
) -> Result<Option<OwnedFd>, SandboxError> {
    if !moves_files(request) {
        return Ok(None);
    }
    let dir = match own_tmpfs(setup) {
        true => held
            .and_then(|held| held.root.as_ref()?.as_ref()?.scratch_root())
            .ok_or_else(|| SandboxError::Io {
                what: "reach the worker's working folder".into(),
                source: std::io::Error::other("it has none"),
            })?,
        false => rustix::fs::open(
            &request.workdir,
            rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::NOFOLLOW
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .map_err(|e| SandboxError::Io {
            what: format!("open {}", request.workdir.display()),
            source: e.into(),
        })?,
    };
    super::working::seed(dir.as_fd(), &request.seed, setup.drop_to).map_err(|source| {
        SandboxError::Io {
            what: "place the run's files in its working folder".into(),
            source,
        }
    })?;
    Ok(Some(dir))
}

/// The run's environment: a fixed few, then the request's own (which
/// replace a default of the same name).
fn environment(request: &RunRequest) -> Vec<(OsString, OsString)> {
    let mut env = vec![
        env_pair("PATH", SANDBOX_PATH),
        env_pair("HOME", &request.workdir),
        env_pair("TMPDIR", &request.workdir),
        env_pair("LANG", "C.UTF-8"),
    ];
    env.retain(|(key, _)| !request.env.iter().any(|(k, _)| k == key));
    env.extend(request.env.iter().cloned());
    env
}

/// Spawns the run's child (telling an interaction its pid) and opens its
/// pidfd; a child whose pidfd cannot be opened is killed and reaped.
fn start_child(
    request: &RunRequest,
    wired: Option<SideFds>,
    setup: &ChildSetup,
) -> Result<(Spawned, unix::RunProcess), SandboxError> {
    let announce = wired.as_ref().and_then(|w| w.started.clone());
    let spawned = spawn(
        &request.program,
        &request.args,
        &environment(request),
        request.stdin.as_deref(),
        wired,
        &request.workdir,
        setup,
    )?;
    let pid = spawned.pid;
    if let Some(announce) = announce {
        announce.store(pid, std::sync::atomic::Ordering::SeqCst);
    }
    let process = unix::RunProcess::open(pid).map_err(|source| {
        unix::kill_group(pid);
        let _ = unix::wait4(pid);
        SandboxError::Io {
            what: "open a pidfd".into(),
            source,
        }
    })?;
    Ok((spawned, process))
}

/// Before the box's next run is prepared: what this one wrote in the
/// box's prepared root is freed, and never seen again.
fn renew_prepared_root(held: Option<&mut BoxState>, setup: &ChildSetup) {
    let prepared_root = setup
        .mounts
        .as_ref()
        .is_some_and(|plan| plan.prepared.is_some());
    if let Some(held) = held.filter(|_| prepared_root) {
        super::worker_root::after_run(&mut held.root);
    }
}

/// How a child the run loop did not stop ended, from its wait status: a
/// SIGKILL the cgroup's OOM killer sent is the memory limit.
fn termination(status: i32, oom: bool) -> Termination {
    let status = ExitStatus::from_raw(status);
    match (status.code(), status.signal()) {
        (Some(code), _) => Termination::Exited(code),
        (None, Some(libc::SIGKILL)) if oom => Termination::MemoryLimit,
        (None, Some(signal)) => Termination::Signaled(signal),
        (None, None) => Termination::Signaled(0),
    }
}

/// Whatever happened, nothing of the run may survive it: its first process
/// (in a PID namespace of its own, every process dies with it), its
/// session's process group, and whatever else sits in its cgroup or, once
/// the first is reaped, in the worker's PID namespace; a network namespace
/// it left a socket in is renewed. Returns the reaped child, and whether
/// the worker's PID namespace was cleared.
fn tear_down(
    held: Option<&mut BoxState>,
    setup: &ChildSetup,
    slot: Option<&Slot>,
    process: &unix::RunProcess,
    pid: i32,
) -> (io::Result<unix::Reaped>, io::Result<()>) {
    process.kill();
    unix::kill_group(pid);
    let own_pid_namespace = setup.namespaces & libc::CLONE_NEWPID != 0;
    if let Some(slot) = slot {
        if !own_pid_namespace && setup.pid_namespace.is_none() {
            slot.kill_all();
        }
    }
    let reaped = process.reap(REAP_DEADLINE);
    let Some(held) = held else {
        return (reaped, Ok(()));
    };
    let cleared = match (
        setup.pid_namespace,
        held.root.as_mut().and_then(Option::as_mut),
    ) {
        (Some(_), Some(root)) => root.end_run_in_pid_namespace(reaped.is_ok()),
        (Some(_), None) => Err(io::Error::other("the worker's root is gone")),
        (None, _) => Ok(()),
    };
    if setup.netns.is_some() {
        // Every process of the run is gone by now (or the box's PID
        // namespace was given up, which kills them).
        super::worker_net::renew_if_used(&mut held.netns);
    }
    (reaped, cleared)
}

/// How long a killed run may take to die before the judge gives up waiting
/// (a task stuck in the kernel): the run is then a judge error, and its
/// remains are reaped in the background.
const REAP_DEADLINE: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Limits;

    fn limits() -> Limits {
        Limits::for_tests(256 << 20)
    }

    fn run_sh(script: &str, limits: Limits) -> RunOutcome {
        let dir = tempfile::tempdir().unwrap();
        let request = RunRequest {
            args: vec!["-c".into(), script.into()],
            ..RunRequest::new(
                "/bin/sh".into(),
                dir.path().to_path_buf(),
                limits,
                Containment::Tool,
            )
        };
        Sandbox::new().worker().run(&request).unwrap()
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
