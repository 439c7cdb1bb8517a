//! Starting a child with raw `clone(2)`, so that it can be born in a PID
//! namespace (a new one, of which it is PID 1 and which dies with it, or
//! the worker's, see `worker_pid`) and still be our direct child, reaped
//! with its own rusage. std's `Command` cannot do that: `pre_exec` runs
//! after the fork, too late to choose the PID namespace.
//!
//! Everything the child needs is prepared before the clone (C strings,
//! pointer arrays, file descriptors), because the child of a multi-threaded
//! process may only make async-signal-safe calls: no allocation, no locks.
//! It reports a failed step through a close-on-exec pipe, as std does.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::child_step::ChildStep;
use super::mounts::{MountOp, MountPlan};
use super::relay::{SideEnds, SideFds};
use super::unix::{ChildLimits, clone_child, pipe};
use super::worker_pid::ChildrenIn;
use super::{Conversation, SandboxError};

/// How the child is set up between clone and exec.
#[derive(Debug, Default)]
pub(crate) struct ChildSetup {
    /// CLONE_NEW* flags.
    pub(crate) namespaces: libc::c_int,
    /// Be born in the box's PID namespace instead of a new one.
    pub(crate) pid_namespace: Option<PidNamespaces>,
    /// Join this (empty, shared) network namespace instead of creating one.
    pub(crate) netns: Option<RawFd>,
    /// Map the caller's uid and gid to root in the new user namespace.
    pub(crate) map_user: Option<(u32, u32)>,
    /// `cgroup.procs` (v2) or `tasks` files to join.
    pub(crate) cgroup_files: Vec<RawFd>,
    pub(crate) mounts: Option<MountPlan>,
    pub(crate) limits: Option<ChildLimits>,
    /// Drop to this uid and gid (the judge runs as root).
    pub(crate) drop_to: Option<(u32, u32)>,
    /// How the run is kept from the judge's key rings and from any other
    /// run's.
    pub(crate) key_rings: KeyRings,
    /// Install a run's system call filter last (`syscall_filter`): `None`
    /// for none; `Some(true)` where the starting thread's worker filter
    /// already refuses the rest.
    pub(crate) run_filter: Option<bool>,
}

/// The PID namespace a run is born in (the box's), and the starting
/// thread's own, to return to once the child is started.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PidNamespaces {
    pub(crate) worker: RawFd,
    pub(crate) own: RawFd,
}

/// How a run's kernel key rings are its own.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRings {
    /// The run joins a new anonymous session key ring: the inherited one
    /// is the judge's, and possessing it would let the run read its keys.
    #[default]
    NewSession,
    /// That, and after dropping privileges a user namespace of the run's
    /// own (mapping the dropped ids to themselves): a user's key ring
    /// belongs to the user namespace, so nothing a run leaves in it is
    /// seen by the next run of the same uid. Needs a writable `/proc`.
    NewSessionAndUserNamespace,
    /// The starting thread closed the key ring system calls to everything
    /// it starts, and holds a session key ring of its own (`worker_keys`).
    ClosedByWorker,
}

pub(crate) struct Spawned {
    pub(crate) pid: i32,
    /// `None` when stdout was wired to an interactor.
    pub(crate) stdout: Option<File>,
    pub(crate) stderr: File,
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in an argument"))
}

fn cpath(path: &Path) -> io::Result<CString> {
    cstring(path.as_os_str().as_bytes())
}

/// Held while a child that enters a user namespace of its own starts.
static USER_NAMESPACE_SPAWN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Everything prepared for the child, owned here so the pointers stay valid.
pub(super) struct Prepared {
    pub(super) program: CString,
    pub(super) argv: Vec<CString>,
    pub(super) argv_ptrs: Vec<*const libc::c_char>,
    pub(super) envp: Vec<CString>,
    pub(super) envp_ptrs: Vec<*const libc::c_char>,
    pub(super) workdir: CString,
    pub(super) stdin: OwnedFd,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
    pub(super) report: OwnedFd,
    pub(super) uid_map: Vec<u8>,
    pub(super) gid_map: Vec<u8>,
    /// The identity maps of the run's own user namespace.
    pub(super) own_uid_map: Vec<u8>,
    pub(super) own_gid_map: Vec<u8>,
    pub(super) mount_ops: Vec<MountOp>,
    /// The deny list's program (empty without one); `filter_program`
    /// points into it.
    pub(super) filter: Vec<libc::sock_filter>,
    pub(super) filter_program: libc::sock_fprog,
}

/// The child's standard streams and its report pipe, with our ends.
struct Pipes {
    stdin: OwnedFd,
    stdout: OwnedFd,
    stderr: OwnedFd,
    report: OwnedFd,
    /// Ours: what the child writes (`None` when stdout is wired).
    out_read: Option<OwnedFd>,
    err_read: OwnedFd,
    report_read: OwnedFd,
}

impl Pipes {
    /// stdin from `stdin` (or /dev/null) and stdout a pipe, unless `wired`
    /// gives both (and perhaps stderr); stderr and the report pipe pipes.
    /// A side `wired` by path (its FIFOs named among its arguments) keeps
    /// stdin and stdout as an unwired run's.
    fn open(stdin: Option<&Path>, wired: Option<SideFds>) -> Result<Pipes, SandboxError> {
        let io_error = |what: &str| {
            let what = what.to_string();
            move |source| SandboxError::Io { what, source }
        };
        let (own_stderr, ends) = match wired {
            Some(fds) => (fds.stderr, Some(fds.ends)),
            None => (None, None),
        };
        let (stdin, out_read, stdout) = match ends {
            Some(SideEnds::Streams { stdin, stdout }) => (stdin, None, stdout),
            _ => {
                let stdin_file = match stdin {
                    Some(path) => File::open(path)
                        .map_err(io_error(&format!("open input {}", path.display())))?,
                    None => File::open("/dev/null").map_err(io_error("open /dev/null"))?,
                };
                let (out_read, out_write) = pipe().map_err(io_error("create a pipe"))?;
                (stdin_file.into(), Some(out_read), out_write)
            }
        };
        // A run whose caller reads its stderr as it comes (the play page's
        // referee) writes there; ours is then a pipe that ends at once.
        let (err_read, stderr) = match own_stderr {
            Some(given) => {
                let (read, write) = pipe().map_err(io_error("create a pipe"))?;
                drop(write);
                (read, given)
            }
            None => pipe().map_err(io_error("create a pipe"))?,
        };
        let (report_read, report) = pipe().map_err(io_error("create a pipe"))?;
        Ok(Pipes {
            stdin,
            stdout,
            stderr,
            report,
            out_read,
            err_read,
            report_read,
        })
    }
}

/// `args` with the paths of a side's FIFOs (the one it reads by CMS's
/// names, then the other) put in at `conversation`'s index.
fn conversation_args(args: &[OsString], wired: Option<&SideFds>) -> Vec<OsString> {
    let mut args = args.to_vec();
    if let Some(SideFds {
        ends: SideEnds::Paths(paths),
        conversation: Conversation::PathArguments { at },
        ..
    }) = wired
    {
        let at = (*at).min(args.len());
        args.splice(at..at, paths.iter().map(|path| path.as_os_str().to_owned()));
    }
    args
}

/// Starts `program` with `setup` applied. The child is in its own session;
/// stdout and stderr come back as pipes, unless `wired` gives its stdin and
/// stdout (an interactive run).
pub(crate) fn spawn(
    program: &Path,
    args: &[OsString],
    env: &[(OsString, OsString)],
    stdin: Option<&Path>,
    wired: Option<SideFds>,
    workdir: &Path,
    setup: &ChildSetup,
) -> Result<Spawned, SandboxError> {
    let args = conversation_args(args, wired.as_ref());
    let pipes = Pipes::open(stdin, wired)?;
    let spawn_error = |source| SandboxError::Spawn {
        program: program.to_path_buf(),
        source,
    };
    let prepared = Prepared::new(
        program,
        &args,
        env,
        workdir,
        setup,
        [pipes.stdin, pipes.stdout, pipes.stderr, pipes.report],
    )
    .map_err(spawn_error)?;
    let pid = start(&prepared, setup).map_err(spawn_error)?;
    // Our copies of the child's ends must close, or we would never see EOF.
    drop(prepared);
    setup_failure(pipes.report_read, pid, program)?;
    Ok(Spawned {
        pid,
        stdout: pipes.out_read.map(File::from),
        stderr: File::from(pipes.err_read),
    })
}

impl Prepared {
    /// Everything the child reads, made before the clone; `fds` are the
    /// child's stdin, stdout, stderr and report pipe.
    fn new(
        program: &Path,
        args: &[OsString],
        env: &[(OsString, OsString)],
        workdir: &Path,
        setup: &ChildSetup,
        fds: [OwnedFd; 4],
    ) -> io::Result<Prepared> {
        let mut argv = vec![cpath(program)?];
        for arg in args {
            argv.push(cstring(arg.as_bytes())?);
        }
        let envp: Vec<CString> = env
            .iter()
            .map(|(k, v)| {
                let mut kv = k.as_bytes().to_vec();
                kv.push(b'=');
                kv.extend_from_slice(v.as_bytes());
                cstring(&kv)
            })
            .collect::<io::Result<_>>()?;
        let mount_ops = match &setup.mounts {
            Some(plan) => plan.ops()?,
            None => Vec::new(),
        };
        let (uid_map, gid_map) = match setup.map_user {
            Some((uid, gid)) => (
                format!("0 {uid} 1\n").into_bytes(),
                format!("0 {gid} 1\n").into_bytes(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let (own_uid_map, own_gid_map) = match setup.drop_to {
            Some((uid, gid)) if setup.key_rings == KeyRings::NewSessionAndUserNamespace => (
                format!("{uid} {uid} 1\n").into_bytes(),
                format!("{gid} {gid} 1\n").into_bytes(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let [stdin, stdout, stderr, report] = fds;
        let mut prepared = Prepared {
            program: cpath(program)?,
            argv_ptrs: Vec::new(),
            envp_ptrs: Vec::new(),
            argv,
            envp,
            workdir: cpath(workdir)?,
            stdin,
            stdout,
            stderr,
            report,
            uid_map,
            gid_map,
            own_uid_map,
            own_gid_map,
            mount_ops,
            filter: setup
                .run_filter
                .map_or_else(Vec::new, super::syscall_filter::run_program),
            filter_program: libc::sock_fprog {
                len: 0,
                filter: std::ptr::null_mut(),
            },
        };
        prepared.filter_program = libc::sock_fprog {
            len: prepared.filter.len() as libc::c_ushort,
            filter: prepared.filter.as_mut_ptr(),
        };
        prepared.argv_ptrs = null_terminated(&prepared.argv);
        prepared.envp_ptrs = null_terminated(&prepared.envp);
        Ok(prepared)
    }
}

/// The pointers of `strings`, then a null pointer (an `argv` or `envp`).
fn null_terminated(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain([std::ptr::null()])
        .collect()
}

/// Clones the child, which takes the steps of `child.rs` with `prepared`;
/// returns when it has exec'd or exited.
fn start(prepared: &Prepared, setup: &ChildSetup) -> io::Result<i32> {
    // The child runs on a stack of its own, sharing our memory until it
    // execs (CLONE_VM | CLONE_VFORK: no page tables to copy, so the cost
    // does not grow with the judge's size). It only reads what was prepared
    // above and writes its own stack; we are suspended meanwhile.
    // Until it execs, the child shares our memory map, and with it the map's
    // "dumpable" flag, which a uid change clears and the child sets again to
    // write its own uid_map: two such children at once would undo each
    // other's flag. They start one at a time (a few hundred µs each).
    let _one_at_a_time = (setup.key_rings == KeyRings::NewSessionAndUserNamespace).then(|| {
        USER_NAMESPACE_SPAWN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    });
    // The PID namespace is the parent's choice, made on this thread for
    // this child only.
    let children_in = match setup.pid_namespace {
        Some(pids) => Some(ChildrenIn::enter(pids.worker, pids.own)?),
        None => None,
    };
    let mut args = (prepared, setup);
    let flags = setup.namespaces | libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
    // SAFETY: `child_entry` makes only async-signal-safe calls, and gets a
    // pointer to `args`, which outlives the child's use of it (we are
    // suspended until it execs or exits).
    let pid = unsafe {
        clone_child(
            super::child::child_entry,
            flags,
            (&mut args as *mut (&Prepared, &ChildSetup)).cast(),
        )
    };
    drop(children_in);
    pid
}

/// The step the child failed at, if it did (the child is then reaped).
fn setup_failure(report: OwnedFd, pid: i32, program: &Path) -> Result<(), SandboxError> {
    // The child writes its 5 bytes at once (less than a pipe's atomic
    // size) or nothing: one read sees them, or the end at its exec.
    let mut message = [0u8; 8];
    let mut report = File::from(report);
    let read = loop {
        match report.read(&mut message) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => break other.unwrap_or(0),
        }
    };
    if read < 5 {
        return Ok(());
    }
    let step = message[0];
    let errno = i32::from_ne_bytes([message[1], message[2], message[3], message[4]]);
    let _ = super::unix::wait4(pid);
    Err(SandboxError::Setup {
        program: program.to_path_buf(),
        step: ChildStep::from_byte(step).map_or("setup", ChildStep::describe),
        source: io::Error::from_raw_os_error(errno),
    })
}

/// The environment pairs, for callers building one from `(key, value)` strings.
pub(crate) fn env_pair(key: &str, value: impl AsRef<OsStr>) -> (OsString, OsString) {
    (OsString::from(key), value.as_ref().to_os_string())
}
