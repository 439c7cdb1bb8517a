//! A worker thread's own IPC and UTS namespaces: made once, inherited by
//! every run the thread starts, and emptied of IPC objects before each run.
//! Creating an IPC namespace per run costs more than any other namespace
//! (a message-queue file system and sysctl tables each time, then freed
//! by a kernel worker), while a worker's runs never overlap: what one run
//! leaves (System V message queues, semaphore sets, shared memory, POSIX
//! message queues) is removed before the next starts. A run cannot change
//! the host name: the UTS namespace belongs to the judge's user namespace,
//! in which the run has no capabilities.

use std::io;
use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::{AtFlags, Dir, OFlags};
use rustix::mount::{FsMountFlags, FsOpenFlags, MountAttrFlags};

/// `shmctl(2)` commands the libc crate lacks (linux/shm.h).
const SHM_STAT: libc::c_int = 13;
const SHM_INFO: libc::c_int = 14;

/// The box thread's own namespaces, once made.
pub(crate) struct WorkerNamespaces {
    /// The IPC namespace's POSIX message-queue file system, to find and
    /// remove the queues runs leave.
    message_queues: OwnedFd,
    /// The size of its folder when empty (it grows with each queue).
    empty_size: i64,
}

/// A box's IPC and UTS namespaces, as the box holds them: `None` until
/// tried, `Some(None)` when its thread cannot have them.
pub(crate) type NamespacesSlot = Option<Option<WorkerNamespaces>>;

/// Puts the box's thread in IPC and UTS namespaces of its own (once), and
/// removes every IPC object left in them: the runs it starts next are born
/// there and find nothing. `false` when this thread cannot have them or
/// they could not be emptied: then each run needs namespaces of its own.
pub(crate) fn ready_for_a_run(slot: &mut NamespacesSlot) -> bool {
    let Some(namespaces) = slot.get_or_insert_with(|| WorkerNamespaces::enter().ok()) else {
        return false;
    };
    if namespaces.remove_leftovers().is_ok() {
        return true;
    }
    // Objects that would not go: this box's runs never use these
    // namespaces again.
    *slot = Some(None);
    false
}

impl WorkerNamespaces {
    fn enter() -> io::Result<WorkerNamespaces> {
        // SAFETY: changes only the calling thread's namespaces; the judge
        // itself uses neither IPC objects nor the host name.
        if unsafe { libc::unshare(libc::CLONE_NEWIPC | libc::CLONE_NEWUTS) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // Mounted nowhere: a handle on this IPC namespace's queues.
        let context = rustix::mount::fsopen("mqueue", FsOpenFlags::FSOPEN_CLOEXEC)?;
        rustix::mount::fsconfig_create(&context)?;
        let message_queues = rustix::mount::fsmount(
            &context,
            FsMountFlags::FSMOUNT_CLOEXEC,
            MountAttrFlags::empty(),
        )?;
        let empty_size = rustix::fs::fstat(&message_queues)?.st_size;
        Ok(WorkerNamespaces {
            message_queues,
            empty_size,
        })
    }

    fn remove_leftovers(&self) -> io::Result<()> {
        if system_v_in_use() > 0 {
            remove_system_v();
            if system_v_in_use() > 0 {
                return Err(io::Error::other("System V IPC objects would not go"));
            }
        }
        self.remove_message_queues()
    }

    /// The queue folder's size grows with each queue in it: one `fstat`
    /// says whether there is anything to remove.
    fn remove_message_queues(&self) -> io::Result<()> {
        if rustix::fs::fstat(&self.message_queues)?.st_size == self.empty_size {
            return Ok(());
        }
        let folder = rustix::fs::openat(
            &self.message_queues,
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )?;
        for entry in Dir::read_from(folder.as_fd())? {
            let entry = entry?;
            let name = entry.file_name();
            if name != c"." && name != c".." {
                rustix::fs::unlinkat(&self.message_queues, name, AtFlags::empty())?;
            }
        }
        if rustix::fs::fstat(&self.message_queues)?.st_size != self.empty_size {
            return Err(io::Error::other("message queues would not go"));
        }
        Ok(())
    }
}

/// How many System V message queues, semaphore sets and shared memory
/// segments this thread's IPC namespace holds.
fn system_v_in_use() -> i64 {
    let (shm, msg, sem) = system_v_counts();
    i64::from(shm.1) + i64::from(msg.1) + i64::from(sem.1)
}

/// (highest index in use, objects in use) for shared memory, message
/// queues and semaphore sets.
fn system_v_counts() -> ((i32, i32), (i32, i32), (i32, i32)) {
    // SAFETY: the *_INFO commands write a `struct shm_info`, `struct
    // msginfo` or `struct seminfo` into the buffer, each smaller than the
    // zeroed `*id_ds` given; the counts are read from their first fields
    // (shm_info.used_ids, msginfo.msgpool) and the eighth (seminfo.semusz).
    unsafe {
        let mut shm: libc::shmid_ds = std::mem::zeroed();
        let shm_max = libc::shmctl(0, SHM_INFO, &mut shm);
        let shm_used = *(&shm as *const libc::shmid_ds).cast::<libc::c_int>();
        let mut msg: libc::msqid_ds = std::mem::zeroed();
        let msg_max = libc::msgctl(0, libc::MSG_INFO, &mut msg);
        let msg_used = *(&msg as *const libc::msqid_ds).cast::<libc::c_int>();
        let mut sem = [0 as libc::c_int; 16];
        let sem_max = libc::semctl(0, 0, libc::SEM_INFO, sem.as_mut_ptr());
        ((shm_max, shm_used), (msg_max, msg_used), (sem_max, sem[7]))
    }
}

/// Removes every System V object: each index up to the highest in use is
/// looked up (`*_STAT` gives its id) and removed.
fn remove_system_v() {
    let (shm, msg, sem) = system_v_counts();
    // SAFETY: *_STAT fills the zeroed `*id_ds` buffer given; IPC_RMID takes
    // no buffer. A stale index fails harmlessly.
    unsafe {
        if shm.1 > 0 {
            let mut buffer: libc::shmid_ds = std::mem::zeroed();
            for index in 0..=shm.0 {
                let id = libc::shmctl(index, SHM_STAT, &mut buffer);
                if id >= 0 {
                    libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
                }
            }
        }
        if msg.1 > 0 {
            let mut buffer: libc::msqid_ds = std::mem::zeroed();
            for index in 0..=msg.0 {
                let id = libc::msgctl(index, libc::MSG_STAT, &mut buffer);
                if id >= 0 {
                    libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut());
                }
            }
        }
        if sem.1 > 0 {
            let mut buffer: libc::semid_ds = std::mem::zeroed();
            for index in 0..=sem.0 {
                let id = libc::semctl(index, 0, libc::SEM_STAT, &mut buffer as *mut libc::semid_ds);
                if id >= 0 {
                    libc::semctl(id, 0, libc::IPC_RMID);
                }
            }
        }
    }
}
