//! A box, as isolate calls them: what one worker thread owns to run
//! programs contained, one after another. A pool's worker, a server's
//! judging thread and the command line each hold one; it is made empty by
//! `Sandbox::worker`, prepares what it needs on its first contained run,
//! and gives everything back when dropped (the uid, the cgroup slot, the
//! namespaces, the root and its mounter thread, the PID namespace's first
//! process).
//!
//! Some of what a box stands for is kernel state of its thread (its IPC
//! and UTS namespaces, its seccomp filters, its place in a v1 cgroup), so a
//! box stays on the thread that made it: it is neither `Send` nor `Sync`.

use std::cell::RefCell;
use std::marker::PhantomData;

use super::SandboxError;
use super::box_state::BoxState;
use super::imp::Sandbox;
use super::relay::SideFds;
use super::{Interaction, RunOutcome, RunRequest, Runs};

impl Sandbox {
    /// A new box for the calling thread: empty until its first contained
    /// run.
    pub fn worker(&self) -> Worker {
        Worker::new(self.clone())
    }
}

/// The ends a run's standard streams are wired to, held by its caller
/// (`Worker::run_attached`).
pub struct Attached {
    pub stdin: std::os::fd::OwnedFd,
    pub stdout: std::os::fd::OwnedFd,
    pub stderr: std::os::fd::OwnedFd,
    /// Set to the run's pid once it is started.
    pub started: std::sync::Arc<std::sync::atomic::AtomicI32>,
}

/// A box: see the module's documentation.
pub struct Worker {
    sandbox: Sandbox,
    state: RefCell<BoxState>,
    /// Kernel state of the thread that made it: never moved to another.
    _one_thread: PhantomData<*const ()>,
}

impl Worker {
    fn new(sandbox: Sandbox) -> Worker {
        Worker {
            sandbox,
            state: RefCell::default(),
            _one_thread: PhantomData,
        }
    }

    /// Runs `request` in this box.
    pub fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        self.sandbox
            .run_in_box(&mut self.state.borrow_mut(), request, None, None)
    }

    /// Runs `submission` in this box against `interactor` (a trusted
    /// program, run beside it on a thread of its own).
    pub fn run_interactive(
        &self,
        submission: &RunRequest,
        interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        self.sandbox
            .run_interactive_in_box(&mut self.state.borrow_mut(), submission, interactor)
    }

    /// Runs `request` in this box with its standard streams on the ends
    /// `attached` gives, which the caller reads and writes as the run goes
    /// (the play page's referee: a package's program fed by a person's
    /// lines, contained like a submission). Its pid is said in
    /// `attached.started` once it runs, so that the caller can stop it.
    pub fn run_attached(
        &self,
        request: &RunRequest,
        attached: Attached,
    ) -> Result<RunOutcome, SandboxError> {
        let wired = SideFds {
            ends: super::relay::SideEnds::Streams {
                stdin: attached.stdin,
                stdout: attached.stdout,
            },
            stderr: Some(attached.stderr),
            started: Some(attached.started),
            conversation: super::Conversation::StandardStreams,
        };
        self.sandbox
            .run_in_box(&mut self.state.borrow_mut(), request, Some(wired), None)
    }

    /// This box's thread starts only runs and trusted programs from now
    /// on, and takes no file lock itself (a worker of the runner's pool):
    /// the run's filter goes on the thread once rather than into each run.
    pub fn only_runs_from_now_on(&self) {
        self.sandbox
            .filter_runs_on_this_thread(&mut self.state.borrow_mut());
    }
}

impl Runs for Worker {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        Worker::run(self, request)
    }

    fn run_interactive(
        &self,
        submission: &RunRequest,
        interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        Worker::run_interactive(self, submission, interactor)
    }

    fn is_cancelled(&self) -> bool {
        self.sandbox.is_cancelled()
    }

    fn only_runs_from_now_on(&self) {
        Worker::only_runs_from_now_on(self);
    }
}
