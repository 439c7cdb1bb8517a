//! Which isolation a run gets, decided once per judge from what the machine
//! allows, and said in one line (`judge doctor`, the reports). Never
//! silently weaker: every layer that could not be applied is named.

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Arc;

use super::cgroup::{CgroupPool, Hierarchy};
use super::mounts::{MountPlan, SystemEntry, system_entries};
use super::spawn::{ChildSetup, spawn};

/// What the user asked for (`--isolation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IsolationLevel {
    /// Everything this machine allows (the default).
    #[default]
    Full,
    /// Process group and resource limits only.
    Limits,
}

/// The uid and gid submissions run as when the judge is root ("nobody").
pub const SANDBOX_UID: u32 = 65534;
pub const SANDBOX_GID: u32 = 65534;

#[derive(Debug)]
pub(crate) struct Isolation {
    /// CLONE_NEW* flags for contained runs (0: none).
    pub(crate) namespaces: libc::c_int,
    /// Map our uid to root inside a new user namespace (unprivileged judge).
    pub(crate) map_user: Option<(u32, u32)>,
    /// One empty network namespace shared by every run (root only): creating
    /// one per run costs more than the run.
    pub(crate) netns: Option<OwnedFd>,
    /// Submissions drop to this uid/gid (root judge).
    pub(crate) drop_to: Option<(u32, u32)>,
    pub(crate) mounts: bool,
    pub(crate) mount_proc: bool,
    pub(crate) cgroups: Option<Arc<CgroupPool>>,
    /// The host's system folders, for submissions' new root.
    pub(crate) system: Vec<SystemEntry>,
    /// What could not be applied, for the description.
    pub(crate) missing: Vec<String>,
}

/// An empty network namespace held open by a descriptor: made on a
/// short-lived thread, since unshare(CLONE_NEWNET) changes only the caller.
fn shared_netns() -> Option<OwnedFd> {
    std::thread::spawn(|| {
        // SAFETY: unshare on this thread only; it exits right after.
        if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
            return None;
        }
        // SAFETY: a NUL-terminated path; we own the descriptor it returns.
        let fd = unsafe {
            libc::open(
                c"/proc/thread-self/ns/net".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            )
        };
        // SAFETY: fd is a fresh descriptor we own when non-negative.
        (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
    })
    .join()
    .ok()
    .flatten()
}

impl Isolation {
    pub(crate) fn none() -> Isolation {
        Isolation {
            namespaces: 0,
            map_user: None,
            netns: None,
            drop_to: None,
            mounts: false,
            mount_proc: false,
            cgroups: None,
            system: system_entries(),
            missing: Vec::new(),
        }
    }

    pub(crate) fn detect(level: IsolationLevel) -> Isolation {
        let mut isolation = Isolation::none();
        if level == IsolationLevel::Limits {
            isolation
                .missing
                .push("namespaces, cgroups and privilege drop (--isolation limits)".into());
            return isolation;
        }
        // SAFETY: plain getters.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let base = libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
        if uid == 0 {
            isolation.namespaces = base;
            isolation.drop_to = Some((SANDBOX_UID, SANDBOX_GID));
            isolation.netns = shared_netns();
            if isolation.netns.is_none() {
                isolation.namespaces |= libc::CLONE_NEWNET;
            }
        } else {
            isolation.namespaces = base | libc::CLONE_NEWUSER | libc::CLONE_NEWNET;
            isolation.map_user = Some((uid, gid));
        }
        isolation.mounts = true;
        isolation.mount_proc = true;
        // Degrade step by step until a probe run works, saying why.
        if let Err(why) = isolation.probe() {
            isolation.mount_proc = false;
            if isolation.probe().is_ok() {
                isolation.missing.push(format!("private /proc ({why})"));
            } else {
                isolation.mounts = false;
                isolation
                    .missing
                    .push(format!("private mount view ({why})"));
                if let Err(why) = isolation.probe() {
                    let drop_to = isolation.drop_to;
                    isolation = Isolation {
                        drop_to,
                        ..Isolation::none()
                    };
                    isolation.missing.push(format!("namespaces ({why})"));
                }
            }
        }
        match Hierarchy::detect() {
            Some(hierarchy) => isolation.cgroups = Some(Arc::new(CgroupPool::new(hierarchy))),
            None => isolation.missing.push("cgroups (no writable memory cgroup: memory is ru_maxrss, leftovers found by process group and PID namespace)".into()),
        }
        if isolation.drop_to.is_none() && isolation.map_user.is_none() {
            isolation
                .missing
                .push("privilege drop (submissions run as the judge's user)".into());
        }
        isolation
    }

    /// Runs /bin/true with this setup; why not, if the kernel refuses it.
    fn probe(&self) -> Result<(), String> {
        let dir = std::env::temp_dir();
        let setup = self.child_setup(true, Vec::new(), vec![(dir.clone(), false)], None);
        let child = spawn(&PathBuf::from("/bin/true"), &[], &[], None, &dir, &setup)
            .map_err(|e| e.to_string())?;
        match super::unix::wait4(child.pid) {
            Ok(reaped) if reaped.status == 0 => Ok(()),
            Ok(reaped) => Err(format!("/bin/true exited with status {}", reaped.status)),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The setup of one contained run: a submission gets a new root holding
    /// only the system folders and `keep` (with `scratch` as a fresh tmpfs)
    /// and drops privileges; a compiler sees the host read-only with `hide`
    /// covered, as the judge's user.
    pub(crate) fn child_setup(
        &self,
        submission: bool,
        hide: Vec<PathBuf>,
        keep: Vec<(PathBuf, bool)>,
        scratch: Option<(PathBuf, u64)>,
    ) -> ChildSetup {
        use std::os::fd::AsRawFd;
        let plan = if submission {
            MountPlan::NewRoot {
                system: self.system.clone(),
                keep,
                scratch,
                mount_proc: self.mount_proc,
                pivot: self.drop_to.is_none(),
            }
        } else {
            MountPlan::Cover {
                hide,
                keep,
                mount_proc: self.mount_proc,
            }
        };
        ChildSetup {
            namespaces: self.namespaces,
            netns: self.netns.as_ref().map(AsRawFd::as_raw_fd),
            map_user: self.map_user,
            cgroup_files: Vec::new(),
            mounts: self.mounts.then_some(plan),
            limits: None,
            drop_to: if submission { self.drop_to } else { None },
        }
    }

    /// One line: what is applied, and what is not.
    pub(crate) fn describe(&self) -> String {
        let mut on = vec![
            "process group",
            "rlimits (cpu, address space, file size, stack, core, open files)",
        ];
        if self.namespaces != 0 {
            on.push(if self.map_user.is_some() {
                "user namespace (root inside only)"
            } else {
                "uid 65534"
            });
            on.push("pid, ipc, uts namespaces");
            if self.netns.is_some() || self.namespaces & libc::CLONE_NEWNET != 0 {
                on.push("no network");
            }
            if self.mounts {
                on.push(if self.mount_proc {
                    "private read-only root (system folders, own program and working folders, own /proc)"
                } else {
                    "private read-only root (system folders, own program and working folders)"
                });
            }
        } else if self.drop_to.is_some() {
            on.push("uid 65534");
        }
        if let Some(cgroups) = &self.cgroups {
            on.push(cgroups.describe());
        }
        let mut line = format!("isolation: {}", on.join(", "));
        if !self.missing.is_empty() {
            line.push_str(&format!("; not applied: {}", self.missing.join("; ")));
        }
        line
    }
}
