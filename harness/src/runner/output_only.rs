//! Output-only problems (Kattis `submit-answer`, `kind = "output-only"` in
//! `problem.toml`): a submission is its answers, one file per test, and
//! each is judged by the problem's output validator (or comparison) as a
//! program's output would be. No program runs.
//!
//! The one entry point is [`judge_answer`]; the answer set it reads from
//! is made once per submission by [`AnswerSet::read`] (the builder's step
//! for `ProgramRef::Answers`).
//!
//! An answer set is a folder holding a file per test, named by the test's
//! name: its path under `data/` (`secret/g1/01.ans`), or any tail of it
//! that names one test only (`g1/01.ans`, `01.out`), with the extension
//! `.ans` or `.out` (or none). A lone file (not a folder) answers a
//! problem of one test. Samples are tests like the others: a set answers
//! them too. A test without a file is judged as
//! an empty output, as the format's authors settled for missing files
//! (Kattis/problem-package-format issue 46); a file that answers no test
//! is named in the report of the first test and of every test not
//! accepted, never judged.
//!
//! A submitted set is hostile, names included: it is read without
//! following links, never from a FIFO or a device, within limits on
//! depth, count and size (`untrusted`).

use std::collections::BTreeMap;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{Dir, FileType, Mode, OFlags};

use crate::compile::Executable;
use crate::errors::JudgeFailure;
use crate::sandbox::Runs;
use crate::spec::{CompareMode, ProblemSpec, TestCase};
use crate::untrusted::{self, Links, UntrustedFile};
use crate::verdict::Verdict;

use super::TestReport;
use super::judge::{apply_comparison, judge_output, judges_folder};

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

/// One answer of an output-only submission to judge, and what judging it
/// needs.
#[derive(Clone, Copy)]
pub struct AnswerRun<'a> {
    pub sandbox: &'a dyn Runs,
    pub problem: &'a ProblemSpec,
    /// The problem's built output validator or checker, when it has one.
    pub checker: Option<&'a Executable>,
    pub answers: &'a AnswerSet,
    pub test: &'a TestCase,
    /// An empty folder of this worker's (the checker's folder goes beside it).
    pub workdir: &'a Path,
}

/// Judges the submission's answer to the test: the output validator (or
/// the problem's comparison) on the answer file as on a program's output.
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

/// A missing answer is judged as an empty output, and said so; an answer
/// above the output limit is OLE.
pub fn judge_answer(run: &AnswerRun<'_>) -> TestReport {
    let AnswerRun {
        sandbox,
        problem,
        checker,
        answers,
        test,
        workdir,
    } = *run;
    let mut report = TestReport::unjudged(test);
    let (output, missing) = match answers.answer_for(test, &problem.tests) {
        Ok(bytes) => (bytes, None),
        Err(why) => (&[][..], Some(why)),
    };
    report.metrics.output_bytes = output.len() as u64;
    if output.len() as u64 > problem.limits.output {
        report.verdict = Verdict::OutputLimitExceeded;
        report.detail = Some(format!(
            "the answer is larger than the output limit ({})",
            bytesize::ByteSize(problem.limits.output)
        ));
        return report;
    }
    let folder = match &problem.compare.mode {
        CompareMode::Checker(_) => match judges_folder(workdir, "checker") {
            Ok(folder) => Some(folder),
            Err(e) => {
                let failure = JudgeFailure::judge("create a folder for the checker", e);
                apply_comparison(&mut report, Err(failure), false);
                return report;
            }
        },
        _ => None,
    };
    let scratch = folder.as_ref().map_or(workdir, |f| f.path());
    let comparison = judge_output(sandbox, problem, checker, test, output, scratch);
    apply_comparison(&mut report, comparison, problem.presentation_errors);
    // Stray files are named where the submitter looks: on the first test
    // and on every test not accepted.
    let first = problem.tests.first().is_some_and(|t| t.name == test.name);
    let unused = match first || report.verdict != Verdict::Accepted {
        true => answers.unused(&problem.tests),
        false => Vec::new(),
    };
    let notes: Vec<String> = missing
        .map(|why| format!("{why}: judged as an empty answer"))
        .into_iter()
        .chain((!unused.is_empty()).then(|| {
            format!(
                "answer files for no test, not judged: {}",
                unused.join(", ")
            )
        }))
        .collect();
    if !notes.is_empty() {
        report.detail = Some(
            notes
                .into_iter()
                .chain(report.detail.take())
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    report
}

#[cfg(test)]
#[path = "output_only_tests.rs"]
mod tests;
