//! The runner driven by a scripted sandbox: scheduling, first-failure
//! rules, verdict precedence, interrupts and events, without starting a
//! single process.

use std::path::Path;
use std::sync::atomic::Ordering;

use super::scripted::{Scripted, doubles_except, outcome, plan, problem};
use super::{Event, RunPlan, Task, TaskReport, execute};
use crate::compile::{Built, Executable};
use crate::sandbox::SandboxError;
use crate::sandbox::{Boxes, Interaction, RunOutcome, RunRequest, Runs, Termination};
use crate::spec::{ProblemSpec, load_problem};
use crate::verdict::Verdict;

fn run(
    problem: &ProblemSpec,
    sandbox: &dyn Boxes,
    stop_at_first_failure: bool,
    jobs: usize,
) -> (Vec<TaskReport>, Vec<String>) {
    let plan = plan(problem, stop_at_first_failure, jobs);
    let scratch = tempfile::tempdir().unwrap();
    let mut events = Vec::new();
    let reports = execute(&plan, sandbox, scratch.path(), |event| {
        events.push(match event {
            Event::Started { total_tests } => format!("started {total_tests}"),
            Event::TestFinished { test, report, .. } => format!("test {test} {}", report.test),
            Event::TaskFinished { report, .. } => format!("task {}", report.verdict.short()),
            Event::RunFinished { interrupted, .. } => format!("finished {interrupted}"),
        })
    });
    (reports, events)
}

#[test]
fn the_first_failing_test_decides_and_stops_the_submission() {
    let dir = tempfile::tempdir().unwrap();
    let problem = problem(dir.path(), 8);
    for jobs in [1, 2, 4] {
        let sandbox = Scripted::new(doubles_except("3"));
        let (reports, _) = run(&problem, &sandbox, true, jobs);
        let task = &reports[0];
        assert_eq!(task.verdict, Verdict::WrongAnswer, "jobs {jobs}");
        let failing: Vec<&str> = task
            .tests
            .iter()
            .filter(|t| t.verdict != Verdict::Accepted)
            .map(|t| t.test.as_str())
            .collect();
        assert_eq!(failing, ["secret/3"], "jobs {jobs}");
        assert_eq!(task.tests.len() + task.skipped, 8, "jobs {jobs}");
        if jobs == 1 {
            assert_eq!(task.skipped, 5, "nothing runs after the failure");
        }
    }
}

#[test]
fn without_stopping_every_test_runs() {
    let dir = tempfile::tempdir().unwrap();
    let problem = problem(dir.path(), 5);
    let sandbox = Scripted::new(doubles_except("2"));
    let (reports, events) = run(&problem, &sandbox, false, 2);
    assert_eq!(reports[0].tests.len(), 5);
    assert_eq!(reports[0].skipped, 0);
    assert_eq!(sandbox.runs.load(Ordering::SeqCst), 5);
    assert_eq!(events.first().map(String::as_str), Some("started 5"));
    let mut tests: Vec<&str> = events
        .iter()
        .filter(|e| e.starts_with("test "))
        .map(String::as_str)
        .collect();
    tests.sort();
    // Each test is named by its index in the task and by its name.
    assert_eq!(
        tests,
        [
            "test 0 secret/1",
            "test 1 secret/2",
            "test 2 secret/3",
            "test 3 secret/4",
            "test 4 secret/5"
        ]
    );
    let end: Vec<&str> = events.iter().rev().take(2).map(String::as_str).collect();
    assert_eq!(end, ["finished false", "task WA"]);
}

#[test]
fn limits_and_crashes_come_before_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let problem = problem(dir.path(), 4);
    // Right output, but killed at the CPU limit / exited 1 / killed by a signal.
    let sandbox = Scripted::new(|input: &str| {
        let n: u64 = input.parse().unwrap();
        let termination = match n {
            2 => Termination::CpuLimit,
            3 => Termination::Exited(1),
            4 => Termination::Signaled(11),
            _ => Termination::Exited(0),
        };
        (termination, format!("{}\n", 2 * n))
    });
    let (reports, _) = run(&problem, &sandbox, false, 1);
    let verdicts: Vec<Verdict> = reports[0].tests.iter().map(|t| t.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Accepted,
            Verdict::TimeLimitExceeded,
            Verdict::RuntimeError,
            Verdict::RuntimeError
        ]
    );
    assert_eq!(reports[0].verdict, Verdict::TimeLimitExceeded);
}

#[test]
fn an_interrupt_stops_the_run_and_still_reports() {
    let dir = tempfile::tempdir().unwrap();
    let problem = problem(dir.path(), 6);
    let mut sandbox = Scripted::new(doubles_except("none"));
    sandbox.cancel_after = Some(2);
    let (reports, events) = run(&problem, &sandbox, false, 1);
    assert_eq!(reports.len(), 1, "the task is still reported");
    assert!(sandbox.runs.load(Ordering::SeqCst) <= 3);
    assert!(reports[0].skipped >= 3, "{:?}", reports[0].skipped);
    let end: Vec<&str> = events.iter().rev().take(2).map(String::as_str).collect();
    assert!(end[1].starts_with("task "), "{events:?}");
    assert_eq!(end[0], "finished true", "the run says it was interrupted");
}

#[test]
fn the_checkers_files_never_go_through_a_link_the_run_left() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("checked");
    std::fs::create_dir_all(package.join("data/secret")).unwrap();
    std::fs::write(
        package.join("problem.toml"),
        "id = \"checked\"\n[compare]\nmode = \"checker\"\n[checker]\nfile = \"check.py\"\n",
    )
    .unwrap();
    std::fs::write(package.join("check.py"), "").unwrap();
    std::fs::write(package.join("data/secret/1.in"), "1\n").unwrap();
    std::fs::write(package.join("data/secret/1.ans"), "2\n").unwrap();
    let problem = load_problem(&package).unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let exe = |program: &str| Executable {
        program: program.into(),
        args: Vec::new(),
        read_only: Vec::new(),
        note: None,
    };
    let plan = RunPlan {
        tasks: vec![Task {
            problem: &problem,
            owner: crate::owner::Owner::File {
                path: "planter".into(),
            },
            submission: "planter".into(),
            program: Built::Ready(exe("/fake")),
            checker: Some(exe("/checker")),
            output_checker: None,
            tests: problem.tests.iter().collect(),
            every_test: false,
            static_validation: None,
            output_visualization: None,
        }],
        stop_at_first_failure: false,
        jobs: 1,
    };
    let scratch = tempfile::tempdir().unwrap();
    // The submission plants links in its working folder where the judge
    // used to put the checker's files; the checker accepts.
    let sandbox = Scripted::on_request(|request: &RunRequest| {
        let termination = if request.program == Path::new("/fake") {
            for name in ["team_output", "feedback"] {
                std::os::unix::fs::symlink(&victim, request.workdir.join(name)).unwrap();
            }
            Termination::Exited(0)
        } else {
            // The Kattis protocol: 42 accepts.
            Termination::Exited(42)
        };
        outcome(termination, 0, "2\n")
    });
    let reports = execute(&plan, &sandbox, scratch.path(), |_| {});
    assert_eq!(reports[0].verdict, Verdict::Accepted, "{:?}", reports[0]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

/// A box that must stay on the thread that made it, as a real one does.
struct HeldHere<F> {
    inner: Scripted<F>,
    thread: std::thread::ThreadId,
    _not_sync: std::cell::Cell<()>,
}

impl<F: Fn(&RunRequest) -> RunOutcome + Sync> Runs for HeldHere<F> {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        assert_eq!(
            std::thread::current().id(),
            self.thread,
            "run off its thread"
        );
        self.inner.run(request)
    }

    fn run_interactive(
        &self,
        submission: &RunRequest,
        interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        self.inner.run_interactive(submission, interactor)
    }

    fn is_cancelled(&self) -> bool {
        Runs::is_cancelled(&self.inner)
    }
}

#[test]
fn a_held_box_runs_every_test_on_its_own_thread_as_one_job_would() {
    let dir = tempfile::tempdir().unwrap();
    let problem = problem(dir.path(), 6);
    let held = HeldHere {
        inner: Scripted::new(doubles_except("4")),
        thread: std::thread::current().id(),
        _not_sync: std::cell::Cell::new(()),
    };
    let scratch = tempfile::tempdir().unwrap();
    let kept = tempfile::tempdir().unwrap();
    let mut finished = Vec::new();
    let reports = crate::runner::execute_at(
        &plan(&problem, true, 1),
        None,
        crate::runner::Place::Here(&held, kept.path()),
        scratch.path(),
        |event| {
            if let Event::TestFinished { test, .. } = event {
                finished.push(test);
            }
        },
    );
    let (pooled, _) = run(&problem, &Scripted::new(doubles_except("4")), true, 1);
    assert_eq!(reports[0].verdict, Verdict::WrongAnswer);
    assert_eq!(reports[0].verdict, pooled[0].verdict);
    assert_eq!(reports[0].skipped, pooled[0].skipped);
    assert_eq!(
        finished,
        [0, 1, 2, 3],
        "in order, and none after the failure"
    );
    assert_eq!(held.inner.runs.load(Ordering::SeqCst), 4);
    let left = std::fs::read_dir(kept.path()).unwrap().count();
    assert_eq!(left, 0, "the kept run folder is left empty, for the next");
}

#[test]
fn a_submission_of_the_wrong_form_for_the_kind_is_a_judge_error_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let batch = problem(dir.path(), 1);
    let mut output_only = batch.clone();
    output_only.kind = crate::spec::JudgingKind::OutputOnly;
    let answers_dir = dir.path().join("answers");
    std::fs::create_dir(&answers_dir).unwrap();
    std::fs::write(answers_dir.join("1.ans"), "2\n").unwrap();
    let answers =
        crate::compile::AnswerSet::read(&answers_dir, crate::untrusted::Links::Refuse).unwrap();
    let exe = Executable {
        program: "/fake".into(),
        args: Vec::new(),
        read_only: Vec::new(),
        note: None,
    };
    let workdir = dir.path().join("work");
    std::fs::create_dir(&workdir).unwrap();
    let sandbox = Scripted::new(doubles_except(""));
    let judge = |problem: &ProblemSpec, submission| {
        super::judge_test(&super::TestRun {
            sandbox: &sandbox,
            problem,
            checker: None,
            output_checker: None,
            submission,
            test: &problem.tests[0],
            workdir: &workdir,
            static_validation: None,
            output_visualization: None,
        })
    };
    let wrong = judge(&batch, super::Submission::Answers(&answers));
    assert_eq!(wrong.verdict, Verdict::JudgeError);
    assert_eq!(
        wrong.detail.as_deref(),
        Some("a batch problem judges a program, not answer files")
    );
    let wrong = judge(&output_only, super::Submission::Program(&exe));
    assert_eq!(wrong.verdict, Verdict::JudgeError);
    assert_eq!(sandbox.runs.load(Ordering::SeqCst), 0);
    // The right forms are judged: the answer file, then the program.
    let right = judge(&output_only, super::Submission::Answers(&answers));
    assert_eq!(right.verdict, Verdict::Accepted, "{right:?}");
    assert_eq!(sandbox.runs.load(Ordering::SeqCst), 0);
    let right = judge(&batch, super::Submission::Program(&exe));
    assert_eq!(right.verdict, Verdict::Accepted, "{right:?}");
    assert_eq!(sandbox.runs.load(Ordering::SeqCst), 1);
}
