//! A class: which student submitted which file for which problem. Read from
//! a folder per student (a file's stem names its problem:
//! `alice/grid-game.cpp` is Alice's `grid-game`) or from a manifest (CSV:
//! student, problem, path). Every student gets an entry for every problem,
//! with no file when they submitted none; every file that is not graded is
//! listed as unmatched with the reason, never dropped.
//!
//! A class folder is the students' doing: a link is never followed (a
//! student's file linking to another's would be graded as theirs), and
//! only regular files are graded (a FIFO would hold the judge up).

pub(crate) mod deadline;
pub(crate) mod git;
mod partition;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub(crate) use partition::Partition;

use crate::errors::Error;
use crate::lang::Languages;
use crate::report::gradebook::Unmatched;
use crate::spec::SpecError;

/// One student's submission for one problem, or the lack of one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub student: String,
    pub problem: String,
    /// The file to grade; `None`: no submission.
    pub file: Option<PathBuf>,
    /// The file as reports show it: relative to the class folder, or as the
    /// manifest wrote it.
    pub shown: String,
}

#[derive(Debug, Default)]
pub(crate) struct Roster {
    /// Sorted by student, then problem.
    pub entries: Vec<Entry>,
    pub unmatched: Vec<Unmatched>,
}

fn read_error(path: &Path, source: std::io::Error) -> Error {
    SpecError::Read {
        path: path.to_path_buf(),
        source,
    }
    .into()
}

fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// Candidates for one student: problem → files.
type Candidates = BTreeMap<String, Vec<(PathBuf, String)>>;

impl Roster {
    /// A class folder: one folder per student.
    pub(crate) fn from_folder(
        dir: &Path,
        problems: &[&str],
        languages: &Languages,
    ) -> Result<Roster, Error> {
        let mut roster = Roster::default();
        let mut students: BTreeMap<String, Candidates> = BTreeMap::new();
        for (entry, kind) in sorted_entries(dir)? {
            let name = name_of(&entry);
            if kind.is_symlink() {
                roster.unmatch(None, name, NOT_FOLLOWED.into());
                continue;
            }
            if !kind.is_dir() {
                roster.unmatch(None, name, "not in a student's folder".into());
                continue;
            }
            let candidates = students.entry(name.clone()).or_default();
            for (file, kind) in sorted_entries(&entry)? {
                let shown = format!("{name}/{}", name_of(&file));
                if kind.is_dir() {
                    let why = "a folder: a student's files must sit directly in their folder";
                    roster.unmatch(Some(&name), shown, why.into());
                    continue;
                }
                if let Some(why) = not_gradable(kind) {
                    roster.unmatch(Some(&name), shown, why);
                    continue;
                }
                match classify(&file, problems, languages) {
                    Ok(problem) => candidates.entry(problem).or_default().push((file, shown)),
                    Err(why) => roster.unmatch(Some(&name), shown, why.to_string()),
                }
            }
        }
        for (student, candidates) in students {
            roster.add_student(&student, candidates, problems);
        }
        Ok(roster)
    }

    /// A manifest: CSV rows `student,problem,path` (a header row with those
    /// names is skipped), paths relative to the manifest's folder.
    pub(crate) fn from_manifest(
        manifest: &Path,
        problems: &[&str],
        languages: &Languages,
    ) -> Result<Roster, Error> {
        let text = std::fs::read_to_string(manifest).map_err(|e| read_error(manifest, e))?;
        let base = manifest.parent().unwrap_or(Path::new("."));
        let mut roster = Roster::default();
        let mut students: BTreeMap<String, Candidates> = BTreeMap::new();
        for (line, row) in crate::report::csv::parse(&text).into_iter().enumerate() {
            let row: Vec<&str> = row.iter().map(|f| f.trim()).collect();
            if row.iter().all(|f| f.is_empty()) {
                continue;
            }
            if line == 0
                && row
                    .iter()
                    .map(|f| f.to_ascii_lowercase())
                    .eq(["student", "problem", "path"])
            {
                continue;
            }
            let [student, problem, path] = row[..] else {
                return Err(Error::Usage(format!(
                    "{}: row {}: expected 3 fields (student, problem, path), found {}",
                    manifest.display(),
                    line + 1,
                    row.len()
                )));
            };
            let candidates = students.entry(student.to_string()).or_default();
            let file = base.join(path);
            let shown = path.to_string();
            let kind = std::fs::symlink_metadata(&file).map(|m| m.file_type());
            if !problems.contains(&problem) {
                roster.unmatch(Some(student), shown, format!("no problem `{problem}`"));
            } else if let Some(why) = kind.as_ref().ok().and_then(|kind| not_gradable(*kind)) {
                roster.unmatch(Some(student), shown, why);
            } else if !kind.is_ok_and(|kind| kind.is_file()) {
                roster.unmatch(Some(student), shown, "no such file".into());
            } else if languages.for_file(&file).is_none() {
                roster.unmatch(Some(student), shown, no_language(&file).to_string());
            } else {
                candidates
                    .entry(problem.to_string())
                    .or_default()
                    .push((file, shown));
            }
        }
        for (student, candidates) in students {
            roster.add_student(&student, candidates, problems);
        }
        Ok(roster)
    }

    fn unmatch(&mut self, student: Option<&str>, path: String, reason: String) {
        self.unmatched.push(Unmatched {
            student: student.map(str::to_string),
            path,
            reason,
        });
    }

    /// An entry per problem for `student`. Of several files for one
    /// problem the most recently modified is graded (the student's last
    /// word); the others are listed as unmatched.
    fn add_student(&mut self, student: &str, mut candidates: Candidates, problems: &[&str]) {
        let sorted: BTreeSet<&str> = problems.iter().copied().collect();
        for problem in sorted {
            let mut files = candidates.remove(problem).unwrap_or_default();
            files.sort_by_key(|(file, _)| {
                std::fs::symlink_metadata(file)
                    .and_then(|m| m.modified())
                    .ok()
            });
            let chosen = files.pop();
            for (_, shown) in files {
                let graded = chosen.as_ref().map(|(_, s)| s.as_str()).unwrap_or_default();
                let why = format!("another file for `{problem}` is newer and graded: {graded}");
                self.unmatch(Some(student), shown, why);
            }
            let (file, shown) = match chosen {
                Some((file, shown)) => (Some(file), shown),
                None => (None, String::new()),
            };
            self.entries.push(Entry {
                student: student.to_string(),
                problem: problem.to_string(),
                file,
                shown,
            });
        }
    }

    /// Keeps what belongs to one shard: entries by student and problem,
    /// unmatched files by student and path.
    pub(crate) fn shard(mut self, partition: Partition) -> Roster {
        self.entries
            .retain(|e| partition.contains(&e.student, &e.problem));
        self.unmatched
            .retain(|u| partition.contains(u.student.as_deref().unwrap_or_default(), &u.path));
        self
    }

    /// The students, in order.
    pub(crate) fn students(&self) -> Vec<&str> {
        let mut students: Vec<&str> = self.entries.iter().map(|e| e.student.as_str()).collect();
        students.dedup();
        students
    }
}

/// Why a student's entry is listed but never followed.
const NOT_FOLLOWED: &str = "a symbolic link: not followed (the judge follows no link in a class)";

/// Why a file that is neither a folder nor a regular file is not graded.
fn not_gradable(kind: std::fs::FileType) -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_symlink() {
        Some("a symbolic link: not graded (the judge follows no link in a class)".into())
    } else if kind.is_file() || kind.is_dir() {
        None
    } else {
        let what = match kind {
            k if k.is_fifo() => "a FIFO",
            k if k.is_socket() => "a socket",
            k if k.is_char_device() || k.is_block_device() => "a device",
            _ => "an unknown kind of file",
        };
        Some(format!("{what}: not a regular file, not graded"))
    }
}

/// Why a student's file is for no problem.
#[derive(Debug, thiserror::Error)]
enum Unclassified {
    #[error("no problem `{stem}`")]
    UnknownProblem { stem: String },
    #[error("no language for .{extension}")]
    UnknownLanguage { extension: String },
    #[error("no extension: no language")]
    NoExtension,
}

fn no_language(file: &Path) -> Unclassified {
    match file.extension() {
        Some(ext) => Unclassified::UnknownLanguage {
            extension: ext.to_string_lossy().into_owned(),
        },
        None => Unclassified::NoExtension,
    }
}

/// The problem a student's file is for, or why it is for none.
fn classify(file: &Path, problems: &[&str], languages: &Languages) -> Result<String, Unclassified> {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !problems.contains(&stem.as_str()) {
        return Err(Unclassified::UnknownProblem { stem });
    }
    if languages.for_file(file).is_none() {
        return Err(no_language(file));
    }
    Ok(stem)
}

/// The entries of `dir`, sorted, each with its own type (a link is a
/// link, not what it points to).
fn sorted_entries(dir: &Path) -> Result<Vec<(PathBuf, std::fs::FileType)>, Error> {
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = std::fs::read_dir(dir)
        .map_err(|e| read_error(dir, e))?
        .map(|entry| entry.and_then(|e| Ok((e.path(), e.file_type()?))))
        .collect::<Result<_, _>>()
        .map_err(|e| read_error(dir, e))?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
    }

    #[test]
    fn a_folder_per_student_gives_an_entry_per_problem_and_lists_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path();
        touch(&class.join("alice/sum.py"));
        touch(&class.join("alice/guess.rs"));
        touch(&class.join("alice/notes.txt"));
        touch(&class.join("bob/sum.c"));
        touch(&class.join("bob/sum.java9"));
        touch(&class.join("bob/old/sum.c"));
        touch(&class.join("README"));
        let languages = Languages::load(None).unwrap();
        let roster = Roster::from_folder(class, &["sum", "guess"], &languages).unwrap();
        let entries: Vec<(&str, &str, &str)> = roster
            .entries
            .iter()
            .map(|e| (e.student.as_str(), e.problem.as_str(), e.shown.as_str()))
            .collect();
        assert_eq!(
            entries,
            [
                ("alice", "guess", "alice/guess.rs"),
                ("alice", "sum", "alice/sum.py"),
                ("bob", "guess", ""),
                ("bob", "sum", "bob/sum.c"),
            ]
        );
        assert!(roster.entries[2].file.is_none());
        let unmatched: Vec<(&str, &str)> = roster
            .unmatched
            .iter()
            .map(|u| (u.path.as_str(), u.reason.as_str()))
            .collect();
        assert!(unmatched.contains(&("alice/notes.txt", "no problem `notes`")));
        assert!(unmatched.contains(&("bob/sum.java9", "no language for .java9")));
        assert!(unmatched.contains(&("README", "not in a student's folder")));
        assert!(unmatched.iter().any(|(p, _)| *p == "bob/old"));
        assert_eq!(roster.students(), ["alice", "bob"]);
    }

    #[test]
    fn of_two_files_for_a_problem_the_newer_is_graded() {
        let dir = tempfile::tempdir().unwrap();
        let (old, new) = (dir.path().join("ann/sum.c"), dir.path().join("ann/sum.py"));
        touch(&old);
        touch(&new);
        let age = |path: &Path, seconds: u64| {
            let time = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(seconds);
            std::fs::File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(time)
                .unwrap();
        };
        age(&old, 2_000_000_000);
        age(&new, 1_000_000_000);
        let languages = Languages::load(None).unwrap();
        let roster = Roster::from_folder(dir.path(), &["sum"], &languages).unwrap();
        assert_eq!(roster.entries[0].shown, "ann/sum.c");
        assert_eq!(roster.unmatched.len(), 1);
        assert_eq!(roster.unmatched[0].path, "ann/sum.py");
        assert!(
            roster.unmatched[0]
                .reason
                .contains("newer and graded: ann/sum.c")
        );
    }

    #[test]
    fn links_and_fifos_are_listed_and_never_graded() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path();
        touch(&class.join("bob/sum.c"));
        std::fs::create_dir_all(class.join("mallory")).unwrap();
        std::os::unix::fs::symlink(class.join("bob/sum.c"), class.join("mallory/sum.c")).unwrap();
        std::os::unix::fs::symlink(class.join("bob"), class.join("eve")).unwrap();
        std::fs::create_dir_all(class.join("trent")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            class.join("trent/sum.c"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        let languages = Languages::load(None).unwrap();
        let roster = Roster::from_folder(class, &["sum"], &languages).unwrap();
        let graded: Vec<(&str, Option<&Path>)> = roster
            .entries
            .iter()
            .map(|e| (e.student.as_str(), e.file.as_deref()))
            .collect();
        assert_eq!(
            graded,
            [
                ("bob", Some(class.join("bob/sum.c").as_path())),
                ("mallory", None),
                ("trent", None)
            ]
        );
        let reason = |path: &str| {
            roster
                .unmatched
                .iter()
                .find(|u| u.path == path)
                .map(|u| u.reason.clone())
                .unwrap_or_default()
        };
        assert!(reason("mallory/sum.c").contains("a symbolic link: not graded"));
        assert!(reason("eve").contains("a symbolic link: not followed"));
        assert!(reason("trent/sum.c").contains("a FIFO: not a regular file"));
    }

    #[test]
    fn a_manifest_names_files_anywhere() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("files/a1.py"));
        touch(&dir.path().join("files/b1.cpp"));
        let manifest = dir.path().join("class.csv");
        std::fs::write(
            &manifest,
            "student,problem,path\n\"Doe, Ann\",sum,files/a1.py\nbob,sum,files/b1.cpp\nbob,nope,files/b1.cpp\ncyd,sum,files/missing.py\n",
        )
        .unwrap();
        let languages = Languages::load(None).unwrap();
        let roster = Roster::from_manifest(&manifest, &["sum"], &languages).unwrap();
        assert_eq!(roster.students(), ["Doe, Ann", "bob", "cyd"]);
        assert_eq!(roster.entries[0].shown, "files/a1.py");
        assert!(roster.entries[2].file.is_none());
        assert_eq!(roster.unmatched.len(), 2);
    }
}
