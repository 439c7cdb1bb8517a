//! Which isolation a run gets, decided once per judge from what the machine
//! allows, and said in one line (`judge doctor`, the reports). Never
//! silently weaker: every layer that could not be applied is named.

use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::sync::Arc;

use super::box_state::BoxState;
use super::cgroup::{CgroupPool, Hierarchy};
use super::mounts::{MountPlan, SystemEntry, system_entries};
use super::spawn::PidNamespaces;
use super::spawn::{ChildSetup, KeyRings, spawn};
use super::syscall_filter;
use super::worker_keys;
use super::worker_net::{self, new_netns};
use super::worker_ns;
use super::worker_pid::own_pid_namespace;
use super::worker_root::{self, WorkerRoot};
use super::worker_uid::{self, UidRange};

/// Why a probe run of /bin/true failed with a setup: what `judge doctor`
/// says the kernel refused.
#[derive(Debug, thiserror::Error)]
enum ProbeError {
    #[error(transparent)]
    Spawn(#[from] super::SandboxError),
    #[error("/bin/true exited with status {0}")]
    Status(i32),
    #[error(transparent)]
    Wait(std::io::Error),
}

/// What the user asked for (`--isolation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IsolationLevel {
    /// Everything this machine allows (the default).
    #[default]
    Full,
    /// Process group and resource limits only.
    Limits,
}

/// The uid and gid a worker's runs share with other such workers when
/// every uid of the range is taken ("nobody").
const OVERFLOW_UID: u32 = 65534;

#[derive(Debug)]
pub(crate) struct Isolation {
    /// CLONE_NEW* flags for contained runs (0: none).
    pub(crate) namespaces: libc::c_int,
    /// Map our uid and gid to root inside a new user namespace (unprivileged judge).
    pub(crate) map_user: Option<(u32, u32)>,
    /// Each worker thread joins an empty network namespace of its own (root
    /// only): creating one per run costs more than the run, while one shared
    /// by all runs would let parallel runs meet on an abstract unix socket.
    pub(crate) netns_per_worker: bool,
    /// Each worker thread has IPC and UTS namespaces of its own, which its
    /// runs are born in, emptied of IPC objects before each run (root only,
    /// see `worker_ns`); otherwise each run gets its own.
    pub(crate) ipc_per_worker: bool,
    /// Contained runs drop to their worker's uid (and the same gid) from
    /// this range (root judge; see `worker_uid`).
    pub(crate) uids: Option<UidRange>,
    /// Each worker thread closes the kernel key ring system calls to what
    /// it starts (root judge, see `worker_keys`).
    pub(crate) keys_closed_per_worker: bool,
    /// Where a thread could not close them: after the drop, each run enters
    /// a user namespace of its own, so that its kernel key rings are its
    /// own (root judge; needs a private /proc).
    pub(crate) user_namespace_per_run: bool,
    pub(crate) mounts: bool,
    pub(crate) mount_proc: bool,
    /// Contained runs install the system call deny list (`run_filter`).
    pub(crate) run_filter: bool,
    /// Each worker thread prepares the part of the private root every run
    /// shares once, and its runs enter it (root judge: entering
    /// a mount namespace needs the capabilities a user namespace lacks).
    pub(crate) prepared_root: bool,
    /// With the prepared root, each worker has a PID namespace its runs are
    /// born in, one at a time, cleared after each (see `worker_pid`).
    pub(crate) pid_per_worker: bool,
    pub(crate) cgroups: Option<Arc<CgroupPool>>,
    /// The host's system folders, for the private root.
    pub(crate) system: Vec<SystemEntry>,
    /// What could not be applied, for the description.
    pub(crate) missing: Vec<String>,
}

impl Isolation {
    pub(crate) fn none() -> Isolation {
        Isolation {
            namespaces: 0,
            map_user: None,
            netns_per_worker: false,
            ipc_per_worker: false,
            uids: None,
            keys_closed_per_worker: false,
            user_namespace_per_run: false,
            mounts: false,
            mount_proc: false,
            run_filter: false,
            prepared_root: false,
            pid_per_worker: false,
            cgroups: None,
            system: system_entries(),
            missing: Vec::new(),
        }
    }

    pub(crate) fn detect(level: IsolationLevel, uids: UidRange) -> Isolation {
        let mut isolation = Isolation::none();
        if level == IsolationLevel::Limits {
            isolation
                .missing
                .push("namespaces, cgroups and privilege drop (--isolation limits)".into());
            return isolation;
        }
        let (uid, gid) = (
            rustix::process::geteuid().as_raw(),
            rustix::process::getegid().as_raw(),
        );
        let base = libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
        // The probe runs in a box of this thread's, dropped at the end.
        let mut probe_box = BoxState::default();
        if uid == 0 {
            isolation.namespaces = base;
            isolation.uids = Some(uids);
            isolation.netns_per_worker = new_netns().is_some();
            if !isolation.netns_per_worker {
                isolation.namespaces |= libc::CLONE_NEWNET;
            }
            // Closed on this thread (and so on the threads it starts) now.
            isolation.keys_closed_per_worker = worker_keys::closed(&mut probe_box.keys_closed);
            isolation.user_namespace_per_run = true;
            isolation.prepared_root = true;
            isolation.pid_per_worker = true;
            isolation.ipc_per_worker = true;
        } else {
            isolation.namespaces = base | libc::CLONE_NEWUSER | libc::CLONE_NEWNET;
            isolation.map_user = Some((uid, gid));
        }
        isolation.mounts = true;
        isolation.mount_proc = true;
        isolation.run_filter = true;
        if let Err(why) = isolation.probe(&mut probe_box) {
            isolation.run_filter = false;
            match isolation.probe(&mut probe_box) {
                Ok(()) => isolation
                    .missing
                    .push(format!("the system call filter ({why})")),
                // The failure lies elsewhere: the steps below find it.
                Err(_) => isolation.run_filter = true,
            }
        }
        // Degrade step by step until a probe run works, saying why. A root
        // built whole for every run is as tight as a prepared one, only slower.
        let mut probed = isolation.probe(&mut probe_box);
        if probed.is_err() && (isolation.prepared_root || isolation.ipc_per_worker) {
            isolation.prepared_root = false;
            isolation.ipc_per_worker = false;
            probed = isolation.probe(&mut probe_box);
        }
        // The probe prepared this thread's root: with a PID namespace, or
        // the worker's runs get one each.
        isolation.pid_per_worker = isolation.prepared_root
            && matches!(&probe_box.root, Some(Some(root)) if root.pid_namespace().is_some());
        if let Err(why) = probed {
            if isolation.user_namespace_per_run {
                isolation.user_namespace_per_run = false;
                if isolation.probe(&mut probe_box).is_ok() {
                    isolation.missing.push(format!(
                        "a user namespace per run: runs of a worker's uid share kernel key rings ({why})"
                    ));
                }
            }
        }
        if let Err(why) = isolation.probe(&mut probe_box) {
            isolation.mount_proc = false;
            isolation.user_namespace_per_run = false;
            if isolation.probe(&mut probe_box).is_ok() {
                isolation.missing.push(format!("private /proc ({why})"));
            } else {
                isolation.mounts = false;
                isolation
                    .missing
                    .push(format!("private mount view ({why})"));
                if let Err(why) = isolation.probe(&mut probe_box) {
                    let uids = isolation.uids;
                    isolation = Isolation {
                        uids,
                        run_filter: isolation.run_filter,
                        ..Isolation::none()
                    };
                    isolation.missing.push(format!("namespaces ({why})"));
                }
            }
        }
        match Hierarchy::detect() {
            Some(hierarchy) => isolation.cgroups = Some(Arc::new(CgroupPool::new(hierarchy))),
            None => isolation.missing.push("cgroups (no writable memory cgroup: memory is ru_maxrss, CPU time counts only the processes the program waited for, leftovers found by session and PID namespace)".into()),
        }
        if isolation.uids.is_none() && isolation.map_user.is_none() {
            isolation
                .missing
                .push("privilege drop (submissions run as the judge's user)".into());
        }
        isolation
    }

    /// Runs /bin/true with this setup in `probe_box`; why not, if the
    /// kernel refuses it.
    fn probe(&self, probe_box: &mut BoxState) -> Result<(), ProbeError> {
        let dir = std::env::temp_dir();
        let setup = self.child_setup(probe_box, vec![(dir.clone(), false)], None);
        let child = spawn(
            &PathBuf::from("/bin/true"),
            &[],
            &[],
            None,
            None,
            &dir,
            &setup,
        )?;
        let reaped = super::unix::wait4(child.pid);
        if setup.pid_namespace.is_some() {
            if let Some(Some(root)) = probe_box.root.as_mut() {
                // A failure gives the namespace up, which the caller sees.
                let _ = root.end_run_in_pid_namespace(reaped.is_ok());
            }
        }
        match reaped {
            Ok(reaped) if reaped.status == 0 => Ok(()),
            Ok(reaped) => Err(ProbeError::Status(reaped.status)),
            Err(e) => Err(ProbeError::Wait(e)),
        }
    }

    /// The setup of one contained run (a submission or a compiler) in the
    /// box `held`: a new root holding only the system folders and `keep`
    /// (with `scratch` as a fresh tmpfs), and no privileges. What the box
    /// can share between its runs it makes here, on first use.
    pub(crate) fn child_setup(
        &self,
        held: &mut BoxState,
        keep: Vec<(PathBuf, bool)>,
        scratch: Option<(PathBuf, u64)>,
    ) -> ChildSetup {
        let mut plan = MountPlan {
            system: self.system.clone(),
            keep,
            scratch,
            mount_proc: self.mount_proc,
            pivot: self.uids.is_none(),
            prepared: None,
            device_nodes: false,
        };
        let mut namespaces = self.namespaces;
        let mut pid_namespace = None;
        if self.mounts && self.prepared_root {
            let folders: Vec<(PathBuf, bool)> = plan.own_folders().into_iter().cloned().collect();
            let scratch = plan
                .scratch
                .as_ref()
                .map(|(path, bytes)| (path.as_path(), *bytes));
            let own_pids = held
                .own_pid_namespace
                .get_or_insert_with(|| own_pid_namespace().ok())
                .as_ref()
                .map(|fd| fd.as_raw_fd());
            if let Some(own_pids) = own_pids {
                plan.prepared = worker_root::show(
                    &mut held.root,
                    own_pids,
                    &self.system,
                    &folders,
                    scratch,
                    self.cgroups.as_deref(),
                );
            }
            if plan.prepared.is_some() {
                // The run enters (a copy of) the box's mount namespace.
                namespaces &= !libc::CLONE_NEWNS;
                let root = held.root.as_ref().and_then(Option::as_ref);
                pid_namespace = root
                    .and_then(WorkerRoot::pid_namespace)
                    .filter(|_| self.pid_per_worker)
                    .zip(own_pids)
                    .map(|(worker, own)| PidNamespaces { worker, own });
            }
            if pid_namespace.is_some() {
                // It is born in the worker's, whose `/proc` the root has.
                namespaces &= !libc::CLONE_NEWPID;
                plan.mount_proc = false;
            }
        }
        let per_run_ipc = libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
        if self.ipc_per_worker
            && namespaces & per_run_ipc != 0
            && worker_ns::ready_for_a_run(&mut held.ipc)
        {
            // The run is born in this worker thread's own (emptied) ones.
            namespaces &= !per_run_ipc;
        }
        let worker_filtered =
            self.keys_closed_per_worker && worker_keys::closed(&mut held.keys_closed);
        ChildSetup {
            namespaces,
            pid_namespace,
            netns: if self.netns_per_worker {
                worker_net::namespace(&mut held.netns)
            } else {
                None
            },
            map_user: self.map_user,
            cgroup_files: Vec::new(),
            mounts: self.mounts.then_some(plan),
            limits: None,
            drop_to: self.uids.map(|range| {
                let uid = held
                    .uid
                    .get_or_insert_with(|| worker_uid::claim(range))
                    .as_ref()
                    .map_or(OVERFLOW_UID, |claim| claim.uid);
                (uid, uid)
            }),
            run_filter: self
                .run_filter
                .then_some(worker_filtered)
                .filter(|_| !held.runs_filtered),
            key_rings: if worker_filtered {
                KeyRings::ClosedByWorker
            } else if self.user_namespace_per_run {
                KeyRings::NewSessionAndUserNamespace
            } else {
                KeyRings::NewSession
            },
        }
    }

    /// The box `held`'s thread starts only runs and trusted programs from
    /// now on (a worker of the runner's pool, which takes no file lock
    /// itself): the run's filter is installed on it once, not in each run.
    pub(crate) fn filter_runs_on_this_thread(&self, held: &mut BoxState) {
        if self.run_filter
            && !held.runs_filtered
            && self.keys_closed_per_worker
            && worker_keys::closed(&mut held.keys_closed)
        {
            held.runs_filtered = syscall_filter::filter_this_threads_runs();
        }
    }

    /// One line: what is applied, and what is not.
    pub(crate) fn describe(&self) -> String {
        let mut on: Vec<String> = vec![
            "own session (no terminal)".into(),
            "rlimits (cpu, address space, file size, stack, core, open files)".into(),
        ];
        if !self.keys_closed_per_worker {
            on.push("new session key ring".into());
        }
        let uid = self.uids.map(|range| format!("a uid per worker ({range})"));
        if self.namespaces != 0 {
            on.push(match (uid, self.map_user) {
                (_, Some(_)) => "user namespace per run (root inside only)".into(),
                (Some(uid), _) if self.keys_closed_per_worker => {
                    format!("{uid}, no kernel key rings (their system calls fail)")
                }
                (Some(uid), _) if self.user_namespace_per_run => {
                    format!("{uid} in a user namespace per run (own key rings)")
                }
                (Some(uid), _) => uid,
                (None, None) => "no privilege drop".into(),
            });
            on.push(match (self.pid_per_worker, self.ipc_per_worker) {
                (true, true) => {
                    "pid, ipc and uts namespaces per worker (emptied before each run, the pid numbering restarted)"
                }
                (false, true) => {
                    "pid namespace per run, ipc and uts namespaces per worker (emptied before each run)"
                }
                _ => "pid, ipc, uts namespaces per run",
            }.into());
            if self.netns_per_worker {
                on.push("no network (an empty network namespace per worker, replaced when a run leaves a socket in it)".into());
            } else if self.namespaces & libc::CLONE_NEWNET != 0 {
                on.push("no network (an empty network namespace per run)".into());
            }
            if self.mounts {
                on.push(if self.mount_proc {
                    "private read-only root (system folders, minimal /dev, own program and working folders, own /proc)"
                } else {
                    "private read-only root (system folders, minimal /dev, own program and working folders)"
                }.into());
            }
        } else if let Some(uid) = uid {
            on.push(uid);
        }
        if self.run_filter {
            on.push("system calls past the sandbox refused (namespaces, mounts, tracing, bpf, io_uring, file locks, ...)".into());
        }
        if let Some(pool) = &self.cgroups {
            on.push(pool.describe());
        }
        let mut line = format!("isolation: {}", on.join(", "));
        if !self.missing.is_empty() {
            line.push_str(&format!("; not applied: {}", self.missing.join("; ")));
        }
        line
    }
}
