//! Replaying the mount operations of a `MountPlan` with raw system calls.
//! Runs in a child between clone and exec (see `spawn.rs`), and once per
//! worker on a short-lived thread that prepares its root (`worker_root.rs`):
//! so no allocation, no locks, no panics, only prepared C strings.

use std::ffi::CStr;
use std::io;
use std::os::fd::{AsFd, AsRawFd, RawFd};

use super::child_step::{ChildStep, checked};
use super::mounts::{MountOp, SLOTS};

// Mount API constants (linux/mount.h), not all in the libc crate.
const OPEN_TREE_CLONE: libc::c_uint = 1;
const AT_RECURSIVE: libc::c_uint = 0x8000;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
pub(crate) const MOUNT_ATTR_RDONLY: u64 = 0x1;
pub(crate) const MOUNT_ATTR_NOSUID: u64 = 0x2;

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
pub(crate) struct MountAttr {
    pub(crate) attr_set: u64,
    pub(crate) attr_clr: u64,
    pub(crate) propagation: u64,
    pub(crate) userns_fd: u64,
}

/// Replays `ops`. On failure, returns the failed step with `errno` set.
///
/// # Safety
/// Changes the calling thread's mounts, root and working folder: call it
/// only in a child about to exec, or on a thread made for it that has its
/// own mount namespace.
pub(crate) unsafe fn replay(ops: &[MountOp]) -> Result<(), ChildStep> {
    let mut slots = [-1 as RawFd; SLOTS];
    // SAFETY: as this function's.
    let result = unsafe { replay_into(ops, &mut slots) };
    let errno = io::Error::last_os_error().raw_os_error().unwrap_or(0);
    for fd in slots.into_iter().filter(|fd| *fd >= 0) {
        // SAFETY: a descriptor opened by `replay_into` and not closed yet.
        unsafe { libc::close(fd) };
    }
    // SAFETY: restores the errno of the failed step for the caller.
    unsafe { *libc::__errno_location() = errno };
    result
}

unsafe fn replay_into(ops: &[MountOp], slots: &mut [RawFd; SLOTS]) -> Result<(), ChildStep> {
    for op in ops {
        // SAFETY: as `replay`'s.
        unsafe { replay_one(op, slots)? };
    }
    Ok(())
}

/// One operation: a mount, a namespace, a file of the view or the root. Plain syscalls on NUL-terminated strings prepared in `op`,
/// descriptors in `slots`, and stack values; nothing allocates.
unsafe fn replay_one(op: &MountOp, slots: &mut [RawFd; SLOTS]) -> Result<(), ChildStep> {
    let null = std::ptr::null::<libc::c_char>();
    // SAFETY: as this function's comment says.
    unsafe {
        match op {
            MountOp::Private => checked(
                libc::mount(
                    null,
                    c"/".as_ptr(),
                    null,
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ) == 0,
                ChildStep::PrivateMounts,
            ),
            MountOp::Clone { source, slot } => {
                let flags = OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint;
                let fd = libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, source.as_ptr(), flags);
                checked(fd >= 0, ChildStep::BuildView)?;
                slots[*slot] = fd as RawFd;
                Ok(())
            }
            MountOp::EnterPrepared {
                namespace,
                own_copy,
            } => {
                // The worker's root becomes ours (and our root and
                // working folder its root), then, if this run mounts
                // anything, a copy of it our own, so that this run's
                // mounts stay this run's.
                checked(
                    libc::setns(*namespace, libc::CLONE_NEWNS) == 0,
                    ChildStep::PreparedRoot,
                )?;
                checked(
                    !*own_copy || libc::unshare(libc::CLONE_NEWNS) == 0,
                    ChildStep::PreparedRoot,
                )
            }
            MountOp::Tmpfs {
                target,
                options,
                devices,
            } => tmpfs(target, options, *devices),
            MountOp::Mkdir(dir) => make_dir(dir),
            MountOp::Touch(file) => touch(file),
            MountOp::Device {
                path,
                permissions,
                number,
            } => make_device(path, *permissions, *number),
            MountOp::Symlink { target, link } => checked(
                libc::symlink(target.as_ptr(), link.as_ptr()) == 0,
                ChildStep::BuildView,
            ),
            MountOp::Attach { slot, target } => {
                let rc = libc::syscall(
                    libc::SYS_move_mount,
                    slots[*slot],
                    c"".as_ptr(),
                    libc::AT_FDCWD,
                    target.as_ptr(),
                    MOVE_MOUNT_F_EMPTY_PATH,
                );
                checked(rc == 0, ChildStep::BuildView)
            }
            MountOp::Proc(target) => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
                checked(
                    libc::mount(
                        c"proc".as_ptr(),
                        target.as_ptr(),
                        c"proc".as_ptr(),
                        flags,
                        std::ptr::null(),
                    ) == 0,
                    ChildStep::MountProc,
                )
            }
            MountOp::ReadOnly(target) => read_only(target),
            MountOp::MoveRoot(base) => move_root(base),
            MountOp::Pivot(base) => pivot_root(base),
        }
    }
}

/// A tmpfs on `target`, with device nodes working on it where asked.
unsafe fn tmpfs(target: &CStr, options: &CStr, devices: bool) -> Result<(), ChildStep> {
    let flags = if devices {
        libc::MS_NOSUID
    } else {
        libc::MS_NOSUID | libc::MS_NODEV
    };
    // SAFETY: mount(2) on NUL-terminated strings.
    let rc = unsafe {
        libc::mount(
            c"tmpfs".as_ptr(),
            target.as_ptr(),
            c"tmpfs".as_ptr(),
            flags,
            options.as_ptr().cast(),
        )
    };
    checked(rc == 0, ChildStep::BuildView)
}

/// The folder `dir`, unless it is there.
unsafe fn make_dir(dir: &CStr) -> Result<(), ChildStep> {
    // SAFETY: mkdir(2) on a NUL-terminated path.
    let rc = unsafe { libc::mkdir(dir.as_ptr(), 0o755) };
    checked(
        rc == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EEXIST),
        ChildStep::BuildView,
    )
}

/// An empty `file` (to mount a file on).
unsafe fn touch(file: &CStr) -> Result<(), ChildStep> {
    // SAFETY: open(2) on a NUL-terminated path, and close of what it gave.
    unsafe {
        let fd = libc::open(
            file.as_ptr(),
            libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
            0o644,
        );
        checked(fd >= 0, ChildStep::BuildView)?;
        libc::close(fd);
    }
    Ok(())
}

/// The character device `number` at `path`, with `permissions`.
unsafe fn make_device(path: &CStr, permissions: u32, number: u64) -> Result<(), ChildStep> {
    let mode = permissions as libc::mode_t;
    // SAFETY: mknod(2) and chmod(2) on a NUL-terminated path.
    unsafe {
        checked(
            libc::mknod(path.as_ptr(), libc::S_IFCHR | mode, number) == 0,
            ChildStep::BuildView,
        )?;
        // mknod's mode is cut by the umask.
        checked(libc::chmod(path.as_ptr(), mode) == 0, ChildStep::BuildView)
    }
}

/// `target` and every mount below it read-only and without setuid.
unsafe fn read_only(target: &CStr) -> Result<(), ChildStep> {
    let read_only = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr(2) on a NUL-terminated path with a valid
    // `struct mount_attr` on the stack and its size.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            target.as_ptr(),
            AT_RECURSIVE,
            &read_only as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    checked(rc == 0, ChildStep::ReadOnly)
}

/// `base` moved onto `/` and made the root (where `pivot_root` is refused).
unsafe fn move_root(base: &CStr) -> Result<(), ChildStep> {
    // SAFETY: chdir, mount and chroot on NUL-terminated paths.
    unsafe {
        checked(libc::chdir(base.as_ptr()) == 0, ChildStep::EnterRoot)?;
        checked(
            libc::mount(
                c".".as_ptr(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_MOVE,
                std::ptr::null(),
            ) == 0,
            ChildStep::EnterRoot,
        )?;
        checked(libc::chroot(c".".as_ptr()) == 0, ChildStep::EnterRoot)?;
        checked(libc::chdir(c"/".as_ptr()) == 0, ChildStep::EnterRoot)
    }
}

/// `base` made the root by `pivot_root(".", ".")`: the old root ends up
/// stacked on the new one and is then detached whole.
unsafe fn pivot_root(base: &CStr) -> Result<(), ChildStep> {
    // SAFETY: chdir, pivot_root and umount2 on NUL-terminated paths.
    unsafe {
        checked(libc::chdir(base.as_ptr()) == 0, ChildStep::EnterRoot)?;
        checked(
            libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) == 0,
            ChildStep::EnterRoot,
        )?;
        checked(
            libc::umount2(c".".as_ptr(), libc::MNT_DETACH) == 0,
            ChildStep::EnterRoot,
        )?;
        checked(libc::chdir(c"/".as_ptr()) == 0, ChildStep::EnterRoot)
    }
}

/// Sets and clears attributes of the mount `fd` and every mount below it.
pub(crate) fn set_attributes(fd: &impl AsFd, set: u64, clear: u64) -> io::Result<()> {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr(2) on a descriptor we own, with a valid
    // `struct mount_attr` and its size.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            fd.as_fd().as_raw_fd(),
            c"".as_ptr(),
            (libc::AT_EMPTY_PATH | libc::AT_RECURSIVE) as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
