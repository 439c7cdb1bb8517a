//! Reading files that a submitter controls, as root, without being led
//! anywhere else.
//!
//! A submission is more than its bytes: it is a name in a folder the
//! submitter filled. Read naively, a symbolic link beside a source makes
//! the judge copy any file it can read (another student's solution, the
//! test's answers, `/proc/self/environ`) into the build, a FIFO makes it
//! wait forever, and a link to `/dev/zero` makes it read without end. So
//! every file of a submission is opened here: never through a link
//! (`O_NOFOLLOW`), never waiting (`O_NONBLOCK`), checked to be a regular
//! file on the descriptor actually opened (`fstat`, so nothing can be
//! swapped in between a check and the open), and read up to a limit.
//! Headers beside a source are opened relative to the folder's descriptor,
//! by plain name only.
//!
//! A package's own files are the setter's, who may link `testlib.h` from a
//! shared folder: they are read through links ([`Links::Follow`]), but
//! still never from a FIFO or a device and never past the limit.

use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{FileType, Mode, OFlags};
use thiserror::Error;

/// The largest file a build takes in (a source, a header, a file placed
/// beside): generous for any source, small enough to hold in memory.
pub(crate) const SOURCE_LIMIT: u64 = 16 << 20;

/// Whether the last component of a path may be a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Links {
    /// A package's file: the setter's links are followed.
    Follow,
    /// A submitter's file: a link is refused, never followed.
    Refuse,
}

/// Why a file a submitter controls was not read. The first three are the
/// submitter's doing (a compile error, a file not graded); `Io` is not.
#[derive(Debug, Error)]
pub enum UntrustedFile {
    #[error(
        "{} is a symbolic link: the judge does not follow links in a submission",
        shown(path)
    )]
    Symlink { path: PathBuf },
    #[error("{} is {kind}, not a regular file", shown(path))]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{} is not a folder", shown(path))]
    NotAFolder { path: PathBuf },
    #[error("{} is larger than {}", shown(path), bytesize::ByteSize(*limit))]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("failed to read {}: {source}", shown(path))]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl UntrustedFile {
    /// Whether the file's owner is to blame (a link, a FIFO, a huge file),
    /// rather than the judge or the machine.
    pub(crate) fn is_submitters(&self) -> bool {
        !matches!(self, UntrustedFile::Io { .. })
    }

    /// The file does not exist.
    pub(crate) fn is_not_found(&self) -> bool {
        matches!(self, UntrustedFile::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

/// A path as a person may see it: a submitter names their files, so
/// control characters in a name are shown escaped.
pub(crate) fn shown(path: &Path) -> String {
    crate::escape::name(&path.display().to_string())
}

/// What a file that is not a regular file is, in words.
pub(crate) fn kind_of(file_type: FileType) -> &'static str {
    match file_type {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a folder",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "an unknown kind of file",
    }
}

/// The whole of the regular file at `path`, at most `limit` bytes.
pub(crate) fn read(path: &Path, links: Links, limit: u64) -> Result<Vec<u8>, UntrustedFile> {
    let fd = rustix::fs::open(path, flags(links), Mode::empty())
        .map_err(|errno| open_error(path, links, errno))?;
    read_open(fd, path, limit)
}

/// The file `name` (a plain name, no `/`) in the folder open as `dir`
/// (whose path is `dir_path`, for messages), at most `limit` bytes.
pub(crate) fn read_in(
    dir: &OwnedFd,
    dir_path: &Path,
    name: &str,
    links: Links,
    limit: u64,
) -> Result<Vec<u8>, UntrustedFile> {
    let path = dir_path.join(name);
    if name.contains('/') || name == "." || name == ".." || name.is_empty() {
        return Err(UntrustedFile::Io {
            path,
            source: io::Error::new(io::ErrorKind::InvalidInput, "not a plain file name"),
        });
    }
    let fd = rustix::fs::openat(dir, name, flags(links), Mode::empty())
        .map_err(|errno| open_error(&path, links, errno))?;
    read_open(fd, &path, limit)
}

/// The folder at `path`, open for `read_in`; a link is refused when
/// `links` says so.
pub(crate) fn open_dir(path: &Path, links: Links) -> Result<OwnedFd, UntrustedFile> {
    let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    if links == Links::Refuse {
        flags |= OFlags::NOFOLLOW;
    }
    rustix::fs::open(path, flags, Mode::empty()).map_err(|errno| match errno {
        // O_DIRECTORY | O_NOFOLLOW on a link to a folder fails as on a file.
        rustix::io::Errno::NOTDIR => {
            let path = path.to_path_buf();
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.file_type().is_symlink() => UntrustedFile::Symlink { path },
                _ => UntrustedFile::NotAFolder { path },
            }
        }
        errno => open_error(path, links, errno),
    })
}

fn flags(links: Links) -> OFlags {
    // Non-blocking: opening a FIFO for reading must not wait for a writer
    // (the file type is checked right after); no controlling terminal.
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    if links == Links::Refuse {
        flags |= OFlags::NOFOLLOW;
    }
    flags
}

fn open_error(path: &Path, links: Links, errno: rustix::io::Errno) -> UntrustedFile {
    let path = path.to_path_buf();
    match errno {
        // O_NOFOLLOW on a link.
        rustix::io::Errno::LOOP if links == Links::Refuse => UntrustedFile::Symlink { path },
        // A unix socket cannot be opened.
        rustix::io::Errno::NXIO => UntrustedFile::NotRegular {
            path,
            kind: "a socket",
        },
        errno => UntrustedFile::Io {
            path,
            source: errno.into(),
        },
    }
}

fn read_open(fd: OwnedFd, path: &Path, limit: u64) -> Result<Vec<u8>, UntrustedFile> {
    let io_error = |source: io::Error| UntrustedFile::Io {
        path: path.to_path_buf(),
        source,
    };
    let stat = rustix::fs::fstat(&fd).map_err(|e| io_error(e.into()))?;
    let file_type = FileType::from_raw_mode(stat.st_mode);
    if file_type != FileType::RegularFile {
        return Err(UntrustedFile::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(file_type),
        });
    }
    let too_large = || UntrustedFile::TooLarge {
        path: path.to_path_buf(),
        limit,
    };
    if stat.st_size as u64 > limit {
        return Err(too_large());
    }
    // The size may change while we read: read one byte past the limit to
    // tell.
    let mut bytes = Vec::with_capacity(stat.st_size as usize);
    std::fs::File::from(fd)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.c");
        std::fs::write(&file, "int main;").unwrap();
        assert_eq!(read(&file, Links::Refuse, 100).unwrap(), b"int main;");
        let folder = open_dir(dir.path(), Links::Refuse).unwrap();
        assert_eq!(
            read_in(&folder, dir.path(), "a.c", Links::Refuse, 100).unwrap(),
            b"int main;"
        );
    }

    #[test]
    fn a_link_is_refused_unless_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("secret");
        std::fs::write(&target, "42").unwrap();
        let link = dir.path().join("h.txt");
        symlink(&target, &link).unwrap();
        let error = read(&link, Links::Refuse, 100).unwrap_err();
        assert!(matches!(error, UntrustedFile::Symlink { .. }), "{error}");
        assert!(error.is_submitters());
        assert!(error.to_string().contains("h.txt is a symbolic link"));
        let folder = open_dir(dir.path(), Links::Refuse).unwrap();
        let error = read_in(&folder, dir.path(), "h.txt", Links::Refuse, 100).unwrap_err();
        assert!(matches!(error, UntrustedFile::Symlink { .. }), "{error}");
        assert_eq!(read(&link, Links::Follow, 100).unwrap(), b"42");
        // A linked folder is refused too.
        let linked_dir = dir.path().join("d");
        symlink(dir.path(), &linked_dir).unwrap();
        assert!(matches!(
            open_dir(&linked_dir, Links::Refuse),
            Err(UntrustedFile::Symlink { .. })
        ));
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_a_device_even_through_a_followed_link() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.c");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            FileType::Fifo,
            Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        // Would block forever without O_NONBLOCK: no writer ever comes.
        let error = read(&fifo, Links::Refuse, 100).unwrap_err();
        assert!(error.to_string().contains("is a FIFO"), "{error}");
        let zero = dir.path().join("zero.c");
        symlink("/dev/zero", &zero).unwrap();
        let error = read(&zero, Links::Follow, 100).unwrap_err();
        assert!(error.to_string().contains("a character device"), "{error}");
    }

    #[test]
    fn a_file_past_the_limit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big.c");
        std::fs::write(&file, vec![b'x'; 101]).unwrap();
        let error = read(&file, Links::Refuse, 100).unwrap_err();
        assert!(matches!(error, UntrustedFile::TooLarge { .. }), "{error}");
        assert_eq!(read(&file, Links::Refuse, 101).unwrap().len(), 101);
    }

    #[test]
    fn names_are_shown_without_control_bytes() {
        assert_eq!(
            shown(Path::new("mallory\n\x1b[32mAC")),
            "mallory\\n\\x1b[32mAC"
        );
    }
}
