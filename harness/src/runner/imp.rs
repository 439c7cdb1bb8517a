//! Running a plan: a FIFO queue of (submission, test) jobs on the worker
//! pool (`pool.rs`); results come back to the calling thread, which
//! assembles reports and emits events.
//!
//! With `stop_at_first_failure`, a job is skipped once an earlier test of
//! the same submission failed. The verdict is still deterministic: the first
//! failing test is always run, because every job before it was dequeued
//! before it and none of those failed.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::score::{task_score, task_verdict};
use super::{Event, Submission, TaskReport, TestReport, TestRun, judge_test};
use crate::compile::{Built, Executable};
use crate::owner::Owner;
use crate::sandbox::{Boxes, Runs};
use crate::spec::{ProblemSpec, TestCase};
use crate::verdict::Verdict;

/// One submission to run on the tests of one problem.
pub struct Task<'a> {
    pub problem: &'a ProblemSpec,
    /// Whom the task judges: every report of it says so.
    pub owner: Owner,
    /// A name for reports: the file or binary.
    pub submission: String,
    /// The built program, or why it did not build (CE, or a judge error).
    pub program: Built,
    /// The problem's built checker or interactor, when it has one.
    pub checker: Option<Executable>,
    /// The built checker of a testlib interactor's output file.
    pub output_checker: Option<Executable>,
    /// The tests to run, in order.
    pub tests: Vec<&'a TestCase>,
    /// Run every test even with `stop_at_first_failure` (a package's rules
    /// speak of every test's verdict).
    pub every_test: bool,
    /// What the problem's static validation test cases judge (Kattis
    /// 2025-09), when it has them.
    pub static_validation: Option<std::sync::Arc<super::StaticSubmission>>,
    /// The output visualizer and where the images of this task go.
    pub output_visualization: Option<std::sync::Arc<super::OutputVisualization>>,
}

/// Results that may stand in for running a test (the result store's cache,
/// `store::ResultCache`): consulted once per test, just before it would run.
pub trait Reuse: Sync {
    /// A stored result of the `task`-th task on its `test`-th test, if one may be reused.
    fn reused(&self, task: usize, test: usize) -> Option<TestReport>;
}

pub struct RunPlan<'a> {
    pub tasks: Vec<Task<'a>>,
    pub stop_at_first_failure: bool,
    pub jobs: usize,
}

impl RunPlan<'_> {
    /// Whether the `t`-th task's tests stop at its first failure: the
    /// plan's rule, unless the task must run every test.
    pub fn stops_at_first_failure(&self, t: usize) -> bool {
        self.stop_at_first_failure && !self.tasks[t].every_test
    }
}

/// What a worker of the pool holds: its box and its run folder.
type Worker<'s> = (Box<dyn Runs + 's>, std::io::Result<RunFolder<'s>>);

/// A worker's run folder: made for the run, or the one a held box keeps.
enum RunFolder<'s> {
    Made(tempfile::TempDir),
    Kept(&'s Path),
}

impl RunFolder<'_> {
    fn path(&self) -> &Path {
        match self {
            RunFolder::Made(dir) => dir.path(),
            RunFolder::Kept(path) => path,
        }
    }
}

enum Done {
    Ran(usize, usize, Box<TestReport>),
    /// The task whose test was not run.
    Skipped(usize),
}

/// Runs the plan; `on_event` sees every test and task as it finishes.
pub fn execute(
    plan: &RunPlan<'_>,
    sandbox: &dyn Boxes,
    scratch: &Path,
    on_event: impl FnMut(Event<'_>),
) -> Vec<TaskReport> {
    execute_at(plan, None, Place::Pool(sandbox), scratch, on_event)
}

/// Where a plan's tests run.
#[derive(Clone, Copy)]
pub enum Place<'a> {
    /// On `plan.jobs` threads of the pool, a box opened for each.
    Pool(&'a dyn Boxes),
    /// On the calling thread, one test after another, in the box it holds
    /// and with the run folder it keeps (a server's judging thread keeps
    /// both for all the submissions it judges, rather than making them for
    /// each: a fresh folder of fresh files per submission cost it a fifth
    /// of its time in the file system's inode allocation). The folder is
    /// emptied after each test, as every run folder is.
    Here(&'a dyn Runs, &'a Path),
}

impl Place<'_> {
    fn is_cancelled(self) -> bool {
        match self {
            Place::Pool(boxes) => boxes.is_cancelled(),
            Place::Here(held, _) => held.is_cancelled(),
        }
    }
}

/// [`execute`] in `place`, taking a test's result from `reuse` instead of
/// running it when `reuse` has one.
pub fn execute_at(
    plan: &RunPlan<'_>,
    reuse: Option<&dyn Reuse>,
    place: Place<'_>,
    scratch: &Path,
    mut on_event: impl FnMut(Event<'_>),
) -> Vec<TaskReport> {
    let queue = queue_of(plan);
    let mut tally = Tally::new(plan);
    on_event(Event::Started {
        total_tests: queue.len(),
    });
    tally.finish_unqueued(&mut on_event);
    let failed: Vec<AtomicBool> = plan.tasks.iter().map(|_| AtomicBool::new(false)).collect();
    run_jobs(
        place,
        plan.jobs,
        queue.len(),
        scratch,
        |worker, index| judge_job(plan, reuse, &failed, worker, queue[index]),
        |_, done| tally.record(done, &mut on_event),
    );
    on_event(Event::RunFinished {
        elapsed: tally.started.elapsed(),
        interrupted: place.is_cancelled(),
    });
    tally.reports.into_values().collect()
}

/// The jobs of `plan`: (task, test) of every task that built, in order.
fn queue_of(plan: &RunPlan<'_>) -> Vec<(usize, usize)> {
    plan.tasks
        .iter()
        .enumerate()
        .filter(|(_, task)| task.program.is_ready())
        .flat_map(|(t, task)| (0..task.tests.len()).map(move |k| (t, k)))
        .collect()
}

/// What has come back of a plan's jobs, on the calling thread: each
/// task's results so far and how many of its jobs are still out, and the
/// reports of the tasks that are done.
struct Tally<'p, 'a> {
    plan: &'p RunPlan<'a>,
    started: std::time::Instant,
    results: Vec<Vec<Option<TestReport>>>,
    pending: Vec<usize>,
    reports: BTreeMap<usize, TaskReport>,
}

impl<'p, 'a> Tally<'p, 'a> {
    fn new(plan: &'p RunPlan<'a>) -> Tally<'p, 'a> {
        Tally {
            plan,
            started: std::time::Instant::now(),
            results: plan
                .tasks
                .iter()
                .map(|t| vec![None; t.tests.len()])
                .collect(),
            pending: plan
                .tasks
                .iter()
                .map(|t| {
                    if t.program.is_ready() {
                        t.tests.len()
                    } else {
                        0
                    }
                })
                .collect(),
            reports: BTreeMap::new(),
        }
    }

    /// Every task with no job queued (it did not build, or has no tests)
    /// is done at once.
    fn finish_unqueued(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        for t in 0..self.pending.len() {
            if self.pending[t] == 0 {
                self.finish(t, on_event);
            }
        }
    }

    /// A job is back: its test's event, and its task's once it is the
    /// task's last.
    fn record(&mut self, done: Done, on_event: &mut dyn FnMut(Event<'_>)) {
        let t = match done {
            Done::Ran(t, k, report) => {
                on_event(Event::TestFinished {
                    task: t,
                    owner: &self.plan.tasks[t].owner,
                    test: k,
                    report: &report,
                    elapsed: self.started.elapsed(),
                });
                self.results[t][k] = Some(*report);
                t
            }
            Done::Skipped(t) => t,
        };
        self.pending[t] -= 1;
        if self.pending[t] == 0 {
            self.finish(t, on_event);
        }
    }

    fn finish(&mut self, t: usize, on_event: &mut dyn FnMut(Event<'_>)) {
        let report = summarize(&self.plan.tasks[t], std::mem::take(&mut self.results[t]));
        on_event(Event::TaskFinished {
            task: t,
            report: &report,
            elapsed: self.started.elapsed(),
        });
        self.reports.insert(t, report);
    }
}

/// One job on a worker: the `k`-th test of the `t`-th task, judged, or
/// taken from `reuse`, or skipped (Ctrl-C, or an earlier failure of a task
/// that stops at its first). A failure is marked in `failed`.
fn judge_job(
    plan: &RunPlan<'_>,
    reuse: Option<&dyn Reuse>,
    failed: &[AtomicBool],
    (worker, workdir): &mut Worker<'_>,
    (t, k): (usize, usize),
) -> Done {
    let task = &plan.tasks[t];
    if worker.is_cancelled() || (plan.stops_at_first_failure(t) && failed[t].load(Ordering::SeqCst))
    {
        return Done::Skipped(t);
    }
    let stored = reuse.and_then(|r| r.reused(t, k));
    let submission = match &task.program {
        Built::Ready(exe) => Submission::Program(exe),
        Built::Answers(answers) => Submission::Answers(answers),
        Built::CompileError(_) | Built::JudgeError(_) => {
            unreachable!("only built tasks are queued")
        }
    };
    let report = match (stored, workdir) {
        (Some(report), _) => report,
        (None, Ok(dir)) => judge_test(&TestRun {
            sandbox: &**worker,
            problem: task.problem,
            checker: task.checker.as_ref(),
            output_checker: task.output_checker.as_ref(),
            submission,
            test: task.tests[k],
            workdir: dir.path(),
            static_validation: task.static_validation.as_deref(),
            output_visualization: task.output_visualization.as_deref(),
        }),
        (None, Err(e)) => {
            TestReport::judge_error(task.tests[k], format!("failed to create a run folder: {e}"))
        }
    };
    if worker.is_cancelled() {
        // Cut short by Ctrl-C: not a result at all.
        return Done::Skipped(t);
    }
    if report.verdict != Verdict::Accepted {
        failed[t].store(true, Ordering::SeqCst);
    }
    Done::Ran(t, k, Box::new(report))
}

/// Runs `count` jobs with `work` in `place` (each worker a box and a run
/// folder of its own in `scratch`); `on_result` sees each as it is done,
/// on the calling thread.
fn run_jobs(
    place: Place<'_>,
    jobs: usize,
    count: usize,
    scratch: &Path,
    work: impl Fn(&mut Worker<'_>, usize) -> Done + Sync,
    on_result: impl FnMut(usize, Done),
) {
    // One run folder per box, reused (see `TestRun::workdir`).
    let workdir = || {
        tempfile::Builder::new()
            .prefix("worker-")
            .tempdir_in(scratch)
            .map(RunFolder::Made)
    };
    match place {
        Place::Pool(boxes) => super::pool::run(
            jobs,
            count,
            || {
                let worker = boxes.open();
                worker.only_runs_from_now_on();
                (worker, workdir())
            },
            work,
            on_result,
        ),
        Place::Here(held, folder) => super::pool::run_here(
            count,
            (
                Box::new(held) as Box<dyn Runs + '_>,
                Ok(RunFolder::Kept(folder)),
            ),
            work,
            on_result,
        ),
    }
}

/// A submission's report: its verdict and score (`score.rs`), or why it
/// did not build.
fn summarize(task: &Task<'_>, tests: Vec<Option<TestReport>>) -> TaskReport {
    let skipped = tests.iter().filter(|t| t.is_none()).count();
    let tests: Vec<TestReport> = tests.into_iter().flatten().collect();
    let (verdict, message) = match &task.program {
        Built::CompileError(error) => (Verdict::CompileError, Some(error.to_string())),
        Built::JudgeError(error) => (Verdict::JudgeError, Some(error.to_string())),
        Built::Ready(exe) => (task_verdict(task.problem, &tests), exe.note.clone()),
        Built::Answers(_) => (task_verdict(task.problem, &tests), None),
    };
    TaskReport {
        problem: task.problem.id.clone(),
        submission: task.submission.clone(),
        owner: task.owner.clone(),
        verdict,
        score: task_score(task.problem, &tests),
        message,
        tests,
        skipped,
    }
}
