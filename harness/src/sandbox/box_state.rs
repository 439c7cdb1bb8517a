//! What a box (`Worker`) holds, apart from the thread it lives on: the
//! parts each stage of a run takes from it, prepares on first use, and
//! gives back when the box is dropped.

use std::os::fd::OwnedFd;

use super::cgroup::BoxSlot;
use super::worker_net::NetnsSlot;
use super::worker_ns::NamespacesSlot;
use super::worker_root::RootSlot;
use super::worker_uid::UidClaim;

/// What a box holds. Each part is `None` until first needed; an inner
/// `None` means this machine (or this thread) cannot have it, and the
/// box's runs do without it, as the isolation line says.
#[derive(Default)]
pub(crate) struct BoxState {
    /// The private root every run of the box enters (`worker_root`).
    pub(crate) root: RootSlot,
    /// The empty network namespace its runs join (`worker_net`).
    pub(crate) netns: NetnsSlot,
    /// Its thread's IPC and UTS namespaces (`worker_ns`).
    pub(crate) ipc: NamespacesSlot,
    /// Its uid (`worker_uid`).
    pub(crate) uid: Option<Option<UidClaim>>,
    /// Its cgroup slot (`cgroup`).
    pub(crate) slot: Option<BoxSlot>,
    /// Whether its thread closed the key ring calls (with the worker's
    /// deny list, `worker_keys`).
    pub(crate) keys_closed: Option<bool>,
    /// Whether its thread installed a run's filter on itself
    /// (`syscall_filter::filter_this_threads_runs`).
    pub(crate) runs_filtered: bool,
    /// Its thread's own PID namespace, to come back to after starting a
    /// run in the box's.
    pub(crate) own_pid_namespace: Option<Option<OwnedFd>>,
}
