//! A student's Git repository at a deadline: the commit to grade, and its
//! files copied out for grading. Read with gix, never with `git`: no hook,
//! filter or configured program of the repository runs, the global and
//! system configuration are not read, and the student's checkout (work
//! tree, index, refs) is never written.
//!
//! The repository is the student's doing, so it is read with limits: the
//! history walked is bounded, only the top folder's regular files are
//! taken (a link, a folder or a submodule is listed, never followed), a
//! file's size is read from its header before the file itself, and a name
//! that could step out of the folder it is written to is refused.
//!
//! Which commit: along HEAD's first parents (the branch as it was
//! advanced), the first one whose committer date is at or before the
//! deadline; or, when late work is accepted, HEAD itself. A commit's date
//! is what the student's machine said: it can be forged, and only the
//! server a class pushes to knows when a push arrived.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// How many commits are walked back from HEAD at most.
const MAX_WALK: usize = 100_000;
/// How many entries of the top folder are looked at at most.
const MAX_ENTRIES: usize = 10_000;

#[derive(Debug, Error)]
#[error("failed to read the Git repository {}: {doing}: {source}", path.display())]
pub(crate) struct GitError {
    pub path: PathBuf,
    pub doing: &'static str,
    #[source]
    pub source: Box<dyn std::error::Error + Send + Sync>,
}

/// Which commit to grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The last one at or before the deadline.
    BeforeDeadline,
    /// HEAD (late work accepted, with a penalty).
    Latest,
}

/// The commit chosen, and what of its top folder was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Picked {
    /// The commit's id, in hex.
    pub commit: String,
    /// Its committer date.
    pub at: jiff::Timestamp,
    /// Entries not copied: (name, why).
    pub skipped: Vec<(String, String)>,
}

/// What a student's repository gives at a deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AtDeadline {
    Picked(Picked),
    /// Every commit is after the deadline: the first one's date.
    NothingBefore(jiff::Timestamp),
    /// No commit at all.
    Empty,
}

/// Whether `dir` holds a Git repository of its own (a `.git` folder, or
/// the `.git` file of a linked work tree).
pub(crate) fn is_repository(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| m.is_dir() || m.is_file())
}

fn fail<'a, E: std::error::Error + Send + Sync + 'static>(
    path: &'a Path,
    doing: &'static str,
) -> impl FnOnce(E) -> GitError + 'a {
    move |e| GitError {
        path: path.to_path_buf(),
        doing,
        source: Box::new(e),
    }
}

fn timestamp(time: gix::date::Time) -> jiff::Timestamp {
    jiff::Timestamp::from_second(time.seconds).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

/// Picks the commit of the repository at `dir` for `deadline` and writes
/// its top folder's regular files into `into` (an empty folder of the
/// judge's), each dated as the commit.
pub(crate) fn read_at_deadline(
    dir: &Path,
    deadline: jiff::Timestamp,
    pick: Pick,
    into: &Path,
    size_limit: u64,
) -> Result<AtDeadline, GitError> {
    let repo = gix::open_opts(dir, gix::open::Options::isolated()).map_err(fail(dir, "open"))?;
    let mut commit = match repo.head_commit() {
        Ok(commit) => commit,
        // An unborn HEAD: nothing committed yet.
        Err(_) if repo.head_id().is_err() => return Ok(AtDeadline::Empty),
        Err(e) => return Err(fail(dir, "find HEAD's commit")(e)),
    };
    let mut walked = 0;
    let at = loop {
        let at = timestamp(commit.time().map_err(fail(dir, "read a commit's date"))?);
        if pick == Pick::Latest || at <= deadline {
            break at;
        }
        walked += 1;
        let parent = commit.parent_ids().next().map(|id| id.detach());
        // The root, a shallow clone's end, or the walk's bound: the
        // earliest commit seen is after the deadline.
        let Some(parent) = parent.filter(|_| walked < MAX_WALK) else {
            return Ok(AtDeadline::NothingBefore(at));
        };
        match repo.find_commit(parent) {
            Ok(parent) => commit = parent,
            Err(_) => return Ok(AtDeadline::NothingBefore(at)),
        }
    };
    let tree = commit.tree().map_err(fail(dir, "read the commit's tree"))?;
    let mut skipped = Vec::new();
    for (n, entry) in tree.iter().enumerate() {
        let entry = entry.map_err(fail(dir, "read the commit's tree"))?;
        let name = String::from_utf8_lossy(entry.filename()).into_owned();
        if n >= MAX_ENTRIES {
            skipped.push((
                name,
                format!("past the first {MAX_ENTRIES} entries: not read"),
            ));
            continue;
        }
        let mode = entry.mode();
        let why = if !safe_name(entry.filename()) {
            Some("a file name that could leave its folder: not taken".to_string())
        } else if mode.is_link() {
            Some("a symbolic link: not graded (the judge follows no link in a class)".into())
        } else if mode.is_tree() {
            Some("a folder: a student's files must sit directly in their folder".into())
        } else if mode.is_commit() {
            Some("a submodule: not followed".into())
        } else {
            None
        };
        if let Some(why) = why {
            skipped.push((name, why));
            continue;
        }
        let id = entry.object_id();
        let size = repo
            .find_header(id)
            .map_err(fail(dir, "read a file's header"))?
            .size();
        if size > size_limit {
            skipped.push((
                name,
                format!("{size} bytes: over the {size_limit} bytes a source file may have"),
            ));
            continue;
        }
        let blob = repo.find_blob(id).map_err(fail(dir, "read a file"))?;
        let path = into.join(std::ffi::OsStr::new(
            std::str::from_utf8(entry.filename()).unwrap_or(&name),
        ));
        write_dated(&path, &blob.data, at).map_err(fail(dir, "copy a file out"))?;
    }
    Ok(AtDeadline::Picked(Picked {
        commit: commit.id.to_hex().to_string(),
        at,
        skipped,
    }))
}

/// A name written into a folder of ours stays in it: no separator, no
/// `.` or `..`, no NUL, valid UTF-8 (file names are problem ids).
fn safe_name(name: &[u8]) -> bool {
    !name.is_empty()
        && name != b"."
        && name != b".."
        && !name.contains(&b'/')
        && !name.contains(&0)
        && std::str::from_utf8(name).is_ok()
}

/// Writes a new file (never through an existing one) dated `at`.
fn write_dated(path: &Path, bytes: &[u8], at: jiff::Timestamp) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(at.as_second().max(0) as u64);
    file.set_modified(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        for bad in [&b""[..], b".", b"..", b"a/b", b"a\0", b"\xff.py"] {
            assert!(!safe_name(bad), "{bad:?}");
        }
        assert!(safe_name(b"sum.py"));
        assert!(safe_name(b".gitignore"));
    }
}
