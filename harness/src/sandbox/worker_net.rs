//! A box's empty network namespace: made once (creating one per run costs
//! more than the run), joined by each of its runs, and replaced when a run
//! left anything in it. One shared by all boxes would let parallel runs
//! meet on an abstract unix socket; each box's runs are sequential.

use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// An empty network namespace, held open, with its list of unix sockets
/// open too (a `/proc/net` file shows the namespace it was opened in).
pub(crate) struct WorkerNetns {
    namespace: OwnedFd,
    unix_sockets: OwnedFd,
}

/// A box's network namespace, as the box holds it: `None` until made,
/// `Some(None)` when this machine does not allow one.
pub(crate) type NetnsSlot = Option<Option<WorkerNetns>>;

/// An empty network namespace: made on a short-lived thread, since
/// unshare(CLONE_NEWNET) changes only the caller.
pub(crate) fn new_netns() -> Option<WorkerNetns> {
    std::thread::spawn(|| {
        // SAFETY: unshare on this thread only; it exits right after.
        if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
            return None;
        }
        let open = |path: &str| {
            rustix::fs::open(
                path,
                rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .ok()
        };
        Some(WorkerNetns {
            namespace: open("/proc/thread-self/ns/net")?,
            unix_sockets: open("/proc/thread-self/net/unix")?,
        })
    })
    .join()
    .ok()
    .flatten()
}

/// The box's network namespace, made on first use.
pub(crate) fn namespace(slot: &mut NetnsSlot) -> Option<RawFd> {
    slot.get_or_insert_with(new_netns)
        .as_ref()
        .map(|netns| netns.namespace.as_raw_fd())
}

/// After a run in the box's network namespace: if anything is left in it,
/// it is replaced by a fresh one before the next run. When every process
/// of the run is gone, only a unix socket held by descriptors in flight
/// (sent over a socket that is itself only in flight: a cycle the kernel
/// collects some time later) can remain, and a later run could find it by
/// name and connect.
pub(crate) fn renew_if_used(slot: &mut NetnsSlot) {
    let Some(Some(netns)) = slot.as_ref() else {
        return;
    };
    if !matches!(has_unix_sockets(&netns.unix_sockets), Ok(false)) {
        *slot = Some(new_netns());
    }
}

/// Whether the namespace's `/proc/net/unix`, read again from its start,
/// lists a socket (a line after the header).
fn has_unix_sockets(list: &OwnedFd) -> std::io::Result<bool> {
    let mut start = [0u8; 512];
    let read = rustix::io::pread(list, &mut start, 0)?;
    Ok(start[..read].iter().filter(|&&b| b == b'\n').count() > 1)
}
