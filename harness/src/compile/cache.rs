//! The build cache on disk (`target/judge-cache/`): one entry per build,
//! named by the hash of everything the build depends on, each written
//! whole by the judge and only then put in place.
//!
//! ```text
//! <label>-<language>-<hash>/
//!     program/   the program, as the judge copied it out of the build's
//!                working folder (folders and regular files only)
//!     outcome    the judge's record: built (and its size), the compiler's
//!                rejection, or a compile stopped at a limit; its
//!                modification time is the entry's last use
//! ```
//!
//! A build never had either: it ran in a working folder of its own, so no
//! name it made can lead the judge's writes anywhere. The cache keeps to a
//! budget by removing the entries used least recently (`evict`, after each
//! new entry, and `judge cache prune`).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// What the cache may hold before the least recently used builds go.
pub const BUDGET: u64 = 2 << 30;

/// A build folder a killed judge left half-written is removed once it is
/// this old (a build in progress is much younger).
const ABANDONED: Duration = Duration::from_secs(24 * 3600);

const OUTCOME: &str = "outcome";
const PROGRAM: &str = "program";
const IN_PROGRESS: &str = ".building-";

/// How a build ended, as the cache remembers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case", deny_unknown_fields)]
pub(super) enum Outcome {
    /// The program is in `program/`, this many bytes.
    Built { bytes: u64 },
    /// The compiler rejected the source, or the build broke a limit of the
    /// cache (too large): a compile error, the same every time.
    Rejected { message: String },
    /// The compile was stopped at a limit (CPU, wall clock, memory,
    /// output): the same sources stop there again, so it is not re-run at
    /// every regrade.
    Stopped { message: String },
}

/// The cache folder.
#[derive(Debug, Clone)]
pub(super) struct BuildCache {
    pub(super) dir: PathBuf,
}

/// An entry being written: removed unless committed.
pub(super) struct Pending {
    folder: tempfile::TempDir,
}

/// What `prune` did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    pub removed: usize,
    pub removed_bytes: u64,
    pub kept: usize,
    pub kept_bytes: u64,
}

impl BuildCache {
    /// The entry `name`'s outcome and its program folder, if it was built
    /// before; the entry's use is recorded.
    pub(super) fn lookup(&self, name: &str) -> Option<(Outcome, PathBuf)> {
        let entry = self.dir.join(name);
        let outcome_file = entry.join(OUTCOME);
        let text = std::fs::read_to_string(&outcome_file).ok()?;
        let outcome: Outcome = toml::from_str(&text).ok()?;
        // Last use, for eviction; a read-only cache still serves.
        let _ = std::fs::File::options()
            .write(true)
            .open(&outcome_file)
            .and_then(|f| f.set_modified(SystemTime::now()));
        Some((outcome, entry.join(PROGRAM)))
    }

    /// A new, empty entry to build into.
    pub(super) fn begin(&self) -> std::io::Result<Pending> {
        std::fs::create_dir_all(&self.dir)?;
        // Entries hold participants' sources (an interpreted program is
        // its source) and must stay readable by the sandbox's uids: the
        // folder is not listable by others (0711), and an entry's name is a
        // hash of what it holds. (A shared cache of another user's is left
        // as it is.)
        let _ = std::fs::set_permissions(
            &self.dir,
            std::os::unix::fs::PermissionsExt::from_mode(0o711),
        );
        let folder = tempfile::Builder::new()
            .prefix(IN_PROGRESS)
            .tempdir_in(&self.dir)?;
        Ok(Pending { folder })
    }

    /// Where a pending entry's program goes (it does not exist yet).
    pub(super) fn program_of(pending: &Pending) -> PathBuf {
        pending.folder.path().join(PROGRAM)
    }

    /// A scratch folder inside the pending entry (a build's working
    /// folder on the host), removed with it.
    pub(super) fn scratch_in(pending: &Pending, name: &str) -> std::io::Result<PathBuf> {
        let path = pending.folder.path().join(name);
        std::fs::create_dir(&path)?;
        Ok(path)
    }

    /// Writes `outcome` and puts the entry in place as `name`; the
    /// program folder of the entry now in place. Another judge may have
    /// built the same files meanwhile: either copy is fine.
    pub(super) fn commit(
        &self,
        pending: Pending,
        name: &str,
        outcome: &Outcome,
        scratch: Option<&Path>,
    ) -> std::io::Result<PathBuf> {
        if let Some(scratch) = scratch {
            std::fs::remove_dir_all(scratch)?;
        }
        let text = toml::to_string(outcome).map_err(std::io::Error::other)?;
        std::fs::write(pending.folder.path().join(OUTCOME), text)?;
        // Readable by the unprivileged users programs run as.
        std::fs::set_permissions(
            pending.folder.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )?;
        let entry = self.dir.join(name);
        let kept = pending.folder.keep();
        if std::fs::rename(&kept, &entry).is_err() {
            // A folder of that name without a readable outcome (an older
            // judge's layout) is replaced; a complete one stays.
            let complete = std::fs::read_to_string(entry.join(OUTCOME))
                .is_ok_and(|text| toml::from_str::<Outcome>(&text).is_ok());
            if !complete {
                let _ = std::fs::remove_dir_all(&entry);
            }
            if complete || std::fs::rename(&kept, &entry).is_err() {
                let _ = std::fs::remove_dir_all(&kept);
            }
        }
        if matches!(outcome, Outcome::Built { .. }) {
            self.evict(BUDGET);
        }
        Ok(entry.join(PROGRAM))
    }

    /// Removes the least recently used entries until the rest hold at
    /// most `budget` bytes, and builds abandoned by a killed judge.
    pub(super) fn evict(&self, budget: u64) -> Pruned {
        let mut entries = self.entries();
        // Most recently used first: they are kept first.
        entries.sort_by(|a, b| b.used.cmp(&a.used).then_with(|| a.path.cmp(&b.path)));
        let mut pruned = Pruned::default();
        for entry in entries {
            if !entry.abandoned && pruned.kept_bytes + entry.bytes <= budget {
                pruned.kept += 1;
                pruned.kept_bytes += entry.bytes;
            } else if std::fs::remove_dir_all(&entry.path).is_ok() {
                pruned.removed += usize::from(!entry.abandoned);
                pruned.removed_bytes += entry.bytes;
            }
        }
        pruned
    }

    /// Every entry with its size and last use. An entry whose outcome
    /// cannot be read counts as old and as large as its record says (0).
    fn entries(&self) -> Vec<Entry> {
        let Ok(listing) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let now = SystemTime::now();
        listing
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| {
                let path = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with(IN_PROGRESS) {
                    let age = e.metadata().ok()?.modified().ok()?;
                    let abandoned = now.duration_since(age).is_ok_and(|d| d > ABANDONED);
                    return abandoned.then_some(Entry {
                        path,
                        bytes: 0,
                        used: SystemTime::UNIX_EPOCH,
                        abandoned: true,
                    });
                }
                let outcome_file = path.join(OUTCOME);
                let used = std::fs::metadata(&outcome_file)
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                let bytes = std::fs::read_to_string(&outcome_file)
                    .ok()
                    .and_then(|text| toml::from_str::<Outcome>(&text).ok())
                    .map_or(0, |outcome| match outcome {
                        Outcome::Built { bytes } => bytes,
                        Outcome::Rejected { message } | Outcome::Stopped { message } => {
                            message.len() as u64
                        }
                    });
                Some(Entry {
                    path,
                    bytes,
                    used,
                    abandoned: false,
                })
            })
            .collect()
    }
}

struct Entry {
    path: PathBuf,
    bytes: u64,
    used: SystemTime,
    abandoned: bool,
}

/// The name of a cache entry: the user's stem (kept to safe characters, so
/// that a submitter's file name makes no odd folder name), the language
/// key, and the start of the content hash.
pub(super) fn entry_name(label: &str, key: &str, hash: &str) -> String {
    let safe = |text: &str| -> String {
        text.chars()
            .map(|c| match c.is_ascii_alphanumeric() || "_.-".contains(c) {
                true => c,
                false => '_',
            })
            .take(40)
            .collect()
    };
    format!("{}-{}-{}", safe(label), safe(key), &hash[..16])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> (tempfile::TempDir, BuildCache) {
        let dir = tempfile::tempdir().unwrap();
        let cache = BuildCache {
            dir: dir.path().join("judge-cache"),
        };
        (dir, cache)
    }

    fn store(cache: &BuildCache, name: &str, bytes: u64) {
        let pending = cache.begin().unwrap();
        std::fs::create_dir(BuildCache::program_of(&pending)).unwrap();
        cache
            .commit(pending, name, &Outcome::Built { bytes }, None)
            .unwrap();
    }

    #[test]
    fn an_entry_is_found_with_its_outcome_once_committed() {
        let (_dir, cache) = cache();
        assert!(cache.lookup("a-c-0").is_none());
        let pending = cache.begin().unwrap();
        let message = "solution.c:1: error: expected ';'".to_string();
        cache
            .commit(
                pending,
                "a-c-0",
                &Outcome::Rejected {
                    message: message.clone(),
                },
                None,
            )
            .unwrap();
        let (outcome, program) = cache.lookup("a-c-0").unwrap();
        assert_eq!(outcome, Outcome::Rejected { message });
        assert!(program.ends_with("a-c-0/program"));
        assert_eq!(
            std::fs::read_dir(&cache.dir).unwrap().count(),
            1,
            "no folder in progress is left"
        );
    }

    #[test]
    fn the_least_recently_used_entries_go_first() {
        let (_dir, cache) = cache();
        for (name, age) in [("old", 300), ("mid", 200), ("new", 100)] {
            store(&cache, name, 40);
            let outcome = cache.dir.join(name).join(OUTCOME);
            std::fs::File::options()
                .write(true)
                .open(outcome)
                .unwrap()
                .set_modified(SystemTime::now() - Duration::from_secs(age))
                .unwrap();
        }
        // A lookup is a use: `old` becomes the newest.
        assert!(cache.lookup("old").is_some());
        let pruned = cache.evict(80);
        assert_eq!((pruned.removed, pruned.kept, pruned.kept_bytes), (1, 2, 80));
        assert!(cache.dir.join("old").exists());
        assert!(!cache.dir.join("mid").exists());
        assert_eq!(cache.evict(0).removed, 2);
    }

    #[test]
    fn entry_names_keep_to_safe_characters() {
        assert_eq!(
            entry_name("bad\x1b[2Jname", "rust", "0123456789abcdef0123"),
            "bad__2Jname-rust-0123456789abcdef"
        );
    }
}
