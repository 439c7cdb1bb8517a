//! A uid of its own for each worker (root judge), as isolate gives each
//! box one: process limits (`RLIMIT_NPROC` counts a uid's processes),
//! POSIX locks and signals by owner, and files by owner are then a
//! worker's, not shared by every run of every judge on the machine, where
//! one run's fork storm could make another's `fork` fail.
//!
//! The uids come from a range (`--uid-range`, default 60000–60999; the gid
//! is the uid). A worker thread claims one the first time it starts a
//! contained run and holds it while it lives. Claims are made across every
//! judge on the machine by binding an abstract unix socket named after the
//! uid in the judge's network namespace: the kernel refuses a second
//! binding, and releases the name when the thread's descriptor closes,
//! even when the judge is killed, so no lock file is ever left behind.

use std::fmt;
use std::os::fd::OwnedFd;
use std::str::FromStr;

use rustix::net::{AddressFamily, SocketAddrUnix, SocketType};

/// The uids workers may use (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UidRange {
    pub first: u32,
    pub last: u32,
}

impl Default for UidRange {
    fn default() -> UidRange {
        UidRange {
            first: 60000,
            last: 60999,
        }
    }
}

impl fmt::Display for UidRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first, self.last)
    }
}

/// Why `--uid-range` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UidRangeError {
    #[error("`{text}` is not FIRST-LAST (as in 60000-60999)")]
    NotARange { text: String },
    #[error("`{part}` is not a uid")]
    NotAUid { part: String },
    #[error("`{text}`: the range must lie between 1 and 65533, first to last")]
    OutOfBounds { text: String },
}

impl FromStr for UidRange {
    type Err = UidRangeError;

    /// `FIRST-LAST`, both above 0 and below 65534 (nobody).
    fn from_str(text: &str) -> Result<UidRange, UidRangeError> {
        let (first, last) = text
            .split_once('-')
            .ok_or_else(|| UidRangeError::NotARange {
                text: text.to_string(),
            })?;
        let number = |part: &str| {
            part.trim()
                .parse::<u32>()
                .map_err(|_| UidRangeError::NotAUid {
                    part: part.to_string(),
                })
        };
        let range = UidRange {
            first: number(first)?,
            last: number(last)?,
        };
        if range.first == 0 || range.last >= 65534 || range.first > range.last {
            return Err(UidRangeError::OutOfBounds {
                text: text.to_string(),
            });
        }
        Ok(range)
    }
}

/// A box's uid, held by the socket that claims it (released when dropped).
pub(crate) struct UidClaim {
    pub(crate) uid: u32,
    _name: OwnedFd,
}

/// A uid of `range` no other box (of this judge or another) holds now;
/// `None` when every one is held.
pub(crate) fn claim(range: UidRange) -> Option<UidClaim> {
    // Start at a place that differs between threads, so that the workers
    // of one judge do not all try the same uids first.
    let count = range.last - range.first + 1;
    let start = std::process::id().wrapping_add(thread_number()) % count;
    (0..count)
        .map(|i| range.first + (start + i) % count)
        .find_map(|uid| {
            let name = claim_name(uid).ok()?;
            Some(UidClaim { uid, _name: name })
        })
}

/// A small number that differs between the threads of this process.
fn thread_number() -> u32 {
    rustix::thread::gettid().as_raw_nonzero().get() as u32
}

/// Binds the abstract name of `uid`: fails when another worker holds it.
fn claim_name(uid: u32) -> rustix::io::Result<OwnedFd> {
    let socket = rustix::net::socket_with(
        AddressFamily::UNIX,
        SocketType::DGRAM,
        rustix::net::SocketFlags::CLOEXEC,
        None,
    )?;
    let name = format!("game-judge/worker-uid/{uid}");
    let address = SocketAddrUnix::new_abstract_name(name.as_bytes())?;
    rustix::net::bind(&socket, &address)?;
    Ok(socket)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_and_checked() {
        assert_eq!(
            "61000-61009".parse::<UidRange>(),
            Ok(UidRange {
                first: 61000,
                last: 61009
            })
        );
        assert!("0-10".parse::<UidRange>().is_err());
        assert!("61000-65534".parse::<UidRange>().is_err());
        assert!("9-1".parse::<UidRange>().is_err());
        assert!("60000".parse::<UidRange>().is_err());
        assert_eq!(UidRange::default().to_string(), "60000-60999");
    }

    #[test]
    fn a_uid_is_held_until_its_claim_is_dropped() {
        // A range of one, unlikely to be used by another test at once.
        let range = UidRange {
            first: 64900,
            last: 64900,
        };
        let held = claim(range).expect("a uid");
        assert_eq!(held.uid, 64900);
        assert!(claim(range).is_none(), "two boxes share a uid");
        drop(held);
        // Another test thread's child, forked but not yet executed, may
        // hold a copy of the socket (CLOEXEC closes it at its exec): the
        // name is free once that exec happens, which is soon.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut again = claim(range);
        while again.is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
            again = claim(range);
        }
        assert_eq!(again.map(|c| c.uid), Some(64900), "not released");
    }
}
