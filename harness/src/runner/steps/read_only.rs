//! 2025-09 `allow_file_writing: false` (the default): a submission may
//! only read in its working folder. The box gives every run a writable
//! folder (a tmpfs charged to the output limit, or a folder of the host),
//! at every isolation level; so the judge looks at the folder after a run
//! that ended well and judges a run that left anything there but the
//! test's own `.files`, unchanged, as a run-time error: it wrote where the
//! problem forbids writing (the specification names no verdict; a read-only
//! folder would have made the write fail, which a program meets as an
//! error). A run that failed by itself keeps its own verdict.

use std::path::PathBuf;

use crate::sandbox::{Collect, CollectError, Collected, SeedFile};

use super::TestRun;

/// How much a run may have written for the judge to copy it out and name
/// the first file; past that, the message says only that it wrote.
const WRITTEN_NAMED_BYTES: u64 = 64 << 10;
const WRITTEN_NAMED_FILES: u64 = 16;

/// What the folder is compared with after the run.
pub(super) struct ReadOnly {
    into: PathBuf,
    seed: Vec<SeedFile>,
}

/// When `run`'s problem forbids writing: the collection that takes the
/// folder out after the run (into a folder beside the run's own), and what
/// it is compared with.
pub(super) fn watch(run: &TestRun<'_>, seed: &[SeedFile]) -> Option<(Collect, ReadOnly)> {
    let package = run.problem.package.as_deref()?;
    if !package.rules.read_only_folder {
        return None;
    }
    let mut name = run.workdir.file_name()?.to_os_string();
    name.push(".written");
    let into = run.workdir.with_file_name(name);
    let _ = std::fs::remove_dir_all(&into);
    let bytes: u64 = seed.iter().map(|(_, b)| b.len() as u64).sum();
    let collect = Collect {
        whatever_the_exit: false,
        into: into.clone(),
        // A little more than the test's own files: enough to tell that
        // the run wrote, and to name what it wrote when that is small.
        max_bytes: bytes + WRITTEN_NAMED_BYTES,
        max_files: seed.len() as u64 + WRITTEN_NAMED_FILES,
        working_bytes: run.problem.limits.output,
    };
    Some((
        collect,
        ReadOnly {
            into,
            seed: seed.to_vec(),
        },
    ))
}

impl ReadOnly {
    /// Why the run broke the rule, if it did; the collected copy is
    /// removed either way. `None` also when nothing was collected (a run
    /// that failed by itself, or a box that collects nothing).
    pub(super) fn written(
        self,
        collected: Option<&Result<Collected, CollectError>>,
    ) -> Option<String> {
        let found = match collected? {
            Err(CollectError::TooLarge { .. } | CollectError::TooMany { .. }) => {
                Some("more than the test's own files".to_string())
            }
            Err(CollectError::Io(_)) => None,
            Ok(collected) if !collected.left.is_empty() => Some(collected.left[0].clone()),
            Ok(_) => self.changed(),
        };
        let _ = std::fs::remove_dir_all(&self.into);
        found.map(|what| {
            format!(
                "wrote in its working folder ({}), which is read-only: allow_file_writing is false",
                crate::escape::visible(&what)
            )
        })
    }

    /// The first entry of the copy that is not one of the test's files as
    /// they were placed.
    fn changed(&self) -> Option<String> {
        let mut files = 0;
        for entry in walkdir::WalkDir::new(&self.into)
            .min_depth(1)
            .sort_by_file_name()
        {
            let Ok(entry) = entry else {
                return Some("an unreadable entry".into());
            };
            let relative = entry
                .path()
                .strip_prefix(&self.into)
                .unwrap_or(entry.path());
            let shown = || relative.to_string_lossy().into_owned();
            if entry.file_type().is_dir() {
                if !self.seed.iter().any(|(path, _)| path.starts_with(relative)) {
                    return Some(shown());
                }
                continue;
            }
            files += 1;
            let placed = self.seed.iter().find(|(path, _)| path == relative);
            match (placed, std::fs::read(entry.path())) {
                (Some((_, bytes)), Ok(now)) if *bytes == now => {}
                _ => return Some(shown()),
            }
        }
        // A file of the test's own that is gone was deleted.
        (files != self.seed.len()).then(|| "a file of the test's deleted".to_string())
    }
}
