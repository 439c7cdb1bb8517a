//! `judge report`: any report of a stored grading or session, running
//! nothing. A store holds many runs (every `grade --class`, every session
//! of `judge serve`), so the report first says which one it shows, and
//! when it picked one unasked, which other sessions it could have shown:
//! a teacher who starts a second session must not mistake its empty
//! gradebook for the first one's (issue 33).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Context;
use super::class::{create, io, policy_for, write_gradebook, write_reports};
use crate::cli::{GradebookArgs, ReportArgs, TeacherArgs};
use crate::errors::{Error, Result};
use crate::escape;
use crate::report::gradebook::{Gradebook, RunInfo};
use crate::report::policy::Policy;
use crate::report::table;
use crate::store::sessions::StoredSession;
use crate::store::{self, Store};

/// Which run `judge report` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Which {
    /// The latest grading or session not interrupted (`--run` and
    /// `--session` not given).
    Latest,
    /// `--run ID`.
    Run(i64),
    /// `--session NAME`.
    Session(String),
}

impl Which {
    pub(crate) fn of(run: Option<i64>, session: Option<String>) -> Which {
        match (run, session) {
            (Some(id), _) => Which::Run(id),
            (None, Some(name)) => Which::Session(name),
            (None, None) => Which::Latest,
        }
    }
}

fn open_existing(ctx: &Context, db: Option<&Path>) -> Result<(Store, store::Location)> {
    let location = store::Location::of(
        &db.map_or_else(|| ctx.root.join(store::DEFAULT_FILE), Path::to_path_buf),
    );
    if !location.exists() {
        return Err(Error::Usage(format!(
            "no result store at {location}: grade a class first, or pass --db PATH"
        )));
    }
    Ok((Store::open_at(&location)?, location))
}

/// The sessions as a list for a message: `lab-1 (run 1), lab-2 (run 4)`.
fn listed<'a>(sessions: impl Iterator<Item = &'a StoredSession>) -> String {
    sessions
        .map(|s| format!("{} (run {})", escape::name(&s.name), s.run))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The run `which` names among `runs`, or why there is none.
pub(crate) fn choose<'a>(
    runs: &'a [RunInfo],
    sessions: &[StoredSession],
    which: &Which,
    store: &str,
) -> Result<&'a RunInfo> {
    match which {
        Which::Run(id) => runs
            .iter()
            .find(|r| r.id == *id)
            .ok_or_else(|| Error::Usage(format!("no run {id} in {store}"))),
        Which::Session(name) => {
            let Some(session) = sessions.iter().find(|s| s.name == *name) else {
                let known = if sessions.is_empty() {
                    "it holds none (`judge serve` makes them)".to_string()
                } else {
                    format!("its sessions: {}", listed(sessions.iter()))
                };
                return Err(Error::Usage(format!(
                    "no session `{}` in {store}; {known}",
                    escape::name(name)
                )));
            };
            runs.iter()
                .find(|r| r.id == session.run)
                .ok_or_else(|| Error::Usage(format!("no run {} in {store}", session.run)))
        }
        // An interrupted grading is kept for its results, not reported unasked.
        Which::Latest => runs
            .iter()
            .rev()
            .find(|r| (r.command == "grade" || r.command == "serve") && !r.interrupted)
            .or(runs.last())
            .ok_or_else(|| Error::Usage(format!("{store} holds no run yet"))),
    }
}

/// The line that says which run is shown: `run 4: session `lab-2`
/// ("Lab 2") of judge serve, started 2026-05-01T09:00:00Z`, or `run 3:
/// judge grade of classes/lab1, started 2026-05-01T09:00:00Z, interrupted`.
pub(crate) fn describe(run: &RunInfo, sessions: &[StoredSession]) -> String {
    let session = sessions.iter().find(|s| s.run == run.id);
    let mut line = match session {
        Some(session) => format!(
            "run {}: session `{}` (\"{}\") of judge serve, started {}",
            run.id,
            escape::name(&session.name),
            escape::name(&session.title),
            run.started_at
        ),
        None => {
            let mut what = format!("run {}: judge {}", run.id, escape::name(&run.command));
            if let Some(source) = &run.source {
                what.push_str(&format!(" of {}", escape::name(source)));
            }
            what.push_str(&format!(", started {}", run.started_at));
            if let Some(partition) = &run.partition {
                what.push_str(&format!(", shard {}", escape::name(partition)));
            }
            if let Some(from) = &run.merged_from {
                what.push_str(&format!(", merged from {}", escape::name(from)));
            }
            what
        }
    };
    if run.interrupted {
        line.push_str(", interrupted");
    }
    line
}

/// Under a run picked unasked: the other sessions, and how to pick one.
fn others(run: &RunInfo, sessions: &[StoredSession]) -> Option<String> {
    let mut others = sessions.iter().filter(|s| s.run != run.id).peekable();
    others.peek()?;
    Some(format!(
        "other sessions: {}; pick one with --session NAME",
        listed(others)
    ))
}

pub(crate) fn report(
    ctx: &mut Context,
    which: &Which,
    changes: bool,
    reports: &ReportArgs,
    gradebook: &GradebookArgs,
    teacher: &TeacherArgs,
    db: Option<&Path>,
) -> Result<u8> {
    let (store, path) = open_existing(ctx, db)?;
    let runs = store.runs()?;
    let sessions = store.sessions()?;
    // A bad policy file fails before anything is written.
    if let Some(path) = &gradebook.policy {
        Policy::load(path)?;
    }
    let chosen = choose(&runs, &sessions, which, &path.to_string())?;
    let book = store.gradebook(chosen.id)?;
    let policy = policy_for(&book, gradebook)?;
    let mut said = vec![describe(chosen, &sessions)];
    if *which == Which::Latest {
        said.extend(others(chosen, &sessions));
    }
    if book.rows.is_empty() {
        said.push(format!("run {} holds no submission yet", chosen.id));
    }
    for line in said {
        writeln!(ctx.out, "{}", ctx.styles.dim(&line)).map_err(io("the output"))?;
    }
    if changes {
        let previous = runs.iter().rev().find(|r| {
            r.id < chosen.id
                && !r.interrupted
                && r.command == chosen.command
                && r.partition == chosen.partition
                && r.source == chosen.source
        });
        match previous {
            Some(previous) => {
                let before = store.gradebook(previous.id)?;
                let list = book.changes_since(&before);
                table::changes(&mut ctx.out, &ctx.styles, previous, chosen, &list)
            }
            None => writeln!(
                ctx.out,
                "run {} is the first grading of its class: nothing to compare",
                chosen.id
            ),
        }
        .map_err(io("the output"))?;
    } else {
        table::gradebook(&mut ctx.out, &ctx.styles, &book, policy.as_ref())
            .map_err(io("the output"))?;
    }
    write_gradebook(&book, gradebook, policy.as_ref())?;
    if let Some(path) = write_clarifications(&book, gradebook)? {
        let line = format!(
            "{} clarifications written to {}",
            book.clarifications.len(),
            path.display()
        );
        writeln!(ctx.out, "{}", ctx.styles.dim(&line)).map_err(io("the output"))?;
    }
    write_reports(&book, reports)?;
    super::teacher::write(ctx, &book, policy.as_ref(), teacher)?;
    Ok(ctx.exit_code(true))
}

/// A served session's clarifications as `clarifications.csv` beside the
/// gradebook asked for (its CSV, else its web page), where a teacher
/// archiving the session finds them; the file written, if any.
fn write_clarifications(book: &Gradebook, args: &GradebookArgs) -> Result<Option<PathBuf>> {
    let Some(gradebook) = args.csv.as_deref().or(args.html.as_deref()) else {
        return Ok(None);
    };
    if book.run.command != "serve" {
        return Ok(None);
    }
    let path = gradebook
        .parent()
        .unwrap_or(Path::new(""))
        .join("clarifications.csv");
    let mut file = create(&path)?;
    crate::report::clarifications::write_csv(&mut file, &book.clarifications)
        .and_then(|()| file.flush())
        .map_err(io(&path.display().to_string()))?;
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(id: i64, command: &str, source: Option<&str>) -> RunInfo {
        RunInfo {
            id,
            started_at: format!("2026-05-0{id}T09:00:00Z"),
            finished_at: None,
            command: command.into(),
            judge_version: "0".into(),
            isolation: "full".into(),
            machine: "m".into(),
            partition: None,
            source: source.map(String::from),
            merged_from: None,
            interrupted: false,
            deadline: None,
            late_rule: None,
            policy: None,
        }
    }

    fn session(name: &str, run: i64) -> StoredSession {
        StoredSession {
            name: name.into(),
            title: format!("Title of {name}"),
            run,
        }
    }

    fn store() -> (Vec<RunInfo>, Vec<StoredSession>) {
        let runs = vec![
            run(1, "grade", Some("classes/lab1")),
            run(2, "serve", Some("lab-1")),
            run(3, "serve", Some("lab-2")),
        ];
        (runs, vec![session("lab-1", 2), session("lab-2", 3)])
    }

    #[test]
    fn a_session_is_picked_by_its_name() {
        let (runs, sessions) = store();
        let which = Which::Session("lab-1".into());
        assert_eq!(choose(&runs, &sessions, &which, "s.db").unwrap().id, 2);
        assert_eq!(
            choose(&runs, &sessions, &Which::Latest, "s.db").unwrap().id,
            3
        );
        assert_eq!(
            choose(&runs, &sessions, &Which::Run(1), "s.db").unwrap().id,
            1
        );
    }

    #[test]
    fn an_unknown_session_lists_the_known_ones() {
        let (runs, sessions) = store();
        let which = Which::Session("lab-3".into());
        let error = choose(&runs, &sessions, &which, "s.db").unwrap_err();
        assert_eq!(
            error.to_string(),
            "no session `lab-3` in s.db; its sessions: lab-1 (run 2), lab-2 (run 3)"
        );
        assert_eq!(error.exit_code(), crate::exit_codes::USAGE);
        let error = choose(&runs, &[], &which, "s.db").unwrap_err();
        assert_eq!(
            error.to_string(),
            "no session `lab-3` in s.db; it holds none (`judge serve` makes them)"
        );
    }

    #[test]
    fn the_line_names_the_run_its_command_its_session_and_when() {
        let (runs, sessions) = store();
        assert_eq!(
            describe(&runs[2], &sessions),
            "run 3: session `lab-2` (\"Title of lab-2\") of judge serve, started 2026-05-03T09:00:00Z"
        );
        assert_eq!(
            describe(&runs[0], &sessions),
            "run 1: judge grade of classes/lab1, started 2026-05-01T09:00:00Z"
        );
        assert_eq!(
            others(&runs[2], &sessions).unwrap(),
            "other sessions: lab-1 (run 2); pick one with --session NAME"
        );
        assert_eq!(others(&runs[2], &sessions[1..]), None);
    }
}
