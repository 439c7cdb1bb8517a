//! One stored submission judged: its source written where it builds, its
//! one task planned, run in the caller's box or pool.

use std::io;
use std::path::{Path, PathBuf};

use super::ServedProblem;
use crate::compile::Builds;
use crate::lang::Languages;
use crate::owner::Owner;
use crate::pipeline::{Run, RunOptions};
use crate::report::Reporter;
use crate::runner::{Event, Place, Reuse, RunPlan, TaskReport};
use crate::spec::{ProblemSpec, ProgramRef};
use crate::verdict::Verdict;

/// A submission as the store keeps it, to judge.
pub(crate) struct Stored<'a> {
    pub(crate) owner: Owner,
    /// As reports name it (`#12 sum.py`).
    pub(crate) name: String,
    pub(crate) language: &'a str,
    /// As handed in (never a path: only its letters make the file's name).
    pub(crate) file_name: &'a str,
    pub(crate) source: &'a [u8],
}

/// How a judging ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    Judged(TaskReport),
    /// Stopped by Ctrl-C or SIGTERM: no result (it is judged again).
    Stopped,
    /// The judge ran out of file descriptors (EMFILE, ENFILE): the judge's
    /// trouble, never the submission's, so no result but a retry.
    OutOfDescriptors,
}

/// The plan of judging `submission` of `problem` (its own limits, or a
/// copy under other ones: a queued job's): the source written in
/// `folder`, built with `builder`, one task.
pub(crate) fn plan<'p>(
    problem: &ServedProblem,
    spec: &'p ProblemSpec,
    submission: &Stored<'_>,
    builder: &mut dyn Builds,
    folder: &Path,
    stop_at_first_failure: bool,
) -> Result<RunPlan<'p>, io::Error> {
    let languages = builder.languages().clone();
    let source = write_source(
        folder,
        submission.language,
        submission.file_name,
        submission.source,
        &languages,
    )?;
    let task = problem.judges.task(
        spec,
        &ProgramRef::Submitted(source),
        |program| builder.build(program),
        submission.owner.clone(),
        submission.name.clone(),
    );
    Ok(RunPlan {
        tasks: vec![task],
        stop_at_first_failure,
        jobs: 1,
    })
}

/// Runs `plan` in `place` (stored results from `reuse` standing in where
/// it has them), `live` following its events; `folder` (which `plan`
/// wrote the source in, and where run folders are made for a pool) is
/// left holding the source, for its owner to remove or to reuse.
pub(crate) fn run(
    plan: &RunPlan<'_>,
    reuse: Option<&dyn Reuse>,
    place: Place<'_>,
    live: Option<&mut dyn Reporter>,
    folder: &Path,
    cancelled: impl Fn() -> bool,
) -> Outcome {
    let mut run = Run::new("serve", &RunOptions::default());
    if let Some(live) = live {
        run.subscribe(Following(live));
    }
    let mut reports = run.execute(plan, reuse, place, folder);
    if cancelled() {
        return Outcome::Stopped;
    }
    match reports.pop() {
        Some(report) if out_of_descriptors(&report) => Outcome::OutOfDescriptors,
        Some(report) => Outcome::Judged(report),
        None => Outcome::Stopped,
    }
}

/// A caller's reporter, followed for one run.
struct Following<'a>(&'a mut dyn Reporter);

impl Reporter for Following<'_> {
    fn report_event(&mut self, event: &Event<'_>) -> io::Result<()> {
        self.0.report_event(event)
    }
}

/// The submission's source in `folder`, under a name the language table
/// builds (the participant's file name is never a path: only its letters,
/// digits and `_` are kept, for Java's class name), and nothing else: a
/// folder kept for many submissions is emptied of the last one's files,
/// a file of the same name written over in place (a fresh file for each
/// submission cost a judging thread more than its own work: see
/// `runner::Place::Here`).
fn write_source(
    folder: &Path,
    language: &str,
    file_name: &str,
    source: &[u8],
    languages: &Languages,
) -> Result<PathBuf, io::Error> {
    std::fs::create_dir_all(folder)?;
    let extension = languages
        .get(language)
        .and_then(|l| l.extensions.first().cloned())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("no language `{language}`"),
            )
        })?;
    let path = folder.join(format!("{}.{extension}", safe_stem(file_name)));
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        if entry.path() == path && entry.file_type()?.is_file() {
            continue;
        }
        match entry.file_type()?.is_dir() {
            true => std::fs::remove_dir_all(entry.path())?,
            false => std::fs::remove_file(entry.path())?,
        }
    }
    std::fs::write(&path, source)?;
    Ok(path)
}

/// A file stem made of ASCII letters, digits and `_`, starting with a
/// letter (`Main` when nothing is left).
fn safe_stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
    let kept: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(64)
        .collect();
    if kept.starts_with(|c: char| c.is_ascii_alphabetic()) {
        kept
    } else {
        "Main".into()
    }
}

/// Whether `text` (an error's or a report's words) says the judge ran out
/// of file descriptors.
pub(crate) fn says_out_of_descriptors(text: &str) -> bool {
    [libc::EMFILE, libc::ENFILE]
        .iter()
        .any(|&code| text.contains(&io::Error::from_raw_os_error(code).to_string()))
}

/// Whether a judging's report is a judge error that came of running out
/// of file descriptors.
fn out_of_descriptors(report: &TaskReport) -> bool {
    report.verdict == Verdict::JudgeError
        && (report
            .message
            .as_deref()
            .is_some_and(says_out_of_descriptors)
            || report
                .tests
                .iter()
                .filter(|t| t.verdict == Verdict::JudgeError)
                .any(|t| t.detail.as_deref().is_some_and(says_out_of_descriptors)))
}

#[cfg(test)]
mod tests {
    use super::{safe_stem, says_out_of_descriptors, write_source};

    #[test]
    fn a_kept_source_folder_holds_only_the_latest_source() {
        let languages = crate::lang::Languages::load(None).unwrap();
        let folder = tempfile::tempdir().unwrap();
        let first = write_source(folder.path(), "python", "a.py", b"1", &languages).unwrap();
        std::fs::create_dir(folder.path().join("left-over")).unwrap();
        let second = write_source(folder.path(), "python", "b.py", b"2", &languages).unwrap();
        let again = write_source(folder.path(), "python", "b.py", b"3", &languages).unwrap();
        assert_eq!(second, again);
        assert!(!first.exists());
        let names: Vec<_> = std::fs::read_dir(folder.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["b.py"]);
        assert_eq!(std::fs::read(&again).unwrap(), b"3");
    }

    #[test]
    fn a_file_name_never_becomes_a_path() {
        assert_eq!(safe_stem("../../etc/passwd"), "passwd");
        assert_eq!(safe_stem("Main.java"), "Main");
        assert_eq!(safe_stem("1.py"), "Main");
        assert_eq!(safe_stem("sol\u{202e}ution.cpp"), "solution");
    }

    #[test]
    fn running_out_of_descriptors_is_told_from_other_failures() {
        let emfile = std::io::Error::from_raw_os_error(libc::EMFILE);
        assert!(says_out_of_descriptors(&format!(
            "failed to spawn the program: {emfile}"
        )));
        let other = std::io::Error::from_raw_os_error(libc::ENOENT);
        assert!(!says_out_of_descriptors(&format!("failed: {other}")));
    }
}
