//! Running one program under limits: what the process did, never what it
//! means (that is `verdict`).
//!
//! # Theory of operation
//!
//! A `Sandbox` is decided once per judge (`isolation.rs`: which layers this
//! machine allows, said in one line) and is cheap to share. Programs run in
//! a box, a `Worker` (`worker.rs`): the value a worker thread owns and
//! keeps for all its runs, made by `Sandbox::worker` (the runner's pool
//! opens one per thread through `Boxes::open`; a server's judging thread
//! and the command line hold one the same way) and dropped when the thread
//! is done. What the box holds (`box_state.rs`) is prepared on its first
//! contained run and reused: a uid of its own (`worker_uid`), a cgroup slot
//! (`cgroup`), an empty network namespace (`worker_net`), IPC and UTS
//! namespaces (`worker_ns`), the key-ring and system-call filters on its
//! thread (`worker_keys`, `syscall_filter`), a PID namespace whose first
//! process it starts (`worker_pid`), and a private root built by a mounter
//! thread in a mount namespace of its own (`worker_root`, `worker_mounter`).
//!
//! One run (`imp.rs`, `Sandbox::run_in`) has four stages. *Prepare*: the
//! child's setup (`spawn::ChildSetup`: namespaces to join, the mount plan
//! or the box's root, limits, cgroup files, uid) and the working folder,
//! seeded with the run's files (`working.rs`). *Spawn* (`spawn.rs`): a
//! `clone` whose child takes the named steps of `child_step.rs`
//! (`child.rs`) with only async-signal-safe calls on data prepared before,
//! then `exec`; a failed step comes back through a pipe as
//! `SandboxError::Setup`. *Watch* (`watch.rs`): the run loop drains stdout and stderr with a cap, reads CPU time (the
//! cgroup's, or the process's) and the wall clock less the time spent
//! waiting for a busy CPU, and kills at any limit; an interactive run
//! relays both programs' pipes (`relay.rs`, `interactive.rs`). *Tear down*:
//! kill the process group and whatever is left in the cgroup or the box's
//! PID namespace, reap the child with its rusage, take out what the run
//! was asked to leave, renew the box's network namespace and working
//! tmpfs if the run left anything in them. Nothing of a run outlives it.

mod box_state;
mod cgroup;
mod cgroup_file;
mod child;
mod child_step;
mod error;
mod fifos;
mod imp;
mod interactive;
mod isolation;
mod limits;
mod mounts;
mod relay;
mod replay;
mod spawn;
mod syscall_filter;
mod unix;
mod waiting;
mod watch;
mod worker;
mod worker_keys;
mod worker_mounter;
mod worker_net;
mod worker_ns;
mod worker_pid;
mod worker_root;
#[cfg(test)]
mod worker_tests;
mod worker_uid;
mod working;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

pub use error::SandboxError;
pub use imp::Sandbox;
pub use isolation::IsolationLevel;
pub(crate) use limits::TOOL_LIMITS;
pub use limits::{COMPILE_LIMITS, Limits};
pub use relay::{Direction, Transcript};
pub use worker::{Attached, Worker};
pub use worker_uid::UidRange;
pub use working::{Collect, CollectError, Collected, SeedFile};

/// The PATH a run sees; interpreters in a language table are looked up here too.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// How much a run is contained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Containment {
    /// Untrusted code: namespaces, private read-only view, unprivileged user,
    /// cgroup, resource limits — all that the machine allows.
    Submission,
    /// A compiler on untrusted source: contained like a submission (its
    /// toolchain shown read-only), since compiling can run code the
    /// submitter controls and `#include` reads any file the compiler can.
    Compiler,
    /// The package's own programs (checkers, validators, generators):
    /// resource limits and a process group only, as they must read the answers.
    Tool,
}

/// How much of stderr is kept for display (all of it counts towards the output limit).
pub const STDERR_KEEP: usize = 64 << 10;

/// One program run.
#[derive(Debug, Clone)]
pub struct RunRequest {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The file connected to stdin; `None` connects /dev/null.
    pub stdin: Option<PathBuf>,
    /// A fresh folder the program runs in (and may write to).
    pub workdir: PathBuf,
    pub limits: Limits,
    /// Variables added to the minimal environment (PATH, HOME, TMPDIR, LANG).
    pub env: Vec<(OsString, OsString)>,
    /// RLIMIT_STACK. Submissions get their memory limit, as on most judges, so
    /// deep recursion works; `None` keeps the default, which matters for
    /// multi-threaded tools: glibc sizes every thread's stack by this limit.
    pub stack: Option<u64>,
    /// More folders a contained run may read (a compiler's toolchain).
    pub read_only: Vec<PathBuf>,
    pub containment: Containment,
    /// Files the judge writes into the working folder before the run (a
    /// compile's sources, a Kattis test's `.files`), so that they are
    /// there whatever the folder is (a tmpfs of the run's own, or not).
    pub seed: Vec<SeedFile>,
    /// After a run that exits with 0, what it left in its working folder
    /// is copied out (a compile's program), within limits.
    pub collect: Option<Collect>,
    /// How it talks to the other side of an interactive run (ignored in
    /// any other run).
    pub conversation: Conversation,
}

/// How one side of an interactive run reaches the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Conversation {
    /// Through its stdin and stdout (a submission; a Kattis or testlib
    /// interactor).
    #[default]
    StandardStreams,
    /// Through two FIFOs whose paths are put among its arguments at index
    /// `at`, in CMS's order (see `fifos`): its manager, and a solution
    /// under `user_io: fifo_io`. Its stdin is then the request's `stdin`,
    /// and its stdout kept as any run's.
    PathArguments { at: usize },
}

impl RunRequest {
    /// `program` with no arguments, run in `workdir` under `limits`: stdin
    /// from /dev/null, the default environment and stack, nothing more to
    /// read, no files in or out. Set the other fields on top.
    pub fn new(
        program: PathBuf,
        workdir: PathBuf,
        limits: Limits,
        containment: Containment,
    ) -> RunRequest {
        RunRequest {
            program,
            args: Vec::new(),
            stdin: None,
            workdir,
            limits,
            env: Vec::new(),
            stack: None,
            read_only: Vec::new(),
            containment,
            seed: Vec::new(),
            collect: None,
            conversation: Conversation::StandardStreams,
        }
    }
}

/// Why the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// It exited by itself with this code.
    Exited(i32),
    /// It was killed by this signal, not by us.
    Signaled(i32),
    /// We killed it: its CPU time passed the limit.
    CpuLimit,
    /// We killed it: the wall-clock backstop passed.
    WallLimit,
    /// We killed it: stdout + stderr passed the output limit.
    OutputLimit,
    /// The kernel's memory accounting killed it at the memory limit.
    MemoryLimit,
}

/// What a run cost, measured for this child alone.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Metrics {
    /// CPU time of every task of the run (with a CPU cgroup), else of the
    /// process and the children it waited for.
    pub cpu: Duration,
    pub wall: Duration,
    /// Time the run's tasks spent runnable but waiting for a CPU: how much a
    /// busy machine stretched the wall time.
    pub waited: Duration,
    pub peak_memory_kib: u64,
    pub output_bytes: u64,
}

/// What the process did.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub termination: Termination,
    pub metrics: Metrics,
    /// At most `limits.output` bytes.
    pub stdout: Vec<u8>,
    /// The first `STDERR_KEEP` bytes.
    pub stderr: Vec<u8>,
    /// What the request's `collect` copied out, or why it could not; `None`
    /// when nothing was asked or the run did not exit with 0.
    pub collected: Option<Result<Collected, CollectError>>,
}

/// What both sides of an interactive run did.
#[derive(Debug)]
pub struct Interaction {
    pub submission: RunOutcome,
    /// The interactor's run; an error here is the judge's, never the
    /// submission's.
    pub interactor: Result<RunOutcome, SandboxError>,
    /// Whether the interactor stopped talking before the submission did:
    /// then its verdict stands even if the submission crashed afterwards.
    pub interactor_first: bool,
    /// The submission was stopped at the wall clock while the interactor,
    /// still talking, neither read what it was sent nor waited for more:
    /// the interactor held the conversation up (a judge error), not the
    /// submission (which waits on it). Stopped while the interactor
    /// waited on it, or with no way to tell, it is the submission's time.
    pub interactor_stalled: bool,
    pub transcript: Transcript,
}

/// What judging needs from a box (one thread's, see `Worker`): a run, an
/// interactive run, and whether the user interrupted. [`Worker`] is the
/// real one; the runner's unit tests drive the scheduler and verdicts with
/// scripted fakes.
pub trait Runs {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError>;
    fn run_interactive(
        &self,
        submission: &RunRequest,
        interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError>;
    fn is_cancelled(&self) -> bool;
    /// The box's thread starts only runs and trusted programs from now on
    /// (a worker of the runner's pool; see `Worker::only_runs_from_now_on`).
    fn only_runs_from_now_on(&self) {}
}

/// Where boxes come from: one for each thread that runs programs (a pool's
/// worker, a server's judging thread). [`Sandbox`] opens real ones; a fake
/// that is `Sync` is its own box on every thread.
pub trait Boxes: Sync {
    fn open(&self) -> Box<dyn Runs + '_>;
    fn is_cancelled(&self) -> bool;
    /// The isolation its boxes apply, in words: every report says it.
    fn describe(&self) -> String;
}

impl Boxes for Sandbox {
    fn open(&self) -> Box<dyn Runs + '_> {
        Box::new(self.worker())
    }

    fn is_cancelled(&self) -> bool {
        Sandbox::is_cancelled(self)
    }

    fn describe(&self) -> String {
        Sandbox::describe(self)
    }
}

impl<T: Runs + Sync> Boxes for T {
    fn open(&self) -> Box<dyn Runs + '_> {
        Box::new(self)
    }

    fn is_cancelled(&self) -> bool {
        Runs::is_cancelled(self)
    }

    /// Only a test's fake is its own box on every thread.
    fn describe(&self) -> String {
        "none: a test's fake box, no process".into()
    }
}

/// A box behind a reference or an `Arc` is the same box (a context's
/// boxes and its builder's may hold one between them).
macro_rules! the_same_box {
    ($($wrapper:ty),*) => {$(
        impl<T: Runs + ?Sized> Runs for $wrapper {
            fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
                (**self).run(request)
            }

            fn run_interactive(
                &self,
                submission: &RunRequest,
                interactor: &RunRequest,
            ) -> Result<Interaction, SandboxError> {
                (**self).run_interactive(submission, interactor)
            }

            fn is_cancelled(&self) -> bool {
                (**self).is_cancelled()
            }

            fn only_runs_from_now_on(&self) {
                (**self).only_runs_from_now_on();
            }
        }
    )*};
}

the_same_box!(&T, std::sync::Arc<T>);
