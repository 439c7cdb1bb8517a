//! `judge grade --class DIR` (a whole class into the result store), the
//! gradebook's files and reports (written here and by `judge report`) and
//! `judge merge` (the stores of shards into one).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Context;
use super::stored::{self, Recording};
use crate::class::deadline::Deadline;
use crate::class::{Partition, Roster};
use crate::cli::{ClassArgs, GradebookArgs, ReportArgs, StoreArgs};
use crate::errors::{Error, Result};
use crate::pipeline::RunOptions;
use crate::report::gradebook::{Cell, Gradebook};
use crate::report::policy::{LateRule, Policy};
use crate::report::sections::{self, ClassSubmission, NoSubmission, Sections, UnmatchedFile};
use crate::report::{self, table};
use crate::store::{self, Store};
use crate::verdict::Verdict;

pub(super) fn io(what: &str) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Report {
        what: what.to_string(),
        source,
    }
}

pub(super) fn create(path: &Path) -> Result<std::io::BufWriter<std::fs::File>> {
    std::fs::File::create(path)
        .map(std::io::BufWriter::new)
        .map_err(io(&path.display().to_string()))
}

/// The CSV and HTML gradebooks that were asked for.
pub(super) fn write_gradebook(
    book: &Gradebook,
    args: &GradebookArgs,
    policy: Option<&Policy>,
) -> Result<()> {
    if let Some(path) = &args.csv {
        let mut file = create(path)?;
        report::csv::write(&mut file, book, policy)
            .and_then(|()| file.flush())
            .map_err(io(&path.display().to_string()))?;
    }
    if let Some(path) = &args.html {
        let mut file = create(path)?;
        report::html::write(&mut file, book, policy)
            .and_then(|()| file.flush())
            .map_err(io(&path.display().to_string()))?;
    }
    Ok(())
}

/// The policy a report of `book` applies: `--policy FILE`, else the one
/// stored with the run; with the run's `--late` rule over its own.
pub(super) fn policy_for(book: &Gradebook, args: &GradebookArgs) -> Result<Option<Policy>> {
    let mut policy = match (&args.policy, &book.run.policy) {
        (Some(path), _) => Some(Policy::load(path)?),
        (None, Some(text)) => {
            let name = format!("<the grading policy stored with run {}>", book.run.id);
            Some(Policy::parse(text, Path::new(&name))?)
        }
        (None, None) => None,
    };
    if let Some(late) = book
        .run
        .late_rule
        .as_deref()
        .and_then(LateRule::from_stored)
    {
        let policy = policy.get_or_insert_with(Policy::default);
        policy.late = Some(late);
    }
    Ok(policy)
}

/// The JSON and JUnit reports of a stored grading: every submission as in
/// `grade`, plus the class (students, missing submissions, files not graded).
pub(super) fn write_reports(book: &Gradebook, args: &ReportArgs) -> Result<()> {
    let tasks = book.task_reports();
    let missing: Vec<NoSubmission> = book
        .rows
        .iter()
        .flat_map(|row| {
            row.cells
                .iter()
                .zip(&book.problems)
                .filter(|(cell, _)| matches!(cell, Cell::NoSubmission))
                .map(|(_, p)| NoSubmission {
                    student: row.student.clone(),
                    problem: p.id.clone(),
                })
        })
        .collect();
    let class = sections::Class {
        run: book.run.id,
        partition: book.run.partition.clone(),
        students: book.rows.iter().map(|r| r.student.clone()).collect(),
        submissions: book
            .submissions()
            .map(|(student, problem, s)| ClassSubmission {
                student: student.to_string(),
                problem: problem.id.clone(),
                submission: s.path.clone(),
                language: s.language.clone(),
                verdict: s.report.verdict.short(),
            })
            .collect(),
        no_submission: missing,
        unmatched: book
            .unmatched
            .iter()
            .map(|u| UnmatchedFile {
                student: u.student.clone(),
                path: u.path.clone(),
                reason: u.reason.clone(),
            })
            .collect(),
    };
    let sections = Sections {
        class: Some(class),
        ..Sections::default()
    };
    if let Some(path) = &args.json {
        let mut file = create(path)?;
        report::json::write(
            &mut file,
            &book.run.command,
            &book.run.isolation,
            &tasks,
            &sections,
            false,
        )
        .and_then(|()| file.flush())
        .map_err(io(&path.display().to_string()))?;
    }
    if let Some(path) = &args.junit {
        let mut file = create(path)?;
        report::junit::write(&mut file, "judge grade --class", &tasks).map_err(|e| {
            Error::Report {
                what: path.display().to_string(),
                source: std::io::Error::other(e.to_string()),
            }
        })?;
    }
    Ok(())
}

/// What a class's grading shows and writes once its gradebook is stored,
/// judged here or by the workers: the similarity section and the files
/// asked for.
pub(super) struct GradebookOutput<'a> {
    pub(super) gradebook: &'a GradebookArgs,
    pub(super) reports: &'a ReportArgs,
    /// The graded files, compared with each other.
    pub(super) compared: Vec<crate::similarity::pairs::Input>,
    /// The starter code's fingerprints (`--base`), left out of the comparison.
    pub(super) starter: std::collections::HashSet<u64>,
}

impl GradebookOutput<'_> {
    /// Shows run `run`'s gradebook from `store`, the `lines` that sum up
    /// the grading under it, and writes the similarity section, the
    /// gradebook files and the reports asked for. Returns the gradebook.
    pub(super) fn show(
        self,
        ctx: &mut Context,
        store: &Store,
        run: i64,
        lines: &[String],
    ) -> Result<Gradebook> {
        let book = store.gradebook(run)?;
        let policy = policy_for(&book, self.gradebook)?;
        table::gradebook(&mut ctx.out, &ctx.styles, &book, policy.as_ref())
            .map_err(io("the output"))?;
        for line in lines {
            writeln!(ctx.out, "{line}").map_err(io("the output"))?;
        }
        super::similar::class_section(ctx, self.compared, &self.starter)?;
        write_gradebook(&book, self.gradebook, policy.as_ref())?;
        write_reports(&book, self.reports)?;
        Ok(book)
    }
}

pub(super) fn grade_class(
    ctx: &mut Context,
    args: &ClassArgs,
    ids: &[String],
    fail_fast: bool,
    reports: &ReportArgs,
    store_args: &StoreArgs,
) -> Result<u8> {
    let rules = ClassRules::from_args(args)?;
    let starter = super::similar::base(args.base.as_deref())?;
    let problems = settled_problems(ctx, ids, store_args)?;
    let problem_ids: Vec<&str> = problems.iter().map(|p| p.id.as_str()).collect();
    let (roster, source, handins) = class_roster(ctx, args, &problem_ids, &rules)?;
    let (partition, from) =
        Partition::resolve(args.partition.as_deref(), args.partition_count, |name| {
            std::env::var(name).ok()
        })?;
    let students = roster.students().len();
    let roster = roster.shard(partition);
    if args.queue && (partition.count > 1 || store_args.fresh) {
        return Err(Error::Usage(
            "--queue grades the whole class through the workers: no --partition, no --fresh".into(),
        ));
    }
    writeln!(
        ctx.out,
        "{}: {students} students × {} problems ({}){}",
        ctx.styles.bold(&source.display().to_string()),
        problems.len(),
        problem_ids.join(", "),
        if partition.count > 1 {
            format!("; shard {partition} (from {from})")
        } else {
            String::new()
        }
    )
    .map_err(io("the output"))?;

    let output = GradebookOutput {
        gradebook: &args.gradebook,
        reports,
        compared: compared_files(&roster, &problems),
        starter,
    };
    let recording = Recording {
        command: "grade",
        partition: (partition.count > 1).then(|| partition.to_string()),
        source: Some(source.display().to_string()),
        problems: problems.iter().map(stored::problem_info).collect(),
        handins,
        missing: Vec::new(),
        unmatched: Vec::new(),
        deadline: rules.deadline.map(|d| d.shown),
        late_rule: rules.late.map(|l| l.to_stored()),
        policy: rules.policy.map(|p| p.text),
    };
    if args.queue {
        let location = store::Location::of(&stored::store_path(ctx, store_args));
        let class = super::queued::QueuedClass {
            problems: &problems,
            roster,
            source: recording.source.unwrap_or_default(),
            fail_fast,
            deadline: recording.deadline,
            late_rule: recording.late_rule,
            policy: recording.policy,
            handins: recording.handins,
        };
        return super::queued::grade_queued(ctx, class, &location, output);
    }
    grade_here(
        ctx, &problems, roster, recording, fail_fast, store_args, output,
    )
}

/// What the teacher set for this grading: a deadline, a late rule and a
/// grading policy. A bad one fails before anything runs; they are kept
/// with the run.
struct ClassRules {
    deadline: Option<Deadline>,
    late: Option<LateRule>,
    policy: Option<Policy>,
}

impl ClassRules {
    fn from_args(args: &ClassArgs) -> Result<ClassRules> {
        let deadline = args
            .deadline
            .as_deref()
            .map(Deadline::parse)
            .transpose()
            .map_err(|e| Error::Usage(e.to_string()))?;
        let late = args
            .late
            .as_deref()
            .map(|rule| LateRule::parse(rule, args.late_cap.as_deref()))
            .transpose()
            .map_err(|e| Error::Usage(format!("--late: {e}")))?;
        let policy = args
            .gradebook
            .policy
            .as_deref()
            .map(Policy::load)
            .transpose()?;
        // Against a deadline, the policy's late rule accepts late work
        // unless --late says otherwise.
        let late = match (&deadline, &policy) {
            (Some(_), Some(policy)) => late.or(policy.late),
            _ => late,
        };
        Ok(ClassRules {
            deadline,
            late,
            policy,
        })
    }
}

/// The problems to grade, each with its time limit settled. A package
/// whose limit cannot be settled is broken like any other: named problems
/// must all load (as for `grade ID`); otherwise a broken one is reported
/// and the others are graded.
fn settled_problems(
    ctx: &mut Context,
    ids: &[String],
    store_args: &StoreArgs,
) -> Result<Vec<crate::spec::ProblemSpec>> {
    let (loaded, mut broken) = ctx.load_problems(ids)?;
    let mut problems = Vec::new();
    let mut settling = ctx.run_with_progress("grade", &RunOptions::default());
    for problem in loaded {
        match ctx.settled(&mut settling, problem, store_args) {
            Ok(problem) => problems.push(problem),
            Err(crate::Error::Spec(error)) => broken.push(error),
            Err(other) => return Err(other),
        }
    }
    if !ids.is_empty() {
        if let Some(error) = broken.pop() {
            return Err(error.into());
        }
    }
    for error in &broken {
        writeln!(ctx.out, "{} {error}", ctx.styles.bad("broken package:"))
            .map_err(io("the output"))?;
    }
    Ok(problems)
}

/// The class's roster (from its folder, as handed in by the deadline when
/// there is one, or from a manifest), where it came from, and each
/// hand-in's time.
fn class_roster<'a>(
    ctx: &mut Context,
    args: &'a ClassArgs,
    problem_ids: &[&str],
    rules: &ClassRules,
) -> Result<(Roster, &'a Path, super::handin::Handins)> {
    let languages = ctx.builder.languages().clone();
    match (&args.class, &args.manifest, &rules.deadline) {
        (Some(dir), _, Some(deadline)) => {
            let at =
                super::handin::roster_at(ctx, dir, problem_ids, &languages, deadline, rules.late)?;
            Ok((at.roster, dir, at.handins))
        }
        (Some(dir), _, None) => Ok((
            Roster::from_folder(dir, problem_ids, &languages)?,
            dir,
            Default::default(),
        )),
        (None, Some(file), _) => Ok((
            Roster::from_manifest(file, problem_ids, &languages)?,
            file,
            Default::default(),
        )),
        (None, None, _) => Err(Error::Usage("--class DIR or --manifest FILE".into())),
    }
}

/// Grades `roster` on this machine, records the run in the store and
/// shows the gradebook. A class always has failing submissions: success
/// means every submission was judged (a judge error is the judge's
/// failure).
fn grade_here(
    ctx: &mut Context,
    problems: &[crate::spec::ProblemSpec],
    roster: Roster,
    mut recording: Recording<'_>,
    fail_fast: bool,
    store_args: &StoreArgs,
    output: GradebookOutput<'_>,
) -> Result<u8> {
    let mut planner = ctx.planner();
    for entry in &roster.entries {
        let Some(problem) = problems.iter().find(|p| p.id == entry.problem) else {
            continue;
        };
        let Some(file) = &entry.file else {
            recording
                .missing
                .push((entry.student.clone(), entry.problem.clone()));
            continue;
        };
        planner.student(problem, &entry.student, file, entry.shown.clone());
    }
    let plan = planner.plan(fail_fast);
    recording.unmatched = roster.unmatched;
    let location = store::Location::of(&stored::store_path(ctx, store_args));
    let mut store = Store::open_at(&location)?;
    // A class's JSON and JUnit reports are views of the store's gradebook
    // (as `judge report` renders them), written below: the run itself only
    // shows its progress.
    let mut progress = ctx.run_with_progress("grade", &RunOptions::default());
    let stored = stored::run_and_record(
        ctx,
        &mut progress,
        &mut store,
        &plan,
        store_args.fresh,
        recording,
    )?;
    drop(progress);
    let (run, ran, reused) = stored.recorded?;
    let mut lines = vec![format!(
        "graded {} submissions: {ran} tests run, {reused} results reused; stored as run {run} in {location}",
        stored.results.len(),
    )];
    if ctx.boxes.is_cancelled() {
        lines.push(format!(
            "{} the results so far are stored and will be reused by the next grading",
            ctx.styles.bad("interrupted:")
        ));
    }
    output.show(ctx, &store, run, &lines)?;
    let judged = stored
        .results
        .iter()
        .all(|t| t.verdict != Verdict::JudgeError);
    Ok(ctx.exit_code(judged))
}

/// The files of a class's roster that are graded, for the similarity
/// section: (student, problem, file, the path shown).
fn compared_files(
    roster: &Roster,
    problems: &[crate::spec::ProblemSpec],
) -> Vec<crate::similarity::pairs::Input> {
    roster
        .entries
        .iter()
        .filter(|entry| problems.iter().any(|p| p.id == entry.problem))
        .filter_map(|entry| {
            let file = entry.file.as_ref()?;
            let file = std::path::absolute(file).unwrap_or_else(|_| file.clone());
            Some((
                entry.student.clone(),
                entry.problem.clone(),
                file,
                entry.shown.clone(),
            ))
        })
        .collect()
}

pub(super) fn merge(ctx: &mut Context, inputs: &[PathBuf], db: &Path) -> Result<u8> {
    let output = store::Location::of(db);
    let same = |a: &store::Location, b: &store::Location| match (a, b) {
        (store::Location::File(a), store::Location::File(b)) => {
            match (a.canonicalize(), b.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
        }
        (a, b) => a == b,
    };
    let inputs: Vec<store::Location> = inputs.iter().map(|p| store::Location::of(p)).collect();
    for input in &inputs {
        if !input.exists() {
            return Err(Error::Usage(format!("no store at {input}")));
        }
        if same(input, &output) {
            return Err(Error::Usage(format!(
                "{input} is both an input and the output"
            )));
        }
    }
    let mut store = Store::open_at(&output)?;
    let merged = store.merge(&inputs)?;
    for warning in &merged.warnings {
        eprintln!("{} {warning}", ctx.styles.bad("warning:"));
    }
    writeln!(
        ctx.out,
        "merged {} stores into {output} as run {}: {} submissions",
        inputs.len(),
        merged.run,
        merged.submissions
    )
    .map_err(io("the output"))?;
    Ok(ctx.exit_code(merged.warnings.is_empty()))
}
