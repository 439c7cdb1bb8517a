//! A worker's prepared root: the private root of its runs but for `/proc`
//! and the working folder (a tmpfs holding the system folders, the minimal
//! `/dev` and the program's folders, all read-only), built once per worker
//! thread in a mount namespace of its own and changed only when the
//! program's folders change. A run enters a copy of that namespace and
//! mounts only its `/proc` and its working folder: three mount operations
//! instead of some forty, and no copy of the host's mount table to make and
//! tear down (see docs/benchmarks.md).

use std::cell::RefCell;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::mount::OpenTreeFlags;

use super::mounts::{MountPlan, SystemEntry};
use super::replay::{MOUNT_ATTR_NOSUID, MOUNT_ATTR_RDONLY, MountAttr, replay};

pub(crate) struct WorkerRoot {
    /// The mount namespace whose root is the shared root.
    namespace: OwnedFd,
    /// A second, writable mount of the shared root's tmpfs, held only by
    /// the judge: the runs' mount points are made through it, while every
    /// run sees the root read-only.
    writable: OwnedFd,
    /// The mount points made for the current runs, relative to the root,
    /// each after its parent.
    made: Vec<PathBuf>,
    /// The host folders shown at their own path (writable or not), in the
    /// order they were mounted.
    shown: Vec<(PathBuf, bool)>,
}

thread_local! {
    /// This worker thread's prepared root, made on first use (`None` inside
    /// when this machine does not allow one).
    static WORKER_ROOT: RefCell<Option<Option<WorkerRoot>>> = const { RefCell::new(None) };
}

/// The calling worker thread's prepared root, showing `folders` (host
/// folders at their own path, outermost first, read-only unless marked
/// writable) and with a mount point at `scratch`, and nothing else: the
/// namespace a run enters. `None` when the root cannot be prepared or
/// cannot show these; the run then builds its root whole.
pub(crate) fn worker_root(
    system: &[SystemEntry],
    folders: &[(PathBuf, bool)],
    scratch: Option<&Path>,
) -> Option<RawFd> {
    WORKER_ROOT.with(|cell| {
        let mut cell = cell.borrow_mut();
        let root = cell
            .get_or_insert_with(|| WorkerRoot::prepare(system.to_vec()).ok())
            .as_mut()?;
        if root.show(folders, scratch).is_err() {
            // Its mounts are no longer known: this thread's runs build
            // their roots whole from now on.
            *cell = Some(None);
            return None;
        }
        Some(root.namespace.as_raw_fd())
    })
}

impl WorkerRoot {
    /// Builds the shared root on a short-lived thread, since a mount
    /// namespace of its own changes only the thread that makes it.
    fn prepare(system: Vec<SystemEntry>) -> io::Result<WorkerRoot> {
        let ops = MountPlan::shared_root(system).ops()?;
        let built = std::thread::spawn(move || -> io::Result<(OwnedFd, OwnedFd)> {
            // SAFETY: changes this thread's mounts, root and working folder
            // only (it shares them with no one after this), and it ends
            // right after.
            if unsafe { libc::unshare(libc::CLONE_NEWNS) } != 0 {
                return Err(io::Error::last_os_error());
            }
            let namespace = rustix::fs::open(
                "/proc/thread-self/ns/mnt",
                OFlags::RDONLY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            // SAFETY: this thread has a mount namespace of its own, and
            // ends right after.
            if let Err(step) = unsafe { replay(&ops) } {
                let why = io::Error::last_os_error();
                return Err(io::Error::new(
                    why.kind(),
                    format!("prepare a worker's root (step {step}): {why}"),
                ));
            }
            // This thread's root is now the shared root.
            let writable = rustix::mount::open_tree(
                rustix::fs::CWD,
                "/",
                OpenTreeFlags::OPEN_TREE_CLONE | OpenTreeFlags::OPEN_TREE_CLOEXEC,
            )?;
            set_attributes(&writable, 0, MOUNT_ATTR_RDONLY)?;
            Ok((namespace, writable))
        })
        .join()
        .map_err(|_| io::Error::other("the thread preparing a worker's root panicked"))??;
        Ok(WorkerRoot {
            namespace: built.0,
            writable: built.1,
            made: Vec::new(),
            shown: Vec::new(),
        })
    }

    /// Shows `folders` and makes a mount point at `scratch`, unmounting and
    /// removing what earlier runs needed and this one does not.
    fn show(&mut self, folders: &[(PathBuf, bool)], scratch: Option<&Path>) -> io::Result<()> {
        let points: Vec<&Path> = folders
            .iter()
            .map(|(p, _)| p.as_path())
            .chain(scratch)
            .collect();
        if self.shown != folders {
            self.make_mount_points(&points, false)?;
            self.remount(folders)?;
        }
        self.make_mount_points(&points, true)
    }

    /// Replaces the host folders shown by `folders`, on a short-lived
    /// thread that enters the worker's namespace (only a task inside a mount
    /// namespace can mount there). The copies are taken here, in the host's
    /// view, and made read-only before they are shown.
    fn remount(&mut self, folders: &[(PathBuf, bool)]) -> io::Result<()> {
        let mut copies = Vec::new();
        for (path, writable) in folders {
            let copy = rustix::mount::open_tree(
                rustix::fs::CWD,
                path,
                OpenTreeFlags::OPEN_TREE_CLONE
                    | OpenTreeFlags::AT_RECURSIVE
                    | OpenTreeFlags::OPEN_TREE_CLOEXEC,
            )?;
            if !writable {
                set_attributes(&copy, READ_ONLY, 0)?;
            }
            copies.push(copy);
        }
        let (namespace, old) = (&self.namespace, &self.shown);
        let done = std::thread::scope(|scope| {
            scope
                .spawn(|| -> io::Result<()> {
                    // SAFETY: this thread's own working folder, root and
                    // mount namespace change; it ends right after.
                    unsafe {
                        if libc::unshare(libc::CLONE_FS) != 0
                            || libc::setns(namespace.as_raw_fd(), libc::CLONE_NEWNS) != 0
                        {
                            return Err(io::Error::last_os_error());
                        }
                    }
                    for (path, _) in old.iter().rev() {
                        rustix::mount::unmount(path, rustix::mount::UnmountFlags::DETACH)?;
                    }
                    for ((path, _), copy) in folders.iter().zip(&copies) {
                        rustix::mount::move_mount(
                            copy,
                            "",
                            rustix::fs::CWD,
                            path,
                            rustix::mount::MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
                        )?;
                    }
                    Ok(())
                })
                .join()
        });
        self.shown.clear();
        done.map_err(|_| io::Error::other("the thread showing a program's folders panicked"))??;
        self.shown = folders.to_vec();
        Ok(())
    }

    /// Makes a mount point for each of `paths`; with `tidy`, also removes
    /// those of earlier runs (innermost first), so a run sees no other
    /// run's paths.
    fn make_mount_points(&mut self, paths: &[&Path], tidy: bool) -> io::Result<()> {
        let mut wanted: Vec<PathBuf> = Vec::new();
        for path in paths {
            for dir in relative_chain(path)? {
                if !wanted.contains(&dir) {
                    wanted.push(dir);
                }
            }
        }
        if tidy {
            for dir in self.made.iter().rev().filter(|d| !wanted.contains(d)) {
                let _ = rustix::fs::unlinkat(&self.writable, dir, AtFlags::REMOVEDIR);
            }
            self.made.retain(|d| wanted.contains(d));
        }
        for dir in wanted {
            if self.made.contains(&dir) {
                continue;
            }
            match rustix::fs::mkdirat(&self.writable, &dir, Mode::from_raw_mode(0o755)) {
                Ok(()) => self.made.push(dir),
                // Part of the shared root (`/dev`): fine if a real folder.
                Err(rustix::io::Errno::EXIST) => {
                    let stat = rustix::fs::statat(&self.writable, &dir, AtFlags::SYMLINK_NOFOLLOW)?;
                    if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
                        return Err(io::Error::other(format!(
                            "{} is not a folder in the private root",
                            dir.display()
                        )));
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

/// `path` (absolute) and its ancestors below `/`, relative, outermost first.
fn relative_chain(path: &Path) -> io::Result<Vec<PathBuf>> {
    let mut dir = PathBuf::new();
    let mut chain = Vec::new();
    for component in path.components() {
        match component {
            Component::RootDir => {}
            Component::Normal(name) => {
                dir.push(name);
                chain.push(dir.clone());
            }
            _ => {
                return Err(io::Error::other(format!(
                    "{} is not a plain absolute path",
                    path.display()
                )));
            }
        }
    }
    Ok(chain)
}

const READ_ONLY: u64 = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID;

/// Sets and clears attributes of the mount `fd` and every mount below it.
fn set_attributes(fd: &impl AsFd, set: u64, clear: u64) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_points_are_every_folder_below_the_root() {
        assert_eq!(
            relative_chain(Path::new("/tmp/j/w")).unwrap(),
            [
                PathBuf::from("tmp"),
                PathBuf::from("tmp/j"),
                PathBuf::from("tmp/j/w")
            ]
        );
        assert!(relative_chain(Path::new("/tmp/../etc")).is_err());
    }
}
