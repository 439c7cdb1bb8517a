//! What the runner tells reporters, and the reports it assembles.

use serde::Serialize;

use crate::compare::FirstDifference;
use crate::owner::Owner;
use crate::sandbox::{Metrics, Termination};
use crate::verdict::Verdict;

/// The result of one submission on one test.
#[derive(Debug, Clone)]
pub struct TestReport {
    /// The test's path under `data/` without extension.
    pub test: String,
    pub group: String,
    pub verdict: Verdict,
    pub metrics: Metrics,
    /// How the run ended (`None` if it never started).
    pub termination: Option<Termination>,
    /// The checker's score, on scored problems.
    pub score: Option<f64>,
    /// How the run ended, a checker's message, or a judge error.
    pub detail: Option<String>,
    pub difference: Option<FirstDifference>,
    /// The start of the submission's stderr.
    pub stderr: String,
    /// Set when the test was judged more than once because a busy machine
    /// may have decided its verdict (see `judge_test`).
    pub timing: Option<Timing>,
    /// Interactive problems: the end of the conversation, escaped.
    pub transcript: Vec<TranscriptLine>,
    /// Multi-pass problems: the CPU time of each pass, in order (the time
    /// limit applies to each alone, and `metrics` holds the slowest).
    /// Not kept in the result store: a stored result has none.
    pub pass_cpu: Vec<std::time::Duration>,
}

/// One line of an interactive conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptLine {
    /// Sent by the submission (else by the interactor).
    pub from_submission: bool,
    pub text: String,
}

/// The runs of a test judged again because its timing was disturbed.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// The runs disagreed: the verdict is not trusted to the time limit.
    pub unstable: bool,
    pub runs: Vec<RunTiming>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunTiming {
    pub verdict: Verdict,
    pub cpu: std::time::Duration,
    pub wall: std::time::Duration,
}

impl TestReport {
    /// Whether the test is a sample (by the one rule,
    /// `formats::is_sample_group`).
    pub fn is_sample(&self) -> bool {
        crate::formats::is_sample_group(&self.group)
    }

    /// Whether runs of this test disagreed on its verdict.
    pub fn timing_unstable(&self) -> bool {
        self.timing.as_ref().is_some_and(|t| t.unstable)
    }
}

impl TestReport {
    /// A report that is a judge error until a run and a comparison say otherwise.
    pub(crate) fn unjudged(test: &crate::spec::TestCase) -> TestReport {
        TestReport {
            test: test.name.clone(),
            group: test.group.clone(),
            verdict: Verdict::JudgeError,
            metrics: Metrics::default(),
            termination: None,
            score: None,
            detail: None,
            difference: None,
            stderr: String::new(),
            timing: None,
            transcript: Vec::new(),
            pass_cpu: Vec::new(),
        }
    }

    pub(crate) fn judge_error(test: &crate::spec::TestCase, detail: String) -> TestReport {
        TestReport {
            detail: Some(detail),
            ..TestReport::unjudged(test)
        }
    }
}

/// The result of one submission on one problem.
#[derive(Debug, Clone, Serialize)]
pub struct TaskReport {
    pub problem: String,
    pub submission: String,
    /// Whom the report judged (the task's owner).
    #[serde(skip)]
    pub owner: Owner,
    /// The verdict of the first test that was not accepted (Kattis order), or AC.
    pub verdict: Verdict,
    /// Scored problems: sum of group scores (each group aggregated by sum or min).
    pub score: Option<f64>,
    /// Compile errors and judge errors that stopped the submission before
    /// any test; or, when it ran, what the judge decided about how it runs
    /// that the user may not expect (`ran class Main: ...`).
    pub message: Option<String>,
    #[serde(skip)]
    pub tests: Vec<TestReport>,
    /// Tests not run because an earlier one failed (with stop-at-first-failure) or on interrupt.
    pub skipped: usize,
}

impl TaskReport {
    pub fn max_cpu_ms(&self) -> u128 {
        self.tests
            .iter()
            .map(|t| t.metrics.cpu.as_millis())
            .max()
            .unwrap_or(0)
    }

    pub fn max_memory_kib(&self) -> u64 {
        self.tests
            .iter()
            .map(|t| t.metrics.peak_memory_kib)
            .max()
            .unwrap_or(0)
    }
}

/// What the runner tells its subscribers (`report::Reporter`), in the
/// order it happens. `task` is the task's index in the plan, `test` the
/// test's index in that task's tests; `elapsed` is the time since the run
/// started.
#[derive(Debug)]
pub enum Event<'a> {
    /// The run starts: how many tests will be judged at most.
    Started { total_tests: usize },
    TestFinished {
        task: usize,
        /// Whom the test judged (the task's owner).
        owner: &'a Owner,
        test: usize,
        report: &'a TestReport,
        elapsed: std::time::Duration,
    },
    TaskFinished {
        task: usize,
        report: &'a TaskReport,
        elapsed: std::time::Duration,
    },
    /// Every task is finished (or skipped, after an interrupt).
    RunFinished {
        elapsed: std::time::Duration,
        interrupted: bool,
    },
}
