//! Kernel key rings closed to a worker thread's runs, once per thread.
//!
//! Key rings are kernel state that outlives a process: a user's key ring
//! lives as long as its user namespace, so a run of uid 65534 could leave
//! a key there for the next run, or the next judge, to find. A user
//! namespace per run gives each run fresh ones, but costs about 0.1 ms per
//! run (a namespace made, mapped and freed), and a new session key ring
//! per run another 25 µs (measured in docs/benchmarks.md).
//!
//! Instead, the first thread that starts a contained run joins an
//! anonymous session key ring of its own (so runs do not possess the
//! judge's, nor the grader's login one) and installs a seccomp filter on
//! itself that makes the three key ring system calls (`add_key`,
//! `request_key`, `keyctl`) fail with ENOSYS, as on a kernel built without
//! keys, together with the rest of the worker's deny list
//! (`syscall_filter::worker_program`). Filters and credentials are inherited and can never be removed:
//! every thread and program it starts from then on (the judge's worker
//! threads, the runs, the trusted programs too) lives without key rings,
//! and no run can put anything in one for another to read. The judge
//! itself never uses them.

use std::io;

use super::unix::KEYCTL_JOIN_SESSION_KEYRING;

/// Whether the calling thread's key rings are closed to what it starts:
/// tried once per box (`known` holds the answer; root only: installing a
/// filter without `no_new_privs` needs CAP_SYS_ADMIN). `false` when the
/// kernel refused: its runs then need a user namespace each.
pub(crate) fn closed(known: &mut Option<bool>) -> bool {
    *known.get_or_insert_with(|| already_closed() || close().is_ok())
}

/// Whether the key ring calls already fail on this thread: a thread
/// inherits the filter of the thread that started it (the judge's worker
/// threads are started by a thread that ran the isolation probe), and a
/// container's own filter may close them too (EPERM under Docker's).
fn already_closed() -> bool {
    // keyctl(KEYCTL_GET_KEYRING_ID = 0, KEY_SPEC_SESSION_KEYRING = -3,
    // create = 0): the one key ring every thread has.
    // SAFETY: no pointers passed.
    let rc = unsafe { libc::syscall(libc::SYS_keyctl, 0, -3, 0) };
    let errno = io::Error::last_os_error().raw_os_error();
    rc == -1 && matches!(errno, Some(libc::ENOSYS | libc::EPERM))
}

/// Joins a session key ring of this thread's own, then closes the calls.
fn close() -> io::Result<()> {
    // SAFETY: keyctl with a null name changes this thread's credentials
    // only (credentials are per thread); nothing is passed by pointer.
    let joined = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if joined < 0 {
        return Err(io::Error::last_os_error());
    }
    super::syscall_filter::install(super::syscall_filter::worker_program())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_thread_and_its_children_have_no_key_rings() {
        if !crate::test_support::have(&["root"]) {
            return;
        }
        // keyctl(KEYCTL_GET_KEYRING_ID = 0, session = -3, create = 1).
        // SAFETY: no pointers passed.
        let session = || unsafe { libc::syscall(libc::SYS_keyctl, 0, -3, 1) };
        std::thread::spawn(move || {
            assert!(session() >= 0, "key rings work before");
            assert!(!already_closed());
            assert!(closed(&mut None));
            let rc = session();
            assert_eq!(rc, -1);
            assert_eq!(
                io::Error::last_os_error().raw_os_error(),
                Some(libc::ENOSYS)
            );
            // What the thread starts inherits the filter.
            // SAFETY: the child makes only async-signal-safe calls.
            let child = unsafe { libc::fork() };
            if child == 0 {
                // SAFETY: as above.
                unsafe {
                    let rc = libc::syscall(libc::SYS_keyctl, 0, -3, 1);
                    let refused = rc == -1 && *libc::__errno_location() == libc::ENOSYS;
                    libc::_exit(if refused { 0 } else { 1 });
                }
            }
            let mut status = 0;
            // SAFETY: waiting for our own child.
            assert_eq!(unsafe { libc::waitpid(child, &mut status, 0) }, child);
            assert_eq!(status, 0, "the child could use a key ring");
            // And so do the threads it starts, which know it.
            std::thread::spawn(|| assert!(already_closed() && closed(&mut None)))
                .join()
                .unwrap();
        })
        .join()
        .unwrap();
    }
}
