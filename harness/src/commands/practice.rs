//! `judge test` (a learner runs one file) and `judge grade` (a grader runs many).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::Context;
use crate::cli::{Diffs, LearnerArgs, ReportArgs, StoreArgs};
use crate::errors::{Error, Result};
use crate::pipeline::{Run, RunOptions};
use crate::report::human;
use crate::report::sections::Sections;
use crate::runner::{Place, TaskReport};
use crate::verdict::Verdict;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// `test` and `grade` of files keep a package's settled time limit in the
/// default result store (`judge.db` beside `problems/`).
const DEFAULT_STORE: StoreArgs = StoreArgs {
    db: None,
    fresh: false,
};

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

pub(super) fn test(
    ctx: &mut Context,
    id: &str,
    file: &Path,
    fail_fast: bool,
    reports: &ReportArgs,
    learner: &LearnerArgs,
) -> Result<u8> {
    let loaded = ctx.load_one(id)?;
    let settling = &mut Run::new("test", &RunOptions::default());
    let problem = ctx.settled(settling, loaded, &DEFAULT_STORE)?;
    writeln!(
        ctx.out,
        "{} — {} ({})",
        ctx.styles.bold(&problem.id),
        problem.title,
        human::limits(&problem)
    )
    .map_err(io)?;
    let mut planner = ctx.planner();
    planner.file(&problem, file, file_name(file));
    let plan = planner.plan(fail_fast);
    let width = problem
        .tests
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4);
    let mut run = Run::new("test", &reports.into());
    run.subscribe(human::TestLines::new(
        &mut ctx.out,
        ctx.styles,
        width,
        learner.diffs == Diffs::All,
    ));
    let done = run.execute(&plan, None, Place::Pool(&*ctx.boxes), ctx.scratch.path());
    // `run` writes to `ctx.out`: end it with the sandbox's words directly.
    run.finish(
        &ctx.boxes.describe(),
        ctx.boxes.is_cancelled(),
        Sections::default(),
    )?;
    let verdict = done[0].verdict;
    // An answer set has no program to run on a smaller input.
    if verdict == Verdict::WrongAnswer
        && !learner.no_counterexample
        && !problem.kind.is_output_only()
    {
        if let Some(file) = done[0].owner.file() {
            let program = problem.submitted(file.to_path_buf());
            super::stress::offer_counterexample(ctx, &problem, &program)?;
        }
    }
    Ok(ctx.exit_code(verdict == Verdict::Accepted))
}

pub(super) fn grade(
    ctx: &mut Context,
    id: &str,
    files: &[PathBuf],
    fail_fast: bool,
    reports: &ReportArgs,
) -> Result<u8> {
    let mut run = ctx.run_with_progress("grade", &reports.into());
    let loaded = ctx.load_one(id)?;
    let settling = &mut Run::new("grade", &RunOptions::default());
    let problem = ctx.settled(settling, loaded, &DEFAULT_STORE)?;
    writeln!(
        ctx.out,
        "{} — {} ({}), {} submissions",
        ctx.styles.bold(&problem.id),
        problem.title,
        human::limits(&problem),
        files.len()
    )
    .map_err(io)?;
    let mut planner = ctx.planner();
    for file in files {
        planner.file(&problem, file, file.display().to_string());
    }
    let plan = planner.plan(fail_fast);
    let results = ctx.execute(&mut run, &plan, None);
    print_grades(ctx, &results)?;
    ctx.finish(run, Sections::default())?;
    Ok(ctx.exit_code(results.iter().all(|t| t.verdict == Verdict::Accepted)))
}

fn print_grades(ctx: &mut Context, results: &[TaskReport]) -> Result<()> {
    for task in results {
        human::task_summary(&mut ctx.out, &ctx.styles, task).map_err(io)?;
        if let Some(test) = task.tests.iter().find(|t| t.verdict != Verdict::Accepted) {
            let width = test.test.len();
            human::test_line(&mut ctx.out, &ctx.styles, test, width).map_err(io)?;
        }
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for task in results {
        *counts.entry(task.verdict.short()).or_default() += 1;
    }
    let summary: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
    writeln!(
        ctx.out,
        "graded {} submissions: {}",
        results.len(),
        summary.join(", ")
    )
    .map_err(io)?;
    Ok(())
}
