//! The private file-system views, compiled in the parent into a list of
//! mount operations that the child replays between clone and exec (no
//! allocation there: every path is a prepared C string).
//!
//! - `NewRoot` (submissions): a fresh tmpfs root holding only the system
//!   folders (`/usr`, `/etc`, `/dev`, the `/bin` and `/lib` links), the
//!   program's folder and the working folder; entered with `pivot_root`.
//!   Nothing else of the host exists: not the judge, not the packages, not a
//!   second copy of them elsewhere, not `$HOME`.
//! - `Cover` (compilers): the host's tree read-only, with the judge's root
//!   and `/tmp` covered by empty tmpfs; toolchains in `$HOME` stay usable.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Where the new root is assembled before `pivot_root`: any existing folder
/// works, as the tmpfs mounted on it is private to the run.
const NEW_ROOT: &str = "/tmp";

/// The host folders a program may need to run: binaries, libraries, the
/// dynamic loader, configuration and devices.
const SYSTEM: [&str; 9] = [
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev",
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

#[derive(Debug, Clone)]
pub(crate) enum MountPlan {
    Cover {
        hide: Vec<PathBuf>,
        /// (path, writable)
        keep: Vec<(PathBuf, bool)>,
        mount_proc: bool,
    },
    NewRoot {
        system: Vec<SystemEntry>,
        keep: Vec<(PathBuf, bool)>,
        /// A fresh tmpfs of this many bytes as the working folder.
        scratch: Option<(PathBuf, u64)>,
        mount_proc: bool,
        /// The program keeps capabilities (root inside a user namespace), so
        /// the old root must be detached with `pivot_root`; without
        /// capabilities, moving the new root over `/` and `chroot`ing into it
        /// is as tight and skips the costly unmount of the old tree.
        pivot: bool,
    },
}

/// One step the child replays. `slot` indexes detached mount copies.
#[derive(Debug)]
pub(crate) enum MountOp {
    Private,
    Clone { source: CString, slot: usize },
    Tmpfs { target: CString, options: CString },
    Mkdir(CString),
    Symlink { target: CString, link: CString },
    Attach { slot: usize, target: CString },
    Proc(CString),
    ReadOnly(CString),
    Pivot(CString),
    MoveRoot(CString),
}

/// How many detached copies one plan may hold.
pub(crate) const SLOTS: usize = 16;

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
    pub(crate) fn ops(&self) -> io::Result<Vec<MountOp>> {
        let mut ops = vec![MountOp::Private];
        let mut mkdirs: Vec<PathBuf> = Vec::new();
        let mut mkdir = |ops: &mut Vec<MountOp>, dir: PathBuf| -> io::Result<()> {
            if !mkdirs.contains(&dir) {
                ops.push(MountOp::Mkdir(c(&dir)?));
                mkdirs.push(dir);
            }
            Ok(())
        };
        match self {
            MountPlan::Cover {
                hide,
                keep,
                mount_proc,
            } => {
                for (slot, (path, _)) in keep.iter().enumerate().take(SLOTS) {
                    ops.push(MountOp::Clone {
                        source: c(path)?,
                        slot,
                    });
                }
                for path in hide {
                    ops.push(MountOp::Tmpfs {
                        target: c(path)?,
                        options: CString::from(c"mode=0755,size=16m"),
                    });
                }
                for (path, _) in keep {
                    if let Some(cover) = hide
                        .iter()
                        .filter(|h| path.starts_with(h) && path != *h)
                        .max_by_key(|h| h.as_os_str().len())
                    {
                        for dir in chain(path, cover) {
                            mkdir(&mut ops, dir)?;
                        }
                    }
                }
                if *mount_proc {
                    ops.push(MountOp::Proc(CString::from(c"/proc")));
                }
                ops.push(MountOp::ReadOnly(CString::from(c"/")));
                for (slot, (path, writable)) in keep.iter().enumerate().take(SLOTS) {
                    ops.push(MountOp::Attach {
                        slot,
                        target: c(path)?,
                    });
                    if !writable {
                        ops.push(MountOp::ReadOnly(c(path)?));
                    }
                }
            }
            MountPlan::NewRoot {
                system,
                keep,
                scratch,
                mount_proc,
                pivot,
            } => {
                let base = Path::new(NEW_ROOT);
                let dirs: Vec<&PathBuf> = system
                    .iter()
                    .filter_map(|e| match e {
                        SystemEntry::Dir(path) => Some(path),
                        SystemEntry::Symlink(..) => None,
                    })
                    .collect();
                let kept: Vec<&(PathBuf, bool)> = keep
                    .iter()
                    .filter(|(p, _)| scratch.as_ref().is_none_or(|(s, _)| s != p))
                    .collect();
                if dirs.len() + kept.len() > SLOTS {
                    return Err(io::Error::other("too many folders to keep visible"));
                }
                for (slot, path) in dirs
                    .iter()
                    .map(|p| p.as_path())
                    .chain(kept.iter().map(|(p, _)| p.as_path()))
                    .enumerate()
                {
                    ops.push(MountOp::Clone {
                        source: c(path)?,
                        slot,
                    });
                }
                ops.push(MountOp::Tmpfs {
                    target: c(base)?,
                    options: CString::from(c"mode=0755,size=1m"),
                });
                mkdir(&mut ops, under(base, Path::new("/proc")))?;
                for entry in system {
                    match entry {
                        SystemEntry::Dir(path) => mkdir(&mut ops, under(base, path))?,
                        SystemEntry::Symlink(link, target) => ops.push(MountOp::Symlink {
                            target: c(target)?,
                            link: c(&under(base, link))?,
                        }),
                    }
                }
                for path in kept
                    .iter()
                    .map(|(p, _)| p)
                    .chain(scratch.iter().map(|(p, _)| p))
                {
                    for dir in chain(path, Path::new("/")) {
                        mkdir(&mut ops, under(base, &dir))?;
                    }
                }
                for (slot, path) in dirs.iter().enumerate() {
                    ops.push(MountOp::Attach {
                        slot,
                        target: c(&under(base, path))?,
                    });
                }
                if *mount_proc {
                    ops.push(MountOp::Proc(c(&under(base, Path::new("/proc")))?));
                }
                ops.push(MountOp::ReadOnly(c(base)?));
                for (i, (path, writable)) in kept.iter().enumerate() {
                    let target = c(&under(base, path))?;
                    ops.push(MountOp::Attach {
                        slot: dirs.len() + i,
                        target,
                    });
                    if !writable {
                        ops.push(MountOp::ReadOnly(c(&under(base, path))?));
                    }
                }
                if let Some((path, bytes)) = scratch {
                    let options = CString::new(format!("mode=0777,size={bytes}"))
                        .map_err(io::Error::other)?;
                    ops.push(MountOp::Tmpfs {
                        target: c(&under(base, path))?,
                        options,
                    });
                }
                ops.push(if *pivot {
                    MountOp::Pivot(c(base)?)
                } else {
                    MountOp::MoveRoot(c(base)?)
                });
            }
        }
        Ok(ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_root_keeps_only_system_program_and_work_folders() {
        let plan = MountPlan::NewRoot {
            system: vec![
                SystemEntry::Dir("/usr".into()),
                SystemEntry::Symlink("/bin".into(), "usr/bin".into()),
            ],
            keep: vec![("/tmp/j/w".into(), true), ("/srv/cache/b".into(), false)],
            scratch: Some(("/tmp/j/w".into(), 1024)),
            mount_proc: true,
            pivot: true,
        };
        let text = format!("{:?}", plan.ops().unwrap());
        for want in [
            "Tmpfs { target: \"/tmp\"",
            "Attach { slot: 0, target: \"/tmp/usr\" }",
            "Symlink { target: \"usr/bin\", link: \"/tmp/bin\" }",
            "Mkdir(\"/tmp/srv/cache/b\")",
            "Attach { slot: 1, target: \"/tmp/srv/cache/b\" }",
            "ReadOnly(\"/tmp/srv/cache/b\")",
            "Tmpfs { target: \"/tmp/tmp/j/w\", options: \"mode=0777,size=1024\" }",
            "Pivot(\"/tmp\")",
        ] {
            assert!(text.contains(want), "{want} missing from {text}");
        }
        assert!(
            !text.contains("Clone { source: \"/tmp/j/w\""),
            "the scratch tmpfs replaces the host folder"
        );
    }
}
