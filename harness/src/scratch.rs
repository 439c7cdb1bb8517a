//! A command's scratch folder (run folders, sources being built), and the
//! cleaning of those a killed judge left behind.
//!
//! Each folder is `$TMPDIR/judge-XXXXXX` (private to its user, as
//! `tempfile` makes it) and holds a lock file that its judge keeps locked
//! while it lives. A judge killed by SIGKILL cannot remove its folder, but
//! its lock dies with it: at the next start, every folder of this user
//! whose lock can be taken is an abandoned one and is removed.

use std::fs::File;
use std::path::{Path, PathBuf};

const PREFIX: &str = "judge-";
const LOCK: &str = ".judge-lock";

/// A scratch folder, removed when dropped, locked while it lives.
pub(crate) struct Scratch {
    dir: tempfile::TempDir,
    /// Held for the folder's life: its lock says the folder is in use.
    _lock: Option<File>,
}

impl Scratch {
    /// A new scratch folder in the system's temporary folder, after the
    /// abandoned ones there are removed.
    pub(crate) fn new() -> std::io::Result<Scratch> {
        let parent = std::env::temp_dir();
        remove_abandoned(&parent);
        let dir = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir_in(&parent)?;
        // Locked under another name, then named: another judge's sweep
        // never finds the lock file unlocked.
        let unnamed = dir.path().join(".judge-lock-new");
        let lock = File::create(&unnamed)?;
        rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive)?;
        std::fs::rename(&unnamed, dir.path().join(LOCK))?;
        Ok(Scratch {
            dir,
            _lock: Some(lock),
        })
    }

    /// A folder without the lock (a test's).
    #[cfg(test)]
    pub(crate) fn plain() -> std::io::Result<Scratch> {
        Ok(Scratch {
            dir: tempfile::tempdir()?,
            _lock: None,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Removes the scratch folders in `parent` that belong to this user and
/// whose judge is gone (their lock can be taken); what was removed.
pub(crate) fn remove_abandoned(parent: &Path) -> Vec<PathBuf> {
    let me = rustix::process::geteuid();
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let path = entry.path();
        let ours = std::fs::symlink_metadata(&path).is_ok_and(|m| {
            use std::os::unix::fs::MetadataExt;
            m.is_dir() && m.uid() == me.as_raw()
        });
        if !ours {
            continue;
        }
        // A folder without a lock file is an older judge's or is being
        // made: left alone.
        let Ok(lock) = File::open(path.join(LOCK)) else {
            continue;
        };
        let free =
            rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_ok();
        if free && std::fs::remove_dir_all(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_folder_whose_judge_is_gone_is_removed() {
        let parent = tempfile::tempdir().unwrap();
        let alive = parent.path().join("judge-alive");
        let dead = parent.path().join("judge-dead");
        let other = parent.path().join("keep-me");
        for dir in [&alive, &dead, &other] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join(LOCK), "").unwrap();
        }
        let held = File::open(alive.join(LOCK)).unwrap();
        rustix::fs::flock(&held, rustix::fs::FlockOperation::NonBlockingLockExclusive).unwrap();
        let removed = remove_abandoned(parent.path());
        assert_eq!(removed, vec![dead.clone()]);
        assert!(alive.exists() && other.exists() && !dead.exists());
    }
}
