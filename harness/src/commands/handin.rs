//! `grade --class DIR --deadline WHEN`: what each student handed in by the
//! deadline. A student's folder that is a Git repository is graded at its
//! last commit before the deadline (or at HEAD, when `--late` accepts late
//! work), copied out of the repository; any other folder by its files'
//! modification times, and the output says so.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::Context;
use crate::class::deadline::{Deadline, rfc3339};
use crate::class::git::{self, AtDeadline, Pick};
use crate::class::{Entry, Roster};
use crate::errors::{Error, Result};
use crate::lang::Languages;
use crate::report::gradebook::{Handin, Unmatched};
use crate::report::policy::LateRule;

/// When each graded file was handed in, by (student, problem).
pub(super) type Handins = BTreeMap<(String, String), Handin>;

/// A class at a deadline: the roster to grade, and its hand-ins.
pub(super) struct HandedIn {
    pub roster: Roster,
    pub handins: Handins,
}

fn output(ctx: &mut Context) -> impl FnMut(std::fmt::Arguments<'_>) -> Result<()> + '_ {
    move |line| {
        ctx.out
            .write_fmt(format_args!("{line}\n"))
            .map_err(|source| Error::Report {
                what: "the output".into(),
                source,
            })
    }
}

pub(super) fn roster_at(
    ctx: &mut Context,
    dir: &Path,
    problems: &[&str],
    languages: &Languages,
    deadline: &Deadline,
    late: Option<LateRule>,
) -> Result<HandedIn> {
    let mut roster = Roster::from_folder(dir, problems, languages)?;
    let mut handins = BTreeMap::new();
    let class = Class {
        problems,
        languages,
        deadline,
        late,
    };
    let copies = ctx.scratch.path().join("handed-in");
    let students: Vec<String> = roster.students().iter().map(|s| s.to_string()).collect();
    let (mut repositories, mut folders) = (0, Vec::new());
    for (k, student) in students.iter().enumerate() {
        let folder = dir.join(student);
        if !git::is_repository(&folder) {
            folders.push(student.clone());
            by_file_times(&mut roster, &mut handins, student, deadline, late.is_some());
            continue;
        }
        repositories += 1;
        let base = copies.join(k.to_string());
        by_commit(&mut roster, &mut handins, &class, student, &folder, &base)?;
    }
    roster
        .entries
        .sort_by(|a, b| (&a.student, &a.problem).cmp(&(&b.student, &b.problem)));
    say_how_it_was_read(ctx, &class, repositories, &folders)?;
    Ok(HandedIn { roster, handins })
}

/// What a class is graded on: its problems and languages, the deadline
/// and the late rule.
struct Class<'a> {
    problems: &'a [&'a str],
    languages: &'a Languages,
    deadline: &'a Deadline,
    late: Option<LateRule>,
}

/// A student whose `folder` is a Git repository: their entries read
/// again from the commit picked at the deadline (or at HEAD for late
/// work), copied out under `base`. Without such a commit, the student
/// has an empty entry for each problem, and the roster says why.
fn by_commit(
    roster: &mut Roster,
    handins: &mut Handins,
    class: &Class<'_>,
    student: &String,
    folder: &Path,
    base: &Path,
) -> Result<()> {
    // The student's own entries are read again from the commit.
    roster.entries.retain(|e| &e.student != student);
    roster
        .unmatched
        .retain(|u| u.student.as_deref() != Some(student.as_str()));
    let into = base.join(student);
    std::fs::create_dir_all(&into).map_err(|source| Error::Report {
        what: into.display().to_string(),
        source,
    })?;
    let pick = if class.late.is_some() {
        Pick::Latest
    } else {
        Pick::BeforeDeadline
    };
    let read = git::read_at_deadline(
        folder,
        class.deadline.at,
        pick,
        &into,
        crate::untrusted::SOURCE_LIMIT,
    );
    let unmatched = |path: String, reason: String| Unmatched {
        student: Some(student.clone()),
        path,
        reason,
    };
    let picked = match read {
        Ok(AtDeadline::Picked(picked)) => picked,
        other => {
            let reason = match other {
                Ok(AtDeadline::NothingBefore(first)) => format!(
                    "no commit at or before the deadline (the first is dated {})",
                    rfc3339(first)
                ),
                Ok(AtDeadline::Empty) => "a Git repository with no commit".into(),
                Err(e) => e.to_string(),
                Ok(AtDeadline::Picked(_)) => unreachable!(),
            };
            roster.unmatched.push(unmatched(student.clone(), reason));
            roster.entries.extend(class.problems.iter().map(|p| Entry {
                student: student.clone(),
                problem: p.to_string(),
                file: None,
                shown: String::new(),
            }));
            return Ok(());
        }
    };
    let copied = Roster::from_folder(base, class.problems, class.languages)?;
    for (name, why) in picked.skipped {
        roster
            .unmatched
            .push(unmatched(format!("{student}/{name}"), why));
    }
    roster.unmatched.extend(copied.unmatched);
    for entry in copied.entries {
        if entry.file.is_some() {
            handins.insert(
                (entry.student.clone(), entry.problem.clone()),
                Handin {
                    commit: Some(picked.commit.clone()),
                    at: rfc3339(picked.at),
                    from: "commit".into(),
                    late_seconds: Some(class.deadline.late_by(picked.at)),
                },
            );
        }
        roster.entries.push(entry);
    }
    Ok(())
}

/// The deadline and how each student's work was read: `repositories`
/// at a commit, `folders` by their files' times.
fn say_how_it_was_read(
    ctx: &mut Context,
    class: &Class<'_>,
    repositories: usize,
    folders: &[String],
) -> Result<()> {
    let mut say = output(ctx);
    say(format_args!(
        "deadline {}{}: {repositories} Git repositories read at their commit {}",
        class.deadline.shown,
        class
            .late
            .map(|l| format!(", late work accepted ({})", l.describe()))
            .unwrap_or_default(),
        if class.late.is_some() {
            "at HEAD"
        } else {
            "before the deadline"
        }
    ))?;
    if !folders.is_empty() {
        say(format_args!(
            "not Git repositories, graded by their files' modification times: {}",
            folders
                .iter()
                .map(|s| crate::escape::name(s))
                .collect::<Vec<_>>()
                .join(", ")
        ))?;
    }
    Ok(())
}

/// A folder that is not a repository: each file's modification time is its
/// hand-in time; a file modified after the deadline is not graded unless
/// late work is accepted.
fn by_file_times(
    roster: &mut Roster,
    handins: &mut BTreeMap<(String, String), Handin>,
    student: &str,
    deadline: &Deadline,
    late_accepted: bool,
) {
    for entry in roster.entries.iter_mut().filter(|e| e.student == student) {
        let Some(file) = &entry.file else { continue };
        let modified = std::fs::symlink_metadata(file)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| jiff::Timestamp::try_from(t).ok())
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        let late_seconds = deadline.late_by(modified);
        if late_seconds > 0 && !late_accepted {
            roster.unmatched.push(Unmatched {
                student: Some(student.to_string()),
                path: std::mem::take(&mut entry.shown),
                reason: format!(
                    "modified after the deadline (file time {}); --late accepts late work",
                    rfc3339(modified)
                ),
            });
            entry.file = None;
            continue;
        }
        handins.insert(
            (entry.student.clone(), entry.problem.clone()),
            Handin {
                commit: None,
                at: rfc3339(modified),
                from: "file time".into(),
                late_seconds: Some(late_seconds),
            },
        );
    }
}
