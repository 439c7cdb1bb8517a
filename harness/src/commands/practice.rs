//! `judge test` (a learner runs one file) and `judge grade` (a grader runs many).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Context;
use crate::cli::{Diffs, LearnerArgs, ReportArgs, StoreArgs};
use crate::compile::{Builder, Built, CompileError, Executable};
use crate::errors::{BuildError, Error, Result};
use crate::pipeline::Run;
use crate::report::human;
use crate::report::sections::Sections;
use crate::runner::{RunPlan, Task, TaskReport};
use crate::spec::ProblemSpec;
use crate::verdict::Verdict;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// Builds one submission file (and the problem's checker or interactor,
/// and a testlib interactor's checker) into a task.
pub(super) fn task_for<'a>(
    ctx: &mut Context,
    problem: &'a ProblemSpec,
    program: &crate::spec::ProgramRef,
    name: String,
) -> Task<'a> {
    let judges = Judges::build(&mut ctx.builder, problem);
    judges.task(problem, program, |program| ctx.builder.build(program), name)
}

/// A problem's judging programs, built: its checker or interactor, and a
/// testlib interactor's checker. Built once, they judge any number of
/// submissions (`judge serve` keeps them for the session).
#[derive(Debug, Clone)]
pub(crate) struct Judges {
    checker: Option<Executable>,
    output_checker: Option<Executable>,
    /// A judging program that did not build: every task is a judge error.
    broken: Option<Arc<BuildError>>,
}

impl Judges {
    pub(crate) fn build(builder: &mut Builder, problem: &ProblemSpec) -> Judges {
        let judging_role = if problem.interactor.is_some() {
            "interactor"
        } else {
            "checker"
        };
        let judges: [(&str, Option<Built>); 2] = [
            (
                judging_role,
                problem
                    .judging_program()
                    .map(|tool| builder.build(&tool.program)),
            ),
            (
                "checker",
                problem
                    .output_checker()
                    .map(|tool| builder.build(&tool.program)),
            ),
        ];
        // A judging program that did not build is the judge's failure,
        // whatever the submission's build says.
        let broken = judges.iter().find_map(|(role, built)| {
            let source = built.as_ref()?.failure()?;
            Some(Arc::new(BuildError::JudgingProgram { role, source }))
        });
        let [checker, output_checker] = judges.map(|(_, built)| match built {
            Some(Built::Ready(exe)) => Some(exe),
            _ => None,
        });
        Judges {
            checker,
            output_checker,
            broken,
        }
    }

    /// The interactor (or checker) as built; `None` if it did not build.
    pub(crate) fn judging_program(&self) -> Option<&Executable> {
        self.checker.as_ref().filter(|_| self.broken.is_none())
    }

    /// A testlib interactor's output checker as built.
    pub(crate) fn output_checker(&self) -> Option<&Executable> {
        self.output_checker.as_ref()
    }

    /// The task of one submission, `program` built by `build` (not called
    /// when a judging program is broken or the source is over the
    /// package's code limit).
    pub(crate) fn task<'a>(
        &self,
        problem: &'a ProblemSpec,
        program: &crate::spec::ProgramRef,
        build: impl FnOnce(&crate::spec::ProgramRef) -> Built,
        name: String,
    ) -> Task<'a> {
        let program = match &self.broken {
            Some(error) => Built::JudgeError(error.clone()),
            None => over_code_limit(problem, program).unwrap_or_else(|| build(program)),
        };
        Task {
            problem,
            submission: name,
            program,
            checker: self.checker.clone(),
            output_checker: self.output_checker.clone(),
            tests: problem.tests.iter().collect(),
            every_test: false,
        }
    }
}

/// A compile error for a submission whose files are above the package's
/// `limits.code` (Kattis: checked before `include/` files are added).
fn over_code_limit(problem: &ProblemSpec, program: &crate::spec::ProgramRef) -> Option<Built> {
    let limit = problem.package.as_deref()?.limits.code?;
    let files: Vec<&Path> = match program {
        crate::spec::ProgramRef::Submitted(path) | crate::spec::ProgramRef::File(path) => {
            vec![path]
        }
        crate::spec::ProgramRef::Sources(set) => set.sources.iter().map(PathBuf::as_path).collect(),
        crate::spec::ProgramRef::Bin(_) | crate::spec::ProgramRef::Answers { .. } => return None,
    };
    // A submitted file is not followed through a link: its own size.
    let size: u64 = files
        .iter()
        .filter_map(|f| std::fs::symlink_metadata(f).ok())
        .map(|m| m.len())
        .sum();
    (size > limit).then_some(Built::CompileError(CompileError::OverCodeLimit {
        size,
        limit,
    }))
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

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

pub(super) fn test(
    ctx: &mut Context,
    id: &str,
    file: &Path,
    fail_fast: bool,
    reports: &ReportArgs,
    learner: &LearnerArgs,
) -> Result<u8> {
    let mut problem = ctx.load_one(id)?;
    super::settled::settle_for_judging(
        ctx,
        &mut Run::new("test", &ReportArgs::default()),
        &mut problem,
        &DEFAULT_STORE,
    )?;
    writeln!(
        ctx.out,
        "{} — {} ({})",
        ctx.styles.bold(&problem.id),
        problem.title,
        human::limits(&problem)
    )
    .map_err(io)?;
    let program = problem.submitted(absolute(file));
    let task = task_for(ctx, &problem, &program, file_name(file));
    let plan = RunPlan {
        tasks: vec![task],
        stop_at_first_failure: fail_fast,
        jobs: ctx.jobs,
    };
    let width = problem
        .tests
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4);
    let mut run = Run::new("test", reports);
    run.subscribe(human::TestLines::new(
        &mut ctx.out,
        ctx.styles,
        width,
        learner.diffs == Diffs::All,
    ));
    let done = run.execute(&plan, None, &ctx.sandbox, ctx.scratch.path());
    // `run` writes to `ctx.out`: end it with the sandbox's words directly.
    run.finish(
        &ctx.sandbox.describe(),
        ctx.sandbox.is_cancelled(),
        Sections::default(),
    )?;
    let verdict = done[0].verdict;
    // An answer set has no program to run on a smaller input.
    if verdict == Verdict::WrongAnswer
        && !learner.no_counterexample
        && !problem.kind.is_output_only()
    {
        super::stress::offer_counterexample(ctx, &problem, &program)?;
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
    let mut run = ctx.run_with_progress("grade", reports);
    let mut problem = ctx.load_one(id)?;
    super::settled::settle_for_judging(
        ctx,
        &mut Run::new("grade", &ReportArgs::default()),
        &mut problem,
        &DEFAULT_STORE,
    )?;
    writeln!(
        ctx.out,
        "{} — {} ({}), {} submissions",
        ctx.styles.bold(&problem.id),
        problem.title,
        human::limits(&problem),
        files.len()
    )
    .map_err(io)?;
    let mut tasks = Vec::new();
    for file in files {
        let program = problem.submitted(absolute(file));
        tasks.push(task_for(
            ctx,
            &problem,
            &program,
            file.display().to_string(),
        ));
    }
    let plan = RunPlan {
        tasks,
        stop_at_first_failure: fail_fast,
        jobs: ctx.jobs,
    };
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
