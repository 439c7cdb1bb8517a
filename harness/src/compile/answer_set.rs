//! An output-only problem's submission: its answer files, read once per
//! submission by [`AnswerSet::read`] (the builder's step for
//! `ProgramRef::Answers`) and judged by the output-only kind
//! (`runner/output_only.rs`).
//!
//! An answer set is a folder holding a file per test, named by the test's
//! name: its path under `data/` (`secret/g1/01.ans`), or any tail of it
//! that names one test only (`g1/01.ans`, `01.out`), with the extension
//! `.ans` or `.out` (or none). A lone file (not a folder) answers a
//! problem of one test. Samples are tests like the others: a set answers
//! them too.
//!
//! A submitted set is hostile, names included: it is read without
//! following links, never from a FIFO or a device, within limits on
//! depth, count and size (`untrusted`).

use std::collections::BTreeMap;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{Dir, FileType, Mode, OFlags};

use crate::spec::TestCase;
use crate::untrusted::{self, Links, UntrustedFile};

/// The most files an answer set may hold.
const MAX_FILES: usize = 10_000;
/// The deepest folder of an answer set (`secret/group/sub/01.ans`).
const MAX_DEPTH: usize = 6;
/// The largest answer file read (a larger one is the submitter's error);
/// the problem's output limit then applies to each answer.
const MAX_FILE: u64 = 256 << 20;
/// All answer files together.
const MAX_TOTAL: u64 = 1 << 30;

/// A submission of an output-only problem: its answer files, by their path
/// inside the set (`secret/01.ans`), read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerSet {
    /// The folder or file it was read from, for messages.
    pub source: PathBuf,
    /// Answer files by relative path, `/`-separated.
    files: BTreeMap<String, Vec<u8>>,
    /// A lone file rather than a folder: the answer to the only test.
    lone: bool,
}

/// Why a test has no answer in a submission's answer set; names are
/// shown escaped (they are the submitter's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoAnswer {
    #[error(
        "{shown} is one file, and this problem has {tests} tests: hand in a folder of answer files named after the tests"
    )]
    LoneFile { shown: String, tests: usize },
    #[error("more than one answer file for {test}")]
    Several { test: String },
    #[error("no answer file for {test}")]
    None { test: String },
}

impl AnswerSet {
    /// Reads the answer set at `path` (a folder, or a lone file). `links`:
    /// `Refuse` for a submitted set, whose links are never followed.
    pub(crate) fn read(path: &Path, links: Links) -> Result<AnswerSet, UntrustedFile> {
        let is_dir = match links {
            Links::Follow => path.is_dir(),
            Links::Refuse => std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()),
        };
        if !is_dir {
            let bytes = untrusted::read(path, links, MAX_FILE)?;
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            return Ok(AnswerSet {
                source: path.to_path_buf(),
                files: BTreeMap::from([(name, bytes)]),
                lone: true,
            });
        }
        let dir = untrusted::open_dir(path, links)?;
        let mut set = AnswerSet {
            source: path.to_path_buf(),
            files: BTreeMap::new(),
            lone: false,
        };
        let mut total = 0;
        read_folder(&dir, path, "", 0, links, &mut set.files, &mut total)?;
        Ok(set)
    }

    /// The answer to `test` among `tests` (the problem's): the file named
    /// by its whole name, else by the one tail of its name that no other
    /// test shares. `Err` says why none is taken.
    pub fn answer_for(&self, test: &TestCase, tests: &[TestCase]) -> Result<&[u8], NoAnswer> {
        if self.lone {
            return match (tests, self.files.values().next()) {
                ([only], Some(bytes)) if only.name == test.name => Ok(bytes),
                _ => Err(NoAnswer::LoneFile {
                    shown: untrusted::shown(&self.source),
                    tests: tests.len(),
                }),
            };
        }
        let mut found = None;
        for (file, bytes) in &self.files {
            if names_test(file, &test.name)
                && tests
                    .iter()
                    .filter(|other| names_test(file, &other.name))
                    .count()
                    == 1
            {
                if found.is_some() {
                    return Err(NoAnswer::Several {
                        test: crate::escape::name(&test.name),
                    });
                }
                found = Some(bytes.as_slice());
            }
        }
        found.ok_or_else(|| NoAnswer::None {
            test: crate::escape::name(&test.name),
        })
    }

    /// The files that answer none of `tests`, as the submitter named them.
    pub fn unused(&self, tests: &[TestCase]) -> Vec<String> {
        if self.lone {
            return Vec::new();
        }
        self.files
            .keys()
            .filter(|file| tests.iter().filter(|t| names_test(file, &t.name)).count() != 1)
            .map(|file| crate::escape::name(file))
            .collect()
    }
}

/// Whether the answer file `file` names the test `name`: without its
/// extension (`.ans`, `.out`, or none) it is the name or a tail of it on a
/// `/` boundary.
fn names_test(file: &str, name: &str) -> bool {
    let stem = file
        .strip_suffix(".ans")
        .or_else(|| file.strip_suffix(".out"))
        .unwrap_or(file);
    !stem.is_empty()
        && (stem == name
            || name
                .strip_suffix(stem)
                .is_some_and(|head| head.ends_with('/')))
}

/// Reads every regular file under the folder `dir` (at `path`, `prefix`
/// inside the set) into `files`. Hidden files (`.git`, `.DS_Store`) are
/// left out, as the package format leaves them out.
fn read_folder(
    dir: &OwnedFd,
    path: &Path,
    prefix: &str,
    depth: usize,
    links: Links,
    files: &mut BTreeMap<String, Vec<u8>>,
    total: &mut u64,
) -> Result<(), UntrustedFile> {
    let io = |source: std::io::Error| UntrustedFile::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut names = Vec::new();
    for entry in Dir::read_from(dir).map_err(|e| io(e.into()))? {
        let entry = entry.map_err(|e| io(e.into()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with('.') || name.contains('/')) {
            names.push((name, entry.file_type() == FileType::Directory));
        }
    }
    names.sort();
    for (name, is_dir) in names {
        let inside = format!("{prefix}{name}");
        let here = path.join(&name);
        if is_dir {
            if depth + 1 >= MAX_DEPTH {
                return Err(UntrustedFile::Io {
                    path: here,
                    source: std::io::Error::other(format!(
                        "folders nested deeper than {MAX_DEPTH}"
                    )),
                });
            }
            let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            if links == Links::Refuse {
                flags |= OFlags::NOFOLLOW;
            }
            let sub =
                rustix::fs::openat(dir, name.as_str(), flags, Mode::empty()).map_err(|e| {
                    UntrustedFile::Io {
                        path: here.clone(),
                        source: e.into(),
                    }
                })?;
            read_folder(
                &sub,
                &here,
                &format!("{inside}/"),
                depth + 1,
                links,
                files,
                total,
            )?;
            continue;
        }
        if files.len() >= MAX_FILES {
            return Err(UntrustedFile::Io {
                path: path.to_path_buf(),
                source: std::io::Error::other(format!("more than {MAX_FILES} files")),
            });
        }
        let bytes = untrusted::read_in(dir, path, &name, links, MAX_FILE)?;
        *total += bytes.len() as u64;
        if *total > MAX_TOTAL {
            return Err(UntrustedFile::TooLarge {
                path: path.to_path_buf(),
                limit: MAX_TOTAL,
            });
        }
        files.insert(inside, bytes);
    }
    Ok(())
}

#[cfg(test)]
#[path = "answer_set_tests.rs"]
mod tests;
