//! Running a plan through the result store: stored results stand in for
//! tests whose inputs are unchanged, and the run is recorded afterwards.
//! Shared by `verify` and `grade --class`; what is recorded of each
//! submission follows from its task's owner.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::SystemTime;

use super::Context;
use crate::cli::StoreArgs;
use crate::errors::Result;
use crate::owner::Owner;
use crate::pipeline::Run;
use crate::report::gradebook::{Handin, ProblemInfo, Unmatched};
use crate::runner::{RunPlan, Task, TaskReport};
use crate::spec::{ProblemSpec, ProgramRef};
use crate::store::{self, ResultCache, RunMeta, Store, SubmissionRecord, ToolMemo};

/// What the store records of whom `task` judged: (content hash, language).
fn identity(ctx: &Context, task: &Task<'_>) -> (Option<String>, Option<String>) {
    let file = match &task.owner {
        Owner::Student { file, .. } | Owner::File { path: file } => file,
        Owner::Solution { index, .. } => match &task.problem.solutions[*index].program {
            ProgramRef::File(path) | ProgramRef::Submitted(path) => path,
            ProgramRef::Bin(_) => return (None, Some("cargo".into())),
            ProgramRef::Answers { .. } => return (None, Some("answers".into())),
            ProgramRef::Sources(set) => return (None, Some(set.language.clone())),
        },
        Owner::Submission { .. } => return (None, None),
    };
    let content_hash = crate::untrusted::read(
        file,
        crate::untrusted::Links::Refuse,
        crate::untrusted::SOURCE_LIMIT,
    )
    .ok()
    .map(|bytes| blake3::hash(&bytes).to_hex().to_string());
    let language = ctx
        .builder
        .languages()
        .for_file(file)
        .map(|(key, _)| key.to_string());
    (content_hash, language)
}

pub(super) fn store_path(ctx: &Context, args: &StoreArgs) -> PathBuf {
    args.db
        .clone()
        .unwrap_or_else(|| ctx.root.join(store::DEFAULT_FILE))
}

pub(crate) fn problem_info(problem: &ProblemSpec) -> ProblemInfo {
    ProblemInfo::of(problem)
}

/// What a stored run needs besides the plan and its results.
pub(super) struct Recording<'a> {
    pub command: &'a str,
    pub partition: Option<String>,
    pub source: Option<String>,
    pub problems: Vec<ProblemInfo>,
    /// When students handed their files in, by (student, problem), for a
    /// class graded against a deadline.
    pub handins: BTreeMap<(String, String), Handin>,
    /// Students' "no submission" rows: (student, problem).
    pub missing: Vec<(String, String)>,
    pub unmatched: Vec<Unmatched>,
    /// `--deadline` (RFC 3339), `--late` and the grading policy's text.
    pub deadline: Option<String>,
    pub late_rule: Option<String>,
    pub policy: Option<String>,
}

/// What came of a stored run.
pub(super) struct Stored {
    pub results: Vec<TaskReport>,
    /// The recorded run's id, with how many tests ran and how many took a
    /// stored result; or why it could not be recorded.
    pub recorded: Result<(i64, usize, usize)>,
}

/// Runs `plan` with stored results standing in (unless `fresh`) and
/// records the run in `store`. Fails before running only if the store
/// cannot be read.
pub(super) fn run_and_record(
    ctx: &Context,
    run: &mut Run<'_>,
    store: &mut Store,
    plan: &RunPlan<'_>,
    fresh: bool,
    recording: Recording<'_>,
) -> Result<Stored> {
    let started_at = SystemTime::now();
    let isolation = ctx.boxes.describe();
    let cache = ResultCache::prepare(store, plan, &isolation, fresh)?;
    let results = ctx.execute(run, plan, Some(&cache));
    let mut records = Vec::new();
    let mut handins = recording.handins;
    for (t, (report, task)) in results.iter().zip(&plan.tasks).enumerate() {
        let (content_hash, language) = identity(ctx, task);
        let student = task.owner.student().map(str::to_string);
        let handin = student
            .clone()
            .and_then(|student| handins.remove(&(student, report.problem.clone())));
        records.push(SubmissionRecord {
            student,
            problem: report.problem.clone(),
            path: Some(task.submission.clone()),
            content_hash,
            language,
            build_hash: cache.build_hash(t),
            report: Some(report),
            tests: cache.recorded(t, task, report),
            judged_by: None,
            handin,
        });
    }
    for (student, problem) in &recording.missing {
        records.push(SubmissionRecord::missing(student, problem));
    }
    let meta = RunMeta {
        started_at,
        command: recording.command.to_string(),
        judge_version: store::judge_version().to_string(),
        isolation,
        machine: store::machine(),
        partition: recording.partition,
        source: recording.source,
        interrupted: ctx.boxes.is_cancelled(),
        deadline: recording.deadline,
        late_rule: recording.late_rule,
        policy: recording.policy,
    };
    let recorded = store
        .record_run(&meta, &recording.problems, &records, &recording.unmatched)
        .and_then(|run| {
            let (ran, reused) = store.counts(run)?;
            Ok((run, ran, reused))
        });
    drop(records);
    Ok(Stored { results, recorded })
}

/// `verify`'s store and what it remembers of the packages' programs, when
/// it can be opened: it speeds verification up, and is never a reason to
/// fail it.
pub(super) fn open_for_verify(ctx: &Context, args: &StoreArgs) -> Option<(Store, ToolMemo)> {
    let path = store_path(ctx, args);
    let opened = Store::open(&path).and_then(|store| {
        let memo = ToolMemo::load(&store, &ctx.boxes.describe(), args.fresh)?;
        Ok((store, memo))
    });
    match opened {
        Ok(opened) => {
            if args.fresh {
                eprintln!(
                    "{}: --fresh: every test runs, no stored result stands in",
                    opened.0.location()
                );
            }
            Some(opened)
        }
        Err(e) => {
            eprintln!("warning: not using the result store: {e}");
            None
        }
    }
}

/// What the store did in a `verify` run: how many tests ran and how many
/// took a stored result, said when the run is over.
pub(super) struct StoreCounts {
    location: String,
    ran: usize,
    reused: usize,
}

impl StoreCounts {
    /// The line that says it, counting `settling` tests run before the
    /// plan to settle time limits (those never take a stored result).
    pub(super) fn line(&self, settling: usize) -> String {
        let settling_note = match settling {
            0 => String::new(),
            n => format!(" ({n} of them to settle time limits)"),
        };
        let fresh_note = if self.reused > 0 {
            " (--fresh runs them all)"
        } else {
            ""
        };
        format!(
            "{}: {} tests run{settling_note}, {} results reused{fresh_note}",
            self.location,
            self.ran + settling,
            self.reused
        )
    }
}

/// `verify`'s run, through the store when there is one, and then what
/// the packages' programs said saved; with what the store did, which the
/// verb says on stderr when it is done, so stdout stays the same.
pub(super) fn verify_run(
    ctx: &Context,
    run: &mut Run<'_>,
    plan: &RunPlan<'_>,
    opened: Option<(&mut Store, &ToolMemo)>,
    args: &StoreArgs,
    problems: &[ProblemSpec],
) -> (Vec<TaskReport>, Option<StoreCounts>) {
    let Some((store, memo)) = opened else {
        return (ctx.execute(run, plan, None), None);
    };
    let recording = Recording {
        command: "verify",
        partition: None,
        source: None,
        problems: problems.iter().map(problem_info).collect(),
        handins: BTreeMap::new(),
        missing: Vec::new(),
        unmatched: Vec::new(),
        deadline: None,
        late_rule: None,
        policy: None,
    };
    let mut counts = None;
    let results = match run_and_record(ctx, run, store, plan, args.fresh, recording) {
        Ok(stored) => {
            match &stored.recorded {
                Ok((_, ran, reused)) => {
                    counts = Some(StoreCounts {
                        location: store.location().to_string(),
                        ran: *ran,
                        reused: *reused,
                    });
                }
                Err(e) => eprintln!("warning: the run was not recorded: {e}"),
            }
            stored.results
        }
        Err(e) => {
            eprintln!("warning: not using the result store: {e}");
            ctx.execute(run, plan, None)
        }
    };
    if let Err(e) = memo.save(store) {
        eprintln!("warning: what the packages' programs said was not recorded: {e}");
    }
    (results, counts)
}
