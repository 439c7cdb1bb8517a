//! What the judge puts into a run's working folder before it starts, and
//! takes out of it after: always through the folder's own descriptor, by
//! the judge, never through a path the run could have changed.
//!
//! A run controls its working folder: by the time it ends, any name in it
//! may be a link to a file of the judge's, a FIFO, or a million files. So
//! the judge writes its files in before the run (new files only, created
//! where no link can stand: `O_CREAT | O_EXCL | O_NOFOLLOW`), and after a
//! compile copies out only folders and regular files, opened without
//! following links, up to a size and a count; anything else is left behind
//! and named. Nothing the judge writes afterwards (its markers, its
//! messages) goes into a folder a run had.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};
use thiserror::Error;

/// A file the judge places in the working folder before a run: its path
/// relative to the folder (folders on the way are made) and its bytes.
pub type SeedFile = (PathBuf, Vec<u8>);

/// After a run that exits with 0, copy its working folder's folders and
/// regular files into `into` (a new folder), within these limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collect {
    pub into: PathBuf,
    pub max_bytes: u64,
    pub max_files: u64,
    /// The working folder's own size while the run lasts (a tmpfs of this
    /// many bytes where the machine allows one).
    pub working_bytes: u64,
    /// Copied out however the run ended (a referee's feedback folder after
    /// its verdict's exit code), not only after it exited with 0.
    pub whatever_the_exit: bool,
}

/// What was copied out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collected {
    pub bytes: u64,
    pub files: u64,
    /// Entries left behind, relative to the folder: links, FIFOs, devices.
    pub left: Vec<String>,
}

#[derive(Debug, Clone, Error)]
pub enum CollectError {
    #[error("the build left more than {} in its folder", bytesize::ByteSize(*limit))]
    TooLarge { limit: u64 },
    #[error("the build left more than {limit} files in its folder")]
    TooMany { limit: u64 },
    #[error("failed to copy the build out of its folder: {0}")]
    Io(std::sync::Arc<io::Error>),
}

impl From<io::Error> for CollectError {
    fn from(error: io::Error) -> CollectError {
        CollectError::Io(std::sync::Arc::new(error))
    }
}

/// Writes `files` into the folder open as `dir`, owned by `owner` when
/// given (the run's uid and gid, so that its working folder is its own).
pub(crate) fn seed(
    dir: BorrowedFd<'_>,
    files: &[SeedFile],
    owner: Option<(u32, u32)>,
) -> io::Result<()> {
    for (path, bytes) in files {
        let parts = plain_parts(path)?;
        let (name, folders) = parts.split_last().expect("plain_parts is never empty");
        let mut current: Option<OwnedFd> = None;
        for folder in folders {
            let at = current.as_ref().map_or(dir, |fd| fd.as_fd());
            match rustix::fs::mkdirat(at, *folder, Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            let next = rustix::fs::openat(
                at,
                *folder,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            if let Some((uid, gid)) = owner {
                chown(&next, uid, gid)?;
            }
            current = Some(next);
        }
        let at = current.as_ref().map_or(dir, |fd| fd.as_fd());
        let fd = rustix::fs::openat(
            at,
            *name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )?;
        if let Some((uid, gid)) = owner {
            chown(&fd, uid, gid)?;
        }
        std::fs::File::from(fd).write_all(bytes)?;
    }
    Ok(())
}

fn chown(fd: &OwnedFd, uid: u32, gid: u32) -> io::Result<()> {
    rustix::fs::fchown(
        fd,
        Some(rustix::process::Uid::from_raw(uid)),
        Some(rustix::process::Gid::from_raw(gid)),
    )?;
    Ok(())
}

/// The names of a relative path with plain components only.
fn plain_parts(path: &Path) -> io::Result<Vec<&OsStr>> {
    let parts: Vec<&OsStr> = path
        .components()
        .map(|c| match c {
            Component::Normal(name) => Ok(name),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a plain relative path", path.display()),
            )),
        })
        .collect::<io::Result<_>>()?;
    if parts.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "an empty path"));
    }
    Ok(parts)
}

/// Copies the folders and regular files of the folder open as `dir` into
/// the new folder `collect.into`, refusing past its limits. Files keep
/// whether they are executable; everything is the judge's and readable by
/// everyone (runs of any uid start the program).
pub(crate) fn collect(dir: BorrowedFd<'_>, collect: &Collect) -> Result<Collected, CollectError> {
    std::fs::create_dir(&collect.into)?;
    std::fs::set_permissions(&collect.into, std::fs::Permissions::from_mode(0o755))?;
    let mut collected = Collected::default();
    copy_folder(dir, &collect.into, Path::new(""), collect, &mut collected)?;
    Ok(collected)
}

fn copy_folder(
    dir: BorrowedFd<'_>,
    into: &Path,
    relative: &Path,
    limits: &Collect,
    collected: &mut Collected,
) -> Result<(), CollectError> {
    // `Dir` reads from its own duplicate of the descriptor.
    let listing = rustix::fs::openat(
        dir,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io::Error::from)?;
    let mut names: Vec<Vec<u8>> = Vec::new();
    for entry in Dir::read_from(listing.as_fd()).map_err(io::Error::from)? {
        let entry = entry.map_err(io::Error::from)?;
        let name = entry.file_name().to_bytes();
        if name != b"." && name != b".." {
            names.push(name.to_vec());
        }
    }
    names.sort();
    for name in names {
        let name = OsStr::from_bytes(&name);
        let shown = relative.join(name);
        collected.files += 1;
        if collected.files > limits.max_files {
            return Err(CollectError::TooMany {
                limit: limits.max_files,
            });
        }
        let stat =
            rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(io::Error::from)?;
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => {
                let inner = rustix::fs::openat(
                    dir,
                    name,
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                    Mode::empty(),
                )
                .map_err(io::Error::from)?;
                let target = into.join(name);
                std::fs::create_dir(&target)?;
                std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
                copy_folder(inner.as_fd(), &target, &shown, limits, collected)?;
            }
            FileType::RegularFile => {
                let file = rustix::fs::openat(
                    dir,
                    name,
                    OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
                    Mode::empty(),
                )
                .map_err(io::Error::from)?;
                // The file opened is the one checked, whatever the name
                // became in between.
                let opened = rustix::fs::fstat(&file).map_err(io::Error::from)?;
                if FileType::from_raw_mode(opened.st_mode) != FileType::RegularFile {
                    collected.left.push(shown.display().to_string());
                    continue;
                }
                let room = limits.max_bytes.saturating_sub(collected.bytes);
                let mut bytes = Vec::new();
                std::fs::File::from(file)
                    .take(room + 1)
                    .read_to_end(&mut bytes)?;
                collected.bytes += bytes.len() as u64;
                if collected.bytes > limits.max_bytes {
                    return Err(CollectError::TooLarge {
                        limit: limits.max_bytes,
                    });
                }
                let executable = opened.st_mode & 0o111 != 0;
                let mut out = std::fs::File::options()
                    .write(true)
                    .create_new(true)
                    .open(into.join(name))?;
                out.write_all(&bytes)?;
                out.set_permissions(std::fs::Permissions::from_mode(if executable {
                    0o755
                } else {
                    0o644
                }))?;
            }
            _ => collected.left.push(shown.display().to_string()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &Path) -> OwnedFd {
        rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap()
    }

    fn limits(into: PathBuf) -> Collect {
        Collect {
            whatever_the_exit: false,
            into,
            max_bytes: 1000,
            max_files: 10,
            working_bytes: 1 << 20,
        }
    }

    #[test]
    fn seeding_makes_new_files_and_never_writes_through_a_link() {
        let work = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let dir = open(work.path());
        seed(
            dir.as_fd(),
            &[
                ("a.txt".into(), b"A".to_vec()),
                ("sub/b.txt".into(), b"B".to_vec()),
            ],
            None,
        )
        .unwrap();
        assert_eq!(std::fs::read(work.path().join("sub/b.txt")).unwrap(), b"B");
        std::os::unix::fs::symlink(&victim, work.path().join("link")).unwrap();
        assert!(seed(dir.as_fd(), &[("link".into(), b"X".to_vec())], None).is_err());
        assert!(seed(dir.as_fd(), &[("../escape".into(), b"X".to_vec())], None).is_err());
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    }

    #[test]
    fn collecting_copies_files_and_folders_and_leaves_links_behind() {
        let work = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::write(work.path().join("main"), "binary").unwrap();
        std::fs::set_permissions(
            work.path().join("main"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        std::fs::create_dir(work.path().join("__pycache__")).unwrap();
        std::fs::write(work.path().join("__pycache__/x.pyc"), "pyc").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", work.path().join("ok")).unwrap();
        let into = out.path().join("program");
        let done = collect(open(work.path()).as_fd(), &limits(into.clone())).unwrap();
        assert_eq!(done.left, ["ok"]);
        assert_eq!(done.bytes, 9);
        assert_eq!(
            std::fs::read(into.join("__pycache__/x.pyc")).unwrap(),
            b"pyc"
        );
        let mode = std::fs::metadata(into.join("main"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert!(!into.join("ok").exists());
    }

    #[test]
    fn collecting_stops_at_its_limits() {
        let work = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::write(work.path().join("big"), vec![0u8; 1001]).unwrap();
        let error = collect(open(work.path()).as_fd(), &limits(out.path().join("a"))).unwrap_err();
        assert!(
            matches!(error, CollectError::TooLarge { limit: 1000 }),
            "{error}"
        );
        std::fs::remove_file(work.path().join("big")).unwrap();
        for i in 0..11 {
            std::fs::write(work.path().join(format!("f{i}")), "").unwrap();
        }
        let error = collect(open(work.path()).as_fd(), &limits(out.path().join("b"))).unwrap_err();
        assert!(
            matches!(error, CollectError::TooMany { limit: 10 }),
            "{error}"
        );
    }
}
