//! The named FIFOs of a side that reaches the other by two paths (CMS's
//! Communication: its manager, and a `fifo_io` solution). CMS gives both
//! programs the same two FIFOs, and each one's direction is whatever the
//! two sides open it for; a pair of programs may use them the other way
//! round from CMS's names. Here each side gets two FIFOs of its own, in a
//! folder of its own, and the relay sits between: it holds a reader and a
//! reader-writer of each, so a side's `open` never waits for a partner
//! (nothing the judge opens can block it), and when the two sides reach
//! each other through one FIFO each, the first side that writes decides
//! which way that pair carries.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{CWD, Mode, OFlags};

/// CMS's names for the two FIFOs (`u0_to_m`, `m_to_u0`): each side's
/// arguments name the one it reads by CMS's convention first.
const FROM_SOLUTION: &str = "u_to_m";
const TO_SOLUTION: &str = "m_to_u";

/// One named FIFO and the relay's two descriptors on it.
#[derive(Debug)]
pub(crate) struct Fifo {
    reader: OwnedFd,
    both: OwnedFd,
    inode: u64,
}

impl Fifo {
    fn make(path: &Path) -> io::Result<Fifo> {
        rustix::fs::mkfifoat(CWD, path, Mode::from_raw_mode(0o666))?;
        // Past the umask: a boxed solution runs under a uid of its own.
        rustix::fs::chmod(path, Mode::from_raw_mode(0o666))?;
        let flags = OFlags::NONBLOCK | OFlags::CLOEXEC;
        // The reader first: a pipe reports the end of a writer that came
        // after its reader was opened, so it then sees the side close.
        let reader = rustix::fs::open(path, OFlags::RDONLY | flags, Mode::empty())?;
        let both = rustix::fs::open(path, OFlags::RDWR | flags, Mode::empty())?;
        let inode = rustix::fs::fstat(&reader)?.st_ino;
        Ok(Fifo {
            reader,
            both,
            inode,
        })
    }

    /// Whether its side wrote into it.
    pub(crate) fn has_input(&self) -> bool {
        rustix::io::ioctl_fionread(self.reader.as_fd()).is_ok_and(|unread| unread > 0)
    }

    /// Its side writes: the relay reads it, and holds a writer of its own
    /// (the second) until the first bytes come. A FIFO without writers
    /// reads as ended, even before its side opened it; after them, the
    /// relay sees the end once the side closes it.
    pub(crate) fn into_source(self) -> (OwnedFd, OwnedFd) {
        (self.reader, self.both)
    }

    /// Its side reads: the relay writes, and closing that descriptor is
    /// the end of the side's input. It also reads (never used), so a write
    /// before the side opened it is kept, not refused.
    pub(crate) fn into_target(self) -> OwnedFd {
        self.both
    }

    /// What the relay waits on while the pair's direction is open.
    pub(crate) fn reader(&self) -> &OwnedFd {
        &self.reader
    }

    pub(crate) fn inode(&self) -> u64 {
        self.inode
    }
}

/// A side's two FIFOs in a folder of its own, which it sees and nothing else
/// of the conversation does.
#[derive(Debug)]
pub(crate) struct SideFifos {
    folder: tempfile::TempDir,
    from_solution: Fifo,
    to_solution: Fifo,
}

impl SideFifos {
    pub(crate) fn make() -> io::Result<SideFifos> {
        let folder = tempfile::Builder::new().prefix("judge-fifos").tempdir()?;
        rustix::fs::chmod(folder.path(), Mode::from_raw_mode(0o755))?;
        Ok(SideFifos {
            from_solution: Fifo::make(&folder.path().join(FROM_SOLUTION))?,
            to_solution: Fifo::make(&folder.path().join(TO_SOLUTION))?,
            folder,
        })
    }

    /// The folder (kept while the conversation lasts) and its FIFOs.
    pub(crate) fn into_parts(self) -> (tempfile::TempDir, Fifo, Fifo) {
        (self.folder, self.from_solution, self.to_solution)
    }

    /// The paths a side's arguments name, as CMS orders them: the
    /// manager's `u_to_m m_to_u`, the solution's `m_to_u u_to_m`.
    pub(crate) fn paths(&self, manager: bool) -> [PathBuf; 2] {
        let [from, to] = [FROM_SOLUTION, TO_SOLUTION].map(|name| self.folder.path().join(name));
        match manager {
            true => [from, to],
            false => [to, from],
        }
    }
}

/// The two FIFOs that are one in CMS (the manager's and the solution's
/// `u_to_m`, or both `m_to_u`) while no side has written into either.
#[derive(Debug)]
pub(crate) struct Undecided {
    pub(crate) manager: Fifo,
    pub(crate) solution: Fifo,
}
