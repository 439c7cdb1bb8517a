//! The thread that lives in a worker's mount namespace: it builds the
//! worker's root there, then makes the changes the judge asks for (the
//! program's folders, a fresh working-folder tmpfs), since only a task
//! inside a mount namespace can mount in it. One per worker, for the
//! worker's life: a change costs a message and its answer, not a thread.

use std::io;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread::JoinHandle;

use rustix::fs::{Mode, OFlags, Timespec, Timestamps};
use rustix::mount::{MountFlags, MoveMountFlags, UnmountFlags};

use super::mounts::MountOp;
use super::replay::replay;
use super::worker_pid::{Pid1, WorkerPids};

/// What the thread built: the worker's mount namespace, a writable mount
/// of its root's tmpfs (see `WorkerRoot::writable`), and the worker's PID
/// namespace, whose first process is this thread's child and mounted its
/// `/proc` in the root (`None` if it could not be made: then each run
/// makes its own).
pub(crate) struct Built {
    pub(crate) namespace: OwnedFd,
    pub(crate) writable: OwnedFd,
    pub(crate) pids: Option<WorkerPids>,
}

enum Job {
    /// Unmount these, in this order, then attach these copies at their paths.
    Remount {
        unmount: Vec<PathBuf>,
        attach: Vec<(PathBuf, OwnedFd)>,
    },
    /// Mount a fresh tmpfs of `bytes` at `path`, and answer its root,
    /// opened, with its modification time set to 0: any change a run makes
    /// in it sets that time to now.
    Scratch { path: PathBuf, bytes: u64 },
}

pub(crate) struct Mounter {
    jobs: Option<mpsc::Sender<Job>>,
    answers: mpsc::Receiver<io::Result<Option<OwnedFd>>>,
    thread: Option<JoinHandle<()>>,
}

impl Mounter {
    /// Starts the thread, which builds the root by replaying `ops` (ending
    /// with `pivot_root` into it) in a mount namespace of its own, then
    /// starts the worker's PID namespace there, with `pid1` (see
    /// `WorkerPids::start`).
    pub(crate) fn start(ops: Vec<MountOp>, pid1: Option<Pid1>) -> io::Result<(Mounter, Built)> {
        let (jobs, job_queue) = mpsc::channel::<Job>();
        let (answer, answers) = mpsc::channel();
        let (built_answer, built) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("worker-root".into())
            .spawn(move || {
                let result = build(&ops, pid1);
                let ok = result.is_ok();
                let _ = built_answer.send(result);
                if ok {
                    for job in job_queue {
                        if answer.send(job.run()).is_err() {
                            break;
                        }
                    }
                }
            })?;
        let mut mounter = Mounter {
            jobs: Some(jobs),
            answers,
            thread: Some(thread),
        };
        let built = built
            .recv()
            .map_err(|_| io::Error::other("the thread preparing a worker's root died"))?;
        match built {
            Ok(built) => Ok((mounter, built)),
            Err(e) => {
                mounter.stop();
                Err(e)
            }
        }
    }

    fn ask(&self, job: Job) -> io::Result<Option<OwnedFd>> {
        let gone = || io::Error::other("the thread mounting in a worker's root died");
        self.jobs
            .as_ref()
            .ok_or_else(gone)?
            .send(job)
            .map_err(|_| gone())?;
        self.answers.recv().map_err(|_| gone())?
    }

    pub(crate) fn remount(
        &self,
        unmount: Vec<PathBuf>,
        attach: Vec<(PathBuf, OwnedFd)>,
    ) -> io::Result<()> {
        self.ask(Job::Remount { unmount, attach }).map(|_| ())
    }

    /// A fresh tmpfs of `bytes` at `path`; its root, opened.
    pub(crate) fn scratch(&self, path: PathBuf, bytes: u64) -> io::Result<OwnedFd> {
        self.ask(Job::Scratch { path, bytes })?
            .ok_or_else(|| io::Error::other("no working folder was made"))
    }

    fn stop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Mounter {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Builds the root: runs on the mounter thread, which keeps the result as
/// its own mount namespace and root.
fn build(ops: &[MountOp], pid1: Option<Pid1>) -> io::Result<Built> {
    // SAFETY: changes the mounts, root and working folder of this thread
    // alone: it shares them with no one after this.
    if unsafe { libc::unshare(libc::CLONE_NEWNS) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let namespace = rustix::fs::open(
        "/proc/thread-self/ns/mnt",
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    // SAFETY: this thread has a mount namespace of its own (see above).
    if let Err(step) = unsafe { replay(ops) } {
        let why = io::Error::last_os_error();
        return Err(io::Error::new(
            why.kind(),
            format!("prepare a worker's root ({}): {why}", step.describe()),
        ));
    }
    // This thread's root is now the worker's root.
    let writable = rustix::mount::open_tree(
        rustix::fs::CWD,
        "/",
        rustix::mount::OpenTreeFlags::OPEN_TREE_CLONE
            | rustix::mount::OpenTreeFlags::OPEN_TREE_CLOEXEC,
    )?;
    super::replay::set_attributes(&writable, 0, super::replay::MOUNT_ATTR_RDONLY)?;
    Ok(Built {
        namespace,
        writable,
        pids: pid1.and_then(|pid1| WorkerPids::start(pid1).ok()),
    })
}

impl Job {
    fn run(self) -> io::Result<Option<OwnedFd>> {
        match self {
            Job::Remount { unmount, attach } => {
                for path in unmount {
                    rustix::mount::unmount(&path, UnmountFlags::DETACH)?;
                }
                for (path, copy) in attach {
                    rustix::mount::move_mount(
                        &copy,
                        "",
                        rustix::fs::CWD,
                        &path,
                        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
                    )?;
                }
                Ok(None)
            }
            Job::Scratch { path, bytes } => {
                let options = std::ffi::CString::new(format!("mode=0777,size={bytes}"))
                    .map_err(io::Error::other)?;
                rustix::mount::mount(
                    "tmpfs",
                    &path,
                    "tmpfs",
                    MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOATIME,
                    options.as_c_str(),
                )?;
                let root = rustix::fs::open(
                    &path,
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                )?;
                let epoch = Timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                rustix::fs::futimens(
                    &root,
                    &Timestamps {
                        last_access: epoch,
                        last_modification: epoch,
                    },
                )?;
                Ok(Some(root))
            }
        }
    }
}
