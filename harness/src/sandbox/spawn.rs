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
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::SandboxError;
use super::child_step::ChildStep;
use super::mounts::{MountOp, MountPlan};
use super::relay::SideFds;
use super::unix::{ChildLimits, KEYCTL_JOIN_SESSION_KEYRING, clone_child, pipe};
use super::worker_pid::ChildrenIn;

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
struct Prepared {
    program: CString,
    argv: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    envp: Vec<CString>,
    envp_ptrs: Vec<*const libc::c_char>,
    workdir: CString,
    stdin: OwnedFd,
    stdout: OwnedFd,
    stderr: OwnedFd,
    report: OwnedFd,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    /// The identity maps of the run's own user namespace.
    own_uid_map: Vec<u8>,
    own_gid_map: Vec<u8>,
    mount_ops: Vec<MountOp>,
    /// The deny list's program (empty without one); `filter_program`
    /// points into it.
    filter: Vec<libc::sock_filter>,
    filter_program: libc::sock_fprog,
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
    let io_error = |what: &str| {
        let what = what.to_string();
        move |source| SandboxError::Io { what, source }
    };
    let (stdin_fd, out_read, out_write) = match wired {
        Some(fds) => (fds.stdin, None, fds.stdout),
        None => {
            let stdin_file = match stdin {
                Some(path) => {
                    File::open(path).map_err(io_error(&format!("open input {}", path.display())))?
                }
                None => File::open("/dev/null").map_err(io_error("open /dev/null"))?,
            };
            let (out_read, out_write) = pipe().map_err(io_error("create a pipe"))?;
            (stdin_file.into(), Some(out_read), out_write)
        }
    };
    let (err_read, err_write) = pipe().map_err(io_error("create a pipe"))?;
    let (report_read, report_write) = pipe().map_err(io_error("create a pipe"))?;
    let spawn_error = |source| SandboxError::Spawn {
        program: program.to_path_buf(),
        source,
    };

    let mut argv = vec![cpath(program).map_err(spawn_error)?];
    for arg in args {
        argv.push(cstring(arg.as_bytes()).map_err(spawn_error)?);
    }
    let envp: Vec<CString> = env
        .iter()
        .map(|(k, v)| {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            cstring(&kv)
        })
        .collect::<io::Result<_>>()
        .map_err(spawn_error)?;
    let mount_ops = match &setup.mounts {
        Some(plan) => plan.ops().map_err(spawn_error)?,
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
    let mut prepared = Prepared {
        program: cpath(program).map_err(spawn_error)?,
        argv_ptrs: Vec::new(),
        envp_ptrs: Vec::new(),
        argv,
        envp,
        workdir: cpath(workdir).map_err(spawn_error)?,
        stdin: stdin_fd,
        stdout: out_write,
        stderr: err_write,
        report: report_write,
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
    prepared.argv_ptrs = prepared
        .argv
        .iter()
        .map(|s| s.as_ptr())
        .chain([std::ptr::null()])
        .collect();
    prepared.envp_ptrs = prepared
        .envp
        .iter()
        .map(|s| s.as_ptr())
        .chain([std::ptr::null()])
        .collect();

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
        Some(pids) => Some(ChildrenIn::enter(pids.worker, pids.own).map_err(spawn_error)?),
        None => None,
    };
    let mut args = (&prepared, setup);
    let flags = setup.namespaces | libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
    // SAFETY: `child_entry` makes only async-signal-safe calls, and gets a
    // pointer to `args`, which outlives the child's use of it (we are
    // suspended until it execs or exits).
    let pid = unsafe {
        clone_child(
            child_entry,
            flags,
            (&mut args as *mut (&Prepared, &ChildSetup)).cast(),
        )
    };
    drop(children_in);
    let pid = pid.map_err(spawn_error)?;
    // Our copies of the child's ends must close, or we would never see EOF.
    let Prepared {
        report,
        stdout,
        stderr,
        stdin,
        ..
    } = prepared;
    drop((report, stdout, stderr, stdin));

    // The child writes its 5 bytes at once (less than a pipe's atomic
    // size) or nothing: one read sees them, or the end at its exec.
    let mut message = [0u8; 8];
    let mut report = File::from(report_read);
    let read = loop {
        match report.read(&mut message) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => break other.unwrap_or(0),
        }
    };
    if read >= 5 {
        let step = message[0];
        let errno = i32::from_ne_bytes([message[1], message[2], message[3], message[4]]);
        let _ = super::unix::wait4(pid);
        let source = io::Error::from_raw_os_error(errno);
        return Err(SandboxError::Setup {
            program: program.to_path_buf(),
            step: ChildStep::from_byte(step).map_or("setup", ChildStep::describe),
            source,
        });
    }
    Ok(Spawned {
        pid,
        stdout: out_read.map(File::from),
        stderr: File::from(err_read),
    })
}

extern "C" fn child_entry(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` points at the `(&Prepared, &ChildSetup)` pair in `spawn`,
    // alive while the parent is suspended by CLONE_VFORK.
    unsafe {
        let (prepared, setup) = *arg.cast::<(&Prepared, &ChildSetup)>();
        child(prepared, setup)
    }
}

/// Writes `(step, errno)` to the report pipe and exits.
unsafe fn fail(report: RawFd, step: ChildStep) -> ! {
    let errno = io::Error::last_os_error().raw_os_error().unwrap_or(0);
    let mut message = [0u8; 5];
    message[0] = step as u8;
    message[1..].copy_from_slice(&errno.to_ne_bytes());
    // SAFETY: writing a stack buffer to an open descriptor, then _exit: both
    // async-signal-safe.
    unsafe {
        libc::write(report, message.as_ptr().cast(), message.len());
        libc::_exit(127)
    }
}

/// Writes all of `bytes` to the file at `path` (NUL-terminated).
unsafe fn write_file(path: &[u8], bytes: &[u8]) -> bool {
    // SAFETY: `path` is NUL-terminated; open, write and close are async-signal-safe.
    unsafe {
        let fd = libc::open(path.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let ok = libc::write(fd, bytes.as_ptr().cast(), bytes.len()) == bytes.len() as isize;
        libc::close(fd);
        ok
    }
}

/// Maps the ids of the user namespace the calling process has just
/// entered (setgroups denied first, as the kernel requires of a map written
/// without privilege). Async-signal-safe, like `write_file`.
unsafe fn write_id_maps(uid_map: &[u8], gid_map: &[u8]) -> bool {
    // SAFETY: each path is NUL-terminated (see `write_file`).
    unsafe {
        write_file(b"/proc/self/setgroups\0", b"deny")
            && write_file(b"/proc/self/uid_map\0", uid_map)
            && write_file(b"/proc/self/gid_map\0", gid_map)
    }
}

/// The child between clone and exec. Only async-signal-safe calls on
/// prepared data: no allocation, no locks, no panics.
unsafe fn child(p: &Prepared, setup: &ChildSetup) -> ! {
    let report = p.report.as_raw_fd();
    let check = |ok: bool, step: ChildStep| {
        if !ok {
            // SAFETY: see `fail`.
            unsafe { fail(report, step) }
        }
    };
    // SAFETY: every call below is a plain syscall wrapper on valid pointers
    // to data in `p` (alive for the whole child) or on stack values.
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        // A session of its own, first: out of the judge's process group, so
        // a Ctrl-C aimed at the judge never reaches this child once signals
        // are unblocked, and without a controlling terminal, so `/dev/tty`
        // (and TIOCSTI through it) cannot reach the grader's terminal.
        check(libc::setsid() != -1, ChildStep::NewSession);
        check(
            libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut()) == 0,
            ChildStep::ResetSignalMask,
        );
        if setup.map_user.is_some() {
            check(write_id_maps(&p.uid_map, &p.gid_map), ChildStep::MapUser);
        }
        if let Some(fd) = setup.netns {
            check(
                libc::setns(fd, libc::CLONE_NEWNET) == 0,
                ChildStep::JoinNetwork,
            );
        }
        for &fd in &setup.cgroup_files {
            check(
                libc::write(fd, b"0".as_ptr().cast(), 1) == 1,
                ChildStep::JoinCgroup,
            );
        }
        if setup.mounts.is_some() {
            if let Err(step) = super::replay::replay(&p.mount_ops) {
                fail(report, step);
            }
        }
        check(libc::dup2(p.stdin.as_raw_fd(), 0) == 0, ChildStep::Redirect);
        check(
            libc::dup2(p.stdout.as_raw_fd(), 1) == 1,
            ChildStep::Redirect,
        );
        check(
            libc::dup2(p.stderr.as_raw_fd(), 2) == 2,
            ChildStep::Redirect,
        );
        check(
            libc::chdir(p.workdir.as_ptr()) == 0,
            ChildStep::EnterWorkdir,
        );
        if let Some(limits) = &setup.limits {
            check(limits.apply().is_ok(), ChildStep::Limits);
        }
        if let Some((uid, gid)) = setup.drop_to {
            // Raw syscalls: glibc's wrappers broadcast the change to every
            // thread it knows of, threads that do not exist in this child,
            // and would wait for them forever.
            check(
                libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) == 0,
                ChildStep::DropPrivileges,
            );
            check(
                libc::syscall(libc::SYS_setresgid, gid, gid, gid) == 0,
                ChildStep::DropPrivileges,
            );
            check(
                libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0,
                ChildStep::DropPrivileges,
            );
            if setup.key_rings == KeyRings::NewSessionAndUserNamespace {
                // The uid change made the process non-dumpable, which hands
                // its /proc/self files to root: it could not write its own
                // maps. Other runs of the uid are in other PID namespaces,
                // and RLIMIT_CORE is 0, so nothing else opens up. (The flag
                // is the shared memory map's: see USER_NAMESPACE_SPAWN.)
                check(
                    libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) == 0,
                    ChildStep::OwnUserNamespace,
                );
                check(
                    libc::unshare(libc::CLONE_NEWUSER) == 0,
                    ChildStep::OwnUserNamespace,
                );
                check(
                    write_id_maps(&p.own_uid_map, &p.own_gid_map),
                    ChildStep::OwnUserNamespace,
                );
            }
        }
        if setup.key_rings != KeyRings::ClosedByWorker {
            // Refused outright when a filter closed the key ring calls to
            // the starting thread (see `worker_keys`): nothing to join then.
            let joined = libc::syscall(libc::SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0usize) >= 0;
            let errno = *libc::__errno_location();
            check(
                joined || errno == libc::ENOSYS || errno == libc::EPERM,
                ChildStep::SessionKeyRing,
            );
        }
        // If the judge dies, so does the run (and with it a PID namespace of
        // its own; the worker's dies with the worker's PID 1).
        // Set last: every change of credentials above clears it.
        check(
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0,
            ChildStep::ParentDeathSignal,
        );
        // No setuid binary may give back what was dropped.
        let no_new_privs = libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
        if setup.run_filter.is_some() {
            // Last: it refuses the mount and namespace calls made above.
            // The kernel copies the program; with `no_new_privs` no
            // privilege is needed.
            check(no_new_privs, ChildStep::SyscallFilter);
            check(
                libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0,
                    &p.filter_program as *const libc::sock_fprog,
                ) == 0,
                ChildStep::SyscallFilter,
            );
        }
        // Every inherited descriptor but 0, 1, 2 closes at exec.
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
        libc::execve(
            p.program.as_ptr(),
            p.argv_ptrs.as_ptr(),
            p.envp_ptrs.as_ptr(),
        );
        fail(report, ChildStep::Exec)
    }
}

/// The environment pairs, for callers building one from `(key, value)` strings.
pub(crate) fn env_pair(key: &str, value: impl AsRef<OsStr>) -> (OsString, OsString) {
    (OsString::from(key), value.as_ref().to_os_string())
}
