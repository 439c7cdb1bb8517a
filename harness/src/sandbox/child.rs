//! The child between `clone` and `exec` (see `spawn.rs`): its named steps
//! (`child_step.rs`) in order, each a function here, with only
//! async-signal-safe calls on data prepared before the clone: no
//! allocation, no locks, no panics. A failed step writes its number and
//! errno to the report pipe and exits.

use std::io;
use std::os::fd::{AsRawFd, RawFd};

use super::child_step::{ChildStep, checked};
use super::spawn::{ChildSetup, KeyRings, Prepared};
use super::unix::KEYCTL_JOIN_SESSION_KEYRING;

pub(super) extern "C" fn child_entry(arg: *mut libc::c_void) -> libc::c_int {
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

/// The child between clone and exec: its named steps in order, each a
/// function below. Only async-signal-safe calls on prepared data: no
/// allocation, no locks, no panics. A failed step is written to the
/// report pipe with its errno, untouched since the failed call.
unsafe fn child(p: &Prepared, setup: &ChildSetup) -> ! {
    // SAFETY: each step makes only async-signal-safe calls on data in `p`
    // (alive for the whole child) or on stack values; `fail` and `exec`
    // end the child.
    unsafe {
        if let Err(step) = prepare_the_run(p, setup) {
            fail(p.report.as_raw_fd(), step);
        }
        exec(p)
    }
}

/// Every step before exec, in order; the first that fails stops them.
unsafe fn prepare_the_run(p: &Prepared, setup: &ChildSetup) -> Result<(), ChildStep> {
    // SAFETY: as in `child`.
    unsafe {
        leave_the_judge(p, setup)?;
        enter_the_box(p, setup)?;
        drop_privileges(p, setup)?;
        seal(p, setup)
    }
}

/// A session of its own and a clear signal mask; its user, network and
/// cgroup; the mounts of its root.
unsafe fn leave_the_judge(p: &Prepared, setup: &ChildSetup) -> Result<(), ChildStep> {
    // SAFETY: plain syscall wrappers on valid pointers (see `child`).
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        // A session of its own, first: out of the judge's process group, so
        // a Ctrl-C aimed at the judge never reaches this child once signals
        // are unblocked, and without a controlling terminal, so `/dev/tty`
        // (and TIOCSTI through it) cannot reach the grader's terminal.
        checked(libc::setsid() != -1, ChildStep::NewSession)?;
        checked(
            libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut()) == 0,
            ChildStep::ResetSignalMask,
        )?;
        if setup.map_user.is_some() {
            checked(write_id_maps(&p.uid_map, &p.gid_map), ChildStep::MapUser)?;
        }
        if let Some(fd) = setup.netns {
            checked(
                libc::setns(fd, libc::CLONE_NEWNET) == 0,
                ChildStep::JoinNetwork,
            )?;
        }
        for &fd in &setup.cgroup_files {
            checked(
                libc::write(fd, b"0".as_ptr().cast(), 1) == 1,
                ChildStep::JoinCgroup,
            )?;
        }
        if setup.mounts.is_some() {
            super::replay::replay(&p.mount_ops)?;
        }
        Ok(())
    }
}

/// Its standard streams, its working folder, its resource limits.
unsafe fn enter_the_box(p: &Prepared, setup: &ChildSetup) -> Result<(), ChildStep> {
    // SAFETY: plain syscall wrappers on valid descriptors and a
    // NUL-terminated path (see `child`).
    unsafe {
        checked(libc::dup2(p.stdin.as_raw_fd(), 0) == 0, ChildStep::Redirect)?;
        checked(
            libc::dup2(p.stdout.as_raw_fd(), 1) == 1,
            ChildStep::Redirect,
        )?;
        checked(
            libc::dup2(p.stderr.as_raw_fd(), 2) == 2,
            ChildStep::Redirect,
        )?;
        checked(
            libc::chdir(p.workdir.as_ptr()) == 0,
            ChildStep::EnterWorkdir,
        )?;
    }
    if let Some(limits) = &setup.limits {
        checked(limits.apply().is_ok(), ChildStep::Limits)?;
    }
    Ok(())
}

/// The run's uid and gid (the judge runs as root), and a user namespace
/// of its own where asked.
unsafe fn drop_privileges(p: &Prepared, setup: &ChildSetup) -> Result<(), ChildStep> {
    let Some((uid, gid)) = setup.drop_to else {
        return Ok(());
    };
    // SAFETY: raw syscalls on plain values and prepared buffers (see
    // `child`).
    unsafe {
        // Raw syscalls: glibc's wrappers broadcast the change to every
        // thread it knows of, threads that do not exist in this child,
        // and would wait for them forever.
        checked(
            libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) == 0,
            ChildStep::DropPrivileges,
        )?;
        checked(
            libc::syscall(libc::SYS_setresgid, gid, gid, gid) == 0,
            ChildStep::DropPrivileges,
        )?;
        checked(
            libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0,
            ChildStep::DropPrivileges,
        )?;
        if setup.key_rings == KeyRings::NewSessionAndUserNamespace {
            // The uid change made the process non-dumpable, which hands
            // its /proc/self files to root: it could not write its own
            // maps. Other runs of the uid are in other PID namespaces,
            // and RLIMIT_CORE is 0, so nothing else opens up. (The flag
            // is the shared memory map's: see USER_NAMESPACE_SPAWN.)
            checked(
                libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) == 0,
                ChildStep::OwnUserNamespace,
            )?;
            checked(
                libc::unshare(libc::CLONE_NEWUSER) == 0,
                ChildStep::OwnUserNamespace,
            )?;
            checked(
                write_id_maps(&p.own_uid_map, &p.own_gid_map),
                ChildStep::OwnUserNamespace,
            )?;
        }
    }
    Ok(())
}

/// What the run may never undo: a key ring of its own, death with the
/// judge, no new privileges, and its system call filter last.
unsafe fn seal(p: &Prepared, setup: &ChildSetup) -> Result<(), ChildStep> {
    // SAFETY: raw syscalls on plain values and the prepared filter program
    // (see `child`).
    unsafe {
        if setup.key_rings != KeyRings::ClosedByWorker {
            // Refused outright when a filter closed the key ring calls to
            // the starting thread (see `worker_keys`): nothing to join then.
            let joined = libc::syscall(libc::SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0usize) >= 0;
            let errno = *libc::__errno_location();
            checked(
                joined || errno == libc::ENOSYS || errno == libc::EPERM,
                ChildStep::SessionKeyRing,
            )?;
        }
        // If the judge dies, so does the run (and with it a PID namespace of
        // its own; the worker's dies with the worker's PID 1).
        // Set last: every change of credentials above clears it.
        checked(
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0,
            ChildStep::ParentDeathSignal,
        )?;
        // No setuid binary may give back what was dropped.
        let no_new_privs = libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
        if setup.run_filter.is_some() {
            // Last: it refuses the mount and namespace calls made above.
            // The kernel copies the program; with `no_new_privs` no
            // privilege is needed.
            checked(no_new_privs, ChildStep::SyscallFilter)?;
            checked(
                libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0,
                    &p.filter_program as *const libc::sock_fprog,
                ) == 0,
                ChildStep::SyscallFilter,
            )?;
        }
    }
    Ok(())
}

/// Every inherited descriptor but 0, 1, 2 closes at exec; then the
/// program, or the report of why not.
unsafe fn exec(p: &Prepared) -> ! {
    // SAFETY: close_range on plain values; execve on the prepared
    // NUL-terminated strings and null-terminated pointer arrays.
    unsafe {
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
        fail(p.report.as_raw_fd(), ChildStep::Exec)
    }
}
