//! A worker's prepared root: the private root of its runs (a tmpfs
//! holding the system folders, the minimal `/dev` and the program's
//! folders, all read-only, the working folder's own tmpfs, and the `/proc`
//! of the worker's PID namespace, see `worker_pid`), built once per worker
//! thread in a mount namespace of its own and changed only when the
//! program's folders change. A run enters that namespace and mounts
//! nothing (it takes a copy and mounts its own `/proc` only when the worker
//! has no PID namespace): no copy of the host's mount table to make and
//! tear down, no forty mount operations (see docs/benchmarks.md).
//!
//! The working folder's tmpfs is replaced by a fresh one after any run that
//! changed anything in it (files, their names, extended attributes: all
//! change its root's modification time, set to 0 when it was made), so a
//! run never finds what an earlier one left, not even in the order of the
//! inode numbers it gets; a run that writes nothing leaves it as it was.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode};
use rustix::mount::OpenTreeFlags;

use super::cgroup::CgroupPool;
use super::mounts::{MountPlan, SystemEntry};
use super::replay::{MOUNT_ATTR_NOSUID, MOUNT_ATTR_RDONLY, set_attributes};
use super::worker_mounter::Mounter;
use super::worker_pid::{ChildrenIn, Pid1, WorkerPids};

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
    /// The runs' working folder, when they have one.
    scratch: Option<Scratch>,
    /// The worker's PID namespace, with `/proc` mounted in the root.
    pids: Option<WorkerPids>,
    /// The thread that mounts in the namespace. Dropped last.
    mounter: Mounter,
}

/// A working folder's tmpfs, and what its root looked like when made.
struct Scratch {
    path: PathBuf,
    bytes: u64,
    root: OwnedFd,
    size: i64,
    links: u64,
}

/// A box's prepared root, as the box holds it: `None` until tried,
/// `Some(None)` when this machine does not allow one (or it failed: its
/// mounts are no longer known), and the box's runs build their roots whole.
pub(crate) type RootSlot = Option<Option<WorkerRoot>>;

/// The box's prepared root, made on first use, showing `folders` (host
/// folders at their own path, outermost first, read-only unless marked
/// writable) and a working folder's tmpfs of `scratch.1` bytes at
/// `scratch.0`, and nothing else: the namespace a run enters. `None` when
/// the root cannot be prepared or cannot show these; the run then builds
/// its root whole. `own_pids` is the box thread's own PID namespace.
pub(crate) fn show(
    slot: &mut RootSlot,
    own_pids: RawFd,
    system: &[SystemEntry],
    folders: &[(PathBuf, bool)],
    scratch: Option<(&Path, u64)>,
    cgroups: Option<&CgroupPool>,
) -> Option<RawFd> {
    with_root(slot, |root| {
        root.get_or_insert_with(|| WorkerRoot::prepare(system.to_vec(), cgroups, own_pids).ok())
            .as_mut()?
            .show(folders, scratch)
            .ok()
    })
}

/// After a run in the box's root: a working folder the run changed is
/// replaced by a fresh one (before the next run is prepared, so that what
/// it held is no longer charged to the slot).
pub(crate) fn after_run(slot: &mut RootSlot) {
    with_root(slot, |root| root.as_mut()?.as_mut()?.renew_scratch().ok());
}

/// Runs `f` on the box's root; a root that failed (its mounts no longer
/// known) is dropped, and the box's runs build their roots whole from then
/// on.
fn with_root<T>(slot: &mut RootSlot, f: impl FnOnce(&mut RootSlot) -> Option<T>) -> Option<T> {
    let result = f(slot);
    if result.is_none() && slot.is_some() {
        *slot = Some(None);
    }
    result
}

impl WorkerRoot {
    /// The root of the box's working folder (its tmpfs, as the judge holds
    /// it): where the judge puts a run's files in before it and takes a
    /// build out after. `None` when there is none.
    pub(crate) fn scratch_root(&self) -> Option<OwnedFd> {
        let scratch = self.scratch.as_ref()?;
        rustix::io::fcntl_dupfd_cloexec(&scratch.root, 0).ok()
    }

    /// The box's PID namespace (see `worker_pid`), whose `/proc` its root
    /// shows; `None` when it has none.
    pub(crate) fn pid_namespace(&self) -> Option<RawFd> {
        Some(self.pids.as_ref()?.namespace())
    }

    /// After a run in the box's PID namespace: once its first process is
    /// reaped (`first_reaped`), nothing of it is left there. When the first
    /// would not die, or clearing fails, the namespace is given up (its
    /// first process ends, and the kernel kills what is left; its `/proc`
    /// stays, and runs mount their own over it), and this box's later runs
    /// get one each.
    pub(crate) fn end_run_in_pid_namespace(&mut self, first_reaped: bool) -> io::Result<()> {
        let Some(pids) = self.pids.as_mut() else {
            return Err(io::Error::other("the worker's PID namespace is gone"));
        };
        // A first process still there cannot be the next run's neighbour.
        let cleared = if first_reaped { pids.clear() } else { Ok(()) };
        if !first_reaped || cleared.is_err() {
            self.pids = None;
        }
        cleared
    }

    /// Builds the root on its mounter thread.
    fn prepare(
        system: Vec<SystemEntry>,
        cgroups: Option<&CgroupPool>,
        own_pids: RawFd,
    ) -> io::Result<WorkerRoot> {
        // The worker's PID 1 is no run's: it lives in the judge's cgroups.
        let pid1 = Pid1::new(cgroups.map_or(Vec::new(), CgroupPool::home_fds)).ok();
        let (mounter, built) = Mounter::start(MountPlan::shared_root(system).ops()?, pid1)?;
        Ok(WorkerRoot {
            namespace: built.namespace,
            writable: built.writable,
            made: Vec::new(),
            shown: Vec::new(),
            scratch: None,
            // Older kernels open pidfds but cannot enter namespaces
            // through them (before 5.8): found out here, not at every run.
            pids: built
                .pids
                .filter(|pids| ChildrenIn::enter(pids.namespace(), own_pids).is_ok()),
            mounter,
        })
    }

    /// Shows `folders` and the working folder, unmounting and removing what
    /// earlier runs needed and this one does not; the namespace to enter.
    fn show(
        &mut self,
        folders: &[(PathBuf, bool)],
        scratch: Option<(&Path, u64)>,
    ) -> io::Result<RawFd> {
        let points: Vec<&Path> = folders
            .iter()
            .map(|(p, _)| p.as_path())
            .chain(scratch.map(|(p, _)| p))
            .collect();
        let same_scratch = match (&self.scratch, scratch) {
            (Some(s), Some((path, bytes))) => s.path == path && s.bytes == bytes,
            (None, None) => true,
            _ => false,
        };
        if self.shown != folders || !same_scratch {
            self.make_mount_points(&points, false)?;
            self.remount(folders)?;
            if let Some((path, bytes)) = scratch {
                self.scratch = Some(Scratch::make(&self.mounter, path, bytes)?);
            }
        }
        self.make_mount_points(&points, true)?;
        Ok(self.namespace.as_raw_fd())
    }

    /// Replaces what is mounted (the working folder first: it may lie in
    /// a folder) by `folders`. The copies are taken here, in the host's
    /// view, and made read-only before they are shown.
    fn remount(&mut self, folders: &[(PathBuf, bool)]) -> io::Result<()> {
        let mut attach = Vec::new();
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
            attach.push((path.clone(), copy));
        }
        let unmount: Vec<PathBuf> = self
            .scratch
            .take()
            .map(|s| s.path)
            .into_iter()
            .chain(
                std::mem::take(&mut self.shown)
                    .into_iter()
                    .rev()
                    .map(|(p, _)| p),
            )
            .collect();
        self.mounter.remount(unmount, attach)?;
        self.shown = folders.to_vec();
        Ok(())
    }

    /// A fresh working folder if the last run changed anything in it.
    fn renew_scratch(&mut self) -> io::Result<()> {
        let Some(scratch) = &self.scratch else {
            return Ok(());
        };
        if scratch.untouched()? {
            return Ok(());
        }
        let (path, bytes) = (scratch.path.clone(), scratch.bytes);
        self.scratch = None;
        self.mounter.remount(vec![path.clone()], Vec::new())?;
        self.scratch = Some(Scratch::make(&self.mounter, &path, bytes)?);
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

impl Scratch {
    fn make(mounter: &Mounter, path: &Path, bytes: u64) -> io::Result<Scratch> {
        let root = mounter.scratch(path.to_path_buf(), bytes)?;
        let stat = rustix::fs::fstat(&root)?;
        Ok(Scratch {
            path: path.to_path_buf(),
            bytes,
            root,
            size: stat.st_size,
            links: stat.st_nlink as u64,
        })
    }

    /// Whether it is as made: no entry, no extended attribute, never
    /// modified (creating, renaming or removing anything in it, or setting
    /// an attribute, moves its modification time from 0 to now).
    fn untouched(&self) -> io::Result<bool> {
        let stat = rustix::fs::fstat(&self.root)?;
        let attributes = rustix::fs::flistxattr_query(&self.root)?;
        Ok(stat.st_mtime == 0
            && stat.st_mtime_nsec == 0
            && stat.st_size == self.size
            && stat.st_nlink as u64 == self.links
            && attributes == 0)
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
