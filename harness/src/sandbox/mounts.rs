//! The private file-system views, compiled in the parent into a list of
//! mount operations that the child replays between clone and exec (no
//! allocation there: every path is a prepared C string).
//!
//! Submissions and compilers both get a fresh tmpfs root holding only the
//! system folders (`/usr`, `/etc`, the `/bin` and `/lib` links), a minimal
//! `/dev`, the program's folder (or a compiler's toolchain) and the working
//! folder. Nothing else of the host exists: not the judge, not the packages,
//! not a second copy of them elsewhere, not `$HOME`.
//!
//! It is built once per worker when it can be, with the `/proc` of the
//! worker's PID namespace, and changed only when the program's folders
//! change or a run changed its working folder (`worker_root.rs`); a run
//! then enters it and mounts nothing (or, with a PID namespace of its own,
//! just its `/proc` in a copy of it).

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Where the new root is assembled before `pivot_root`: any existing folder
/// works, as the tmpfs mounted on it is private to the run.
const NEW_ROOT: &str = "/tmp";

/// The host folders a program may need to run: binaries, libraries, the
/// dynamic loader and configuration. `/dev` is not one of them: see `DEVICES`.
const SYSTEM: [&str; 8] = [
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc",
];

/// The only devices a run sees. No terminal (`/dev/tty`, `/dev/pts`), no
/// disk, no `/dev/shm` shared with other runs.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// Links every runtime expects in `/dev`, into the run's own `/proc`.
const DEVICE_LINKS: [(&str, &str); 4] = [
    ("fd", "/proc/self/fd"),
    ("stdin", "/proc/self/fd/0"),
    ("stdout", "/proc/self/fd/1"),
    ("stderr", "/proc/self/fd/2"),
];

#[derive(Debug, Clone)]
pub(crate) enum SystemEntry {
    Dir(PathBuf),
    /// (link, target), e.g. (`/bin`, `usr/bin`) on merged-/usr systems.
    Symlink(PathBuf, PathBuf),
}

/// What the system folders are on this host: read once.
pub(crate) fn system_entries() -> Vec<SystemEntry> {
    SYSTEM
        .iter()
        .map(|name| Path::new("/").join(name))
        .filter_map(|path| {
            let meta = std::fs::symlink_metadata(&path).ok()?;
            if meta.file_type().is_symlink() {
                Some(SystemEntry::Symlink(
                    path.clone(),
                    std::fs::read_link(&path).ok()?,
                ))
            } else {
                meta.is_dir().then_some(SystemEntry::Dir(path))
            }
        })
        .collect()
}

/// A private root for one run.
#[derive(Debug, Clone)]
pub(crate) struct MountPlan {
    pub(crate) system: Vec<SystemEntry>,
    /// Folders to show at their own path: (path, writable).
    pub(crate) keep: Vec<(PathBuf, bool)>,
    /// A fresh tmpfs of this many bytes as the working folder.
    pub(crate) scratch: Option<(PathBuf, u64)>,
    pub(crate) mount_proc: bool,
    /// The program keeps capabilities (root inside a user namespace), so
    /// the old root must be detached with `pivot_root`; without
    /// capabilities, moving the new root over `/` and `chroot`ing into it
    /// is as tight and skips the costly unmount of the old tree.
    pub(crate) pivot: bool,
    /// A worker's prepared root (a mount namespace holding the system
    /// folders, `/dev`, the folders of `keep` and the tmpfs of `scratch`):
    /// the run enters it, and mounts only `/proc`, in a copy, if
    /// `mount_proc`.
    pub(crate) prepared: Option<RawFd>,
    /// Make `/dev`'s devices as nodes in the root tmpfs (which then allows
    /// devices) rather than bind each of the host's: fewer mounts to copy
    /// with every run, but it needs root's `CAP_MKNOD` (the worker's root).
    pub(crate) device_nodes: bool,
}

/// One step the child replays. `slot` indexes detached mount copies.
#[derive(Debug)]
pub(crate) enum MountOp {
    Private,
    Clone {
        source: CString,
        slot: usize,
    },
    Tmpfs {
        target: CString,
        options: CString,
        /// Device nodes on it work (the root holding `/dev`'s own nodes).
        devices: bool,
    },
    Mkdir(CString),
    /// An empty file, to bind a device onto.
    Touch(CString),
    /// A character device node with these permission bits and number.
    Device {
        path: CString,
        permissions: u32,
        number: u64,
    },
    Symlink {
        target: CString,
        link: CString,
    },
    Attach {
        slot: usize,
        target: CString,
    },
    Proc(CString),
    ReadOnly(CString),
    Pivot(CString),
    MoveRoot(CString),
    /// Enter this prepared root's mount namespace, then, if the run
    /// mounts anything of its own, a copy of it. A run that mounts nothing
    /// stays in the worker's namespace itself: it has no capability to
    /// change it, and the worker changes it only between runs.
    EnterPrepared {
        namespace: RawFd,
        own_copy: bool,
    },
}

/// How many detached copies one plan may hold.
pub(crate) const SLOTS: usize = 32;

fn c(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))
}

fn under(base: &Path, path: &Path) -> PathBuf {
    base.join(path.strip_prefix("/").unwrap_or(path))
}

/// `path` and its ancestors strictly below `stop`, outermost first.
fn chain(path: &Path, stop: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = path
        .ancestors()
        .take_while(|a| *a != stop && a.parent().is_some())
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

impl MountPlan {
    /// The root every run of a worker shares: the system folders and
    /// `/dev`, read-only, entered with `pivot_root` (on the thread that
    /// prepares it, which has a mount namespace of its own).
    pub(crate) fn shared_root(system: Vec<SystemEntry>) -> MountPlan {
        MountPlan {
            system,
            keep: Vec::new(),
            scratch: None,
            mount_proc: false,
            pivot: true,
            prepared: None,
            device_nodes: true,
        }
    }

    /// The folders of `keep` shown as they are (not replaced by the
    /// scratch tmpfs), outermost first, so that a folder inside another is
    /// mounted over it.
    pub(crate) fn own_folders(&self) -> Vec<&(PathBuf, bool)> {
        let mut folders: Vec<&(PathBuf, bool)> = self
            .keep
            .iter()
            .filter(|(p, _)| self.scratch.as_ref().is_none_or(|(s, _)| s != p))
            .collect();
        folders.sort_by_key(|(p, _)| p.components().count());
        folders
    }

    pub(crate) fn ops(&self) -> io::Result<Vec<MountOp>> {
        match self.prepared {
            Some(namespace) => self.ops_in_prepared(namespace),
            None => self.ops_from_scratch(),
        }
    }

    /// A run in a worker's prepared root, which already shows the run's own
    /// folders, its working folder and, with the worker's PID namespace,
    /// its `/proc`: at most `/proc` is the run's own.
    fn ops_in_prepared(&self, namespace: RawFd) -> io::Result<Vec<MountOp>> {
        let mut ops = vec![MountOp::EnterPrepared {
            namespace,
            own_copy: self.mount_proc,
        }];
        if self.mount_proc {
            ops.push(MountOp::Proc(c(Path::new("/proc"))?));
        }
        Ok(ops)
    }

    /// A root built whole for one run: what it shows of the host cloned
    /// first, then a tmpfs holding its skeleton, then the clones attached
    /// to it, then entered.
    fn ops_from_scratch(&self) -> io::Result<Vec<MountOp>> {
        let shown = self.shown();
        let mut root = RootOps {
            ops: vec![MountOp::Private],
            made: Vec::new(),
        };
        // Detached copies, made before the tmpfs covers where they live.
        let sources = shown.sources();
        if sources.len() > SLOTS {
            return Err(io::Error::other("too many folders to keep visible"));
        }
        for (slot, path) in sources.iter().enumerate() {
            root.ops.push(MountOp::Clone {
                source: c(path)?,
                slot,
            });
        }
        self.skeleton(&mut root, &shown)?;
        self.attach(&mut root, &shown)?;
        Ok(root.ops)
    }

    /// What the root shows of the host.
    fn shown(&self) -> Shown<'_> {
        Shown {
            dirs: self
                .system
                .iter()
                .filter_map(|e| match e {
                    SystemEntry::Dir(path) => Some(path),
                    SystemEntry::Symlink(..) => None,
                })
                .collect(),
            devices: DEVICES
                .iter()
                .map(|name| Path::new("/dev").join(name))
                .filter_map(|path| Some((path.clone(), std::fs::metadata(&path).ok()?)))
                .collect(),
            device_nodes: self.device_nodes,
            kept: self.own_folders(),
        }
    }

    /// The root's tmpfs and what it holds before anything is attached:
    /// `/proc` and `/dev`, the system folders and links, the devices (or
    /// files to bind them on), and the folders to attach to.
    fn skeleton(&self, root: &mut RootOps, shown: &Shown<'_>) -> io::Result<()> {
        let base = Path::new(NEW_ROOT);
        root.ops.push(MountOp::Tmpfs {
            target: c(base)?,
            options: CString::from(c"mode=0755,size=1m"),
            devices: self.device_nodes,
        });
        root.mkdir(under(base, Path::new("/proc")))?;
        root.mkdir(under(base, Path::new("/dev")))?;
        for entry in &self.system {
            match entry {
                SystemEntry::Dir(path) => root.mkdir(under(base, path))?,
                SystemEntry::Symlink(link, target) => root.ops.push(MountOp::Symlink {
                    target: c(target)?,
                    link: c(&under(base, link))?,
                }),
            }
        }
        for (device, meta) in &shown.devices {
            let path = c(&under(base, device))?;
            root.ops.push(if self.device_nodes {
                use std::os::unix::fs::{MetadataExt, PermissionsExt};
                MountOp::Device {
                    path,
                    permissions: meta.permissions().mode() & 0o777,
                    number: meta.rdev(),
                }
            } else {
                MountOp::Touch(path)
            });
        }
        for (name, target) in DEVICE_LINKS {
            root.ops.push(MountOp::Symlink {
                target: c(Path::new(target))?,
                link: c(&under(base, &Path::new("/dev").join(name)))?,
            });
        }
        for path in shown
            .kept
            .iter()
            .map(|(p, _)| p)
            .chain(self.scratch.iter().map(|(p, _)| p))
        {
            for dir in chain(path, Path::new("/")) {
                root.mkdir(under(base, &dir))?;
            }
        }
        Ok(())
    }

    /// The clones attached in the order they were cloned: the system
    /// folders and bound devices read-only, `/proc`, the run's own folders
    /// (read-only unless writable), the working tmpfs; then the root
    /// entered.
    fn attach(&self, root: &mut RootOps, shown: &Shown<'_>) -> io::Result<()> {
        let base = Path::new(NEW_ROOT);
        let bound = shown.bound();
        for (slot, path) in shown
            .dirs
            .iter()
            .map(|p| p.as_path())
            .chain(bound.iter().copied())
            .enumerate()
        {
            root.ops.push(MountOp::Attach {
                slot,
                target: c(&under(base, path))?,
            });
        }
        root.ops.push(MountOp::ReadOnly(c(base)?));
        // After the read-only pass: a run writes its own uid_map here.
        if self.mount_proc {
            root.ops
                .push(MountOp::Proc(c(&under(base, Path::new("/proc")))?));
        }
        let first_kept = shown.dirs.len() + bound.len();
        for (i, (path, writable)) in shown.kept.iter().enumerate() {
            let target = c(&under(base, path))?;
            root.ops.push(MountOp::Attach {
                slot: first_kept + i,
                target,
            });
            if !writable {
                root.ops.push(MountOp::ReadOnly(c(&under(base, path))?));
            }
        }
        if let Some((path, bytes)) = &self.scratch {
            root.ops
                .push(scratch_tmpfs(c(&under(base, path))?, *bytes)?);
        }
        root.ops.push(if self.pivot {
            MountOp::Pivot(c(base)?)
        } else {
            MountOp::MoveRoot(c(base)?)
        });
        Ok(())
    }
}

/// What a root built whole shows of the host, cloned into slots in this
/// order: the system folders, the devices bound in (where device nodes
/// cannot be made), the run's own folders.
struct Shown<'p> {
    dirs: Vec<&'p PathBuf>,
    devices: Vec<(PathBuf, std::fs::Metadata)>,
    device_nodes: bool,
    kept: Vec<&'p (PathBuf, bool)>,
}

impl Shown<'_> {
    /// The devices bound from the host (none where nodes are made).
    fn bound(&self) -> Vec<&Path> {
        if self.device_nodes {
            Vec::new()
        } else {
            self.devices.iter().map(|(p, _)| p.as_path()).collect()
        }
    }

    fn sources(&self) -> Vec<&Path> {
        self.dirs
            .iter()
            .map(|p| p.as_path())
            .chain(self.bound())
            .chain(self.kept.iter().map(|(p, _)| p.as_path()))
            .collect()
    }
}

/// The operations of a root built whole, as they are written, and the
/// folders they make (each made once).
struct RootOps {
    ops: Vec<MountOp>,
    made: Vec<PathBuf>,
}

impl RootOps {
    fn mkdir(&mut self, dir: PathBuf) -> io::Result<()> {
        if !self.made.contains(&dir) {
            self.ops.push(MountOp::Mkdir(c(&dir)?));
            self.made.push(dir);
        }
        Ok(())
    }
}

/// The working folder: a fresh tmpfs of `bytes`, writable by the run.
fn scratch_tmpfs(target: CString, bytes: u64) -> io::Result<MountOp> {
    let options = CString::new(format!("mode=0777,size={bytes}")).map_err(io::Error::other)?;
    Ok(MountOp::Tmpfs {
        target,
        options,
        devices: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_root_keeps_only_system_program_and_work_folders() {
        let plan = MountPlan {
            system: vec![
                SystemEntry::Dir("/usr".into()),
                SystemEntry::Symlink("/bin".into(), "usr/bin".into()),
            ],
            keep: vec![("/tmp/j/w".into(), true), ("/srv/cache/b".into(), false)],
            scratch: Some(("/tmp/j/w".into(), 1024)),
            mount_proc: true,
            pivot: true,
            prepared: None,
            device_nodes: false,
        };
        let text = format!("{:?}", plan.ops().unwrap());
        for want in [
            "Tmpfs { target: \"/tmp\", options: \"mode=0755,size=1m\", devices: false }",
            "Touch(\"/tmp/dev/null\")",
            "Symlink { target: \"/proc/self/fd\", link: \"/tmp/dev/fd\" }",
            "Attach { slot: 0, target: \"/tmp/usr\" }",
            "Symlink { target: \"usr/bin\", link: \"/tmp/bin\" }",
            "Mkdir(\"/tmp/srv/cache/b\")",
            "Attach { slot: 6, target: \"/tmp/srv/cache/b\" }",
            "ReadOnly(\"/tmp/srv/cache/b\")",
            "Tmpfs { target: \"/tmp/tmp/j/w\", options: \"mode=0777,size=1024\", devices: false }",
            "Pivot(\"/tmp\")",
        ] {
            assert!(text.contains(want), "{want} missing from {text}");
        }
        assert!(
            !text.contains("Clone { source: \"/tmp/j/w\""),
            "the scratch tmpfs replaces the host folder"
        );
    }

    #[test]
    fn a_workers_root_makes_its_devices_and_a_run_in_it_mounts_two_things() {
        let shared = MountPlan::shared_root(vec![SystemEntry::Dir("/usr".into())]);
        let text = format!("{:?}", shared.ops().unwrap());
        assert!(
            text.contains("options: \"mode=0755,size=1m\", devices: true"),
            "{text}"
        );
        assert!(
            !text.contains("source: \"/dev/"),
            "a device is bound: {text}"
        );
        if Path::new("/dev/null").exists() {
            assert!(text.contains("Device { path: \"/tmp/dev/null\""), "{text}");
        }
        assert!(text.ends_with("Pivot(\"/tmp\")]"), "{text}");

        let run = MountPlan {
            keep: vec![("/tmp/j/w".into(), true), ("/srv/b".into(), false)],
            scratch: Some(("/tmp/j/w".into(), 1024)),
            mount_proc: true,
            pivot: false,
            prepared: Some(7),
            device_nodes: false,
            ..shared
        };
        assert_eq!(
            format!("{:?}", run.ops().unwrap()),
            "[EnterPrepared { namespace: 7, own_copy: true }, Proc(\"/proc\")]"
        );
        let in_worker_pids = MountPlan {
            mount_proc: false,
            ..run
        };
        assert_eq!(
            format!("{:?}", in_worker_pids.ops().unwrap()),
            "[EnterPrepared { namespace: 7, own_copy: false }]"
        );
    }
}
