//! The JSON report (schema in README "JSON report"): one document per
//! command, versioned, with every submission and every test, and the
//! sections the verb adds (`sections`).

use std::io::Write;

use serde::Serialize;

use super::sections::Sections;
use crate::runner::{TaskReport, TestReport};
use crate::sandbox::Termination;

pub(crate) const SCHEMA_VERSION: u32 = 1;

/// The whole document. Written through `serde_json::Value`, whose objects
/// keep their keys sorted, as the report always has.
#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    command: &'a str,
    isolation: &'a str,
    interrupted: bool,
    submissions: Vec<SubmissionJson<'a>>,
    #[serde(flatten)]
    sections: &'a Sections,
}

#[derive(Serialize)]
pub(crate) struct SubmissionJson<'a> {
    problem: &'a str,
    submission: &'a str,
    verdict: &'static str,
    score: Option<f64>,
    /// A compile error, or what stopped it before any test.
    message: Option<&'a str>,
    skipped_tests: usize,
    timing_unstable_tests: usize,
    tests: Vec<TestJson<'a>>,
}

impl<'a> SubmissionJson<'a> {
    pub(crate) fn of(task: &'a TaskReport) -> SubmissionJson<'a> {
        SubmissionJson {
            problem: &task.problem,
            submission: &task.submission,
            verdict: task.verdict.short(),
            score: task.score,
            message: task.message.as_deref(),
            skipped_tests: task.skipped,
            timing_unstable_tests: task.tests.iter().filter(|t| t.timing_unstable()).count(),
            tests: task.tests.iter().map(TestJson::of).collect(),
        }
    }
}

#[derive(Serialize)]
pub(crate) struct TestJson<'a> {
    test: &'a str,
    group: &'a str,
    verdict: &'static str,
    cpu_ms: u64,
    wall_ms: u64,
    waited_ms: u64,
    timing_unstable: bool,
    /// Every timed run of a test run more than once.
    runs: Option<Vec<RunJson>>,
    memory_kib: u64,
    output_bytes: u64,
    exit_code: Option<i32>,
    signal: Option<i32>,
    /// The limit the judge killed it at: `cpu`, `wall`, `output`, `memory`.
    killed_at: Option<&'static str>,
    score: Option<f64>,
    detail: Option<&'a str>,
    first_difference: Option<DifferenceJson<'a>>,
    /// Interactive problems: the end of the conversation.
    transcript: Option<Vec<TranscriptJson<'a>>>,
}

#[derive(Serialize)]
struct RunJson {
    verdict: &'static str,
    cpu_ms: u64,
    wall_ms: u64,
}

#[derive(Serialize)]
struct DifferenceJson<'a> {
    line: usize,
    token: usize,
    expected: &'a str,
    actual: &'a str,
}

#[derive(Serialize)]
struct TranscriptJson<'a> {
    /// `submission` or `interactor`.
    from: &'static str,
    text: &'a str,
}

fn ms(duration: std::time::Duration) -> u64 {
    duration.as_millis() as u64
}

impl<'a> TestJson<'a> {
    pub(crate) fn of(test: &'a TestReport) -> TestJson<'a> {
        TestJson {
            test: &test.test,
            group: &test.group,
            verdict: test.verdict.short(),
            cpu_ms: ms(test.metrics.cpu),
            wall_ms: ms(test.metrics.wall),
            waited_ms: ms(test.metrics.waited),
            timing_unstable: test.timing_unstable(),
            runs: test.timing.as_ref().map(|timing| {
                timing
                    .runs
                    .iter()
                    .map(|run| RunJson {
                        verdict: run.verdict.short(),
                        cpu_ms: ms(run.cpu),
                        wall_ms: ms(run.wall),
                    })
                    .collect()
            }),
            memory_kib: test.metrics.peak_memory_kib,
            output_bytes: test.metrics.output_bytes,
            exit_code: match test.termination {
                Some(Termination::Exited(code)) => Some(code),
                _ => None,
            },
            signal: match test.termination {
                Some(Termination::Signaled(signal)) => Some(signal),
                _ => None,
            },
            killed_at: match test.termination {
                Some(Termination::CpuLimit) => Some("cpu"),
                Some(Termination::WallLimit) => Some("wall"),
                Some(Termination::OutputLimit) => Some("output"),
                Some(Termination::MemoryLimit) => Some("memory"),
                _ => None,
            },
            score: test.score,
            detail: test.detail.as_deref(),
            first_difference: test.difference.as_ref().map(|d| DifferenceJson {
                line: d.line,
                token: d.token,
                expected: &d.expected,
                actual: &d.actual,
            }),
            transcript: (!test.transcript.is_empty()).then(|| {
                test.transcript
                    .iter()
                    .map(|line| TranscriptJson {
                        from: if line.from_submission {
                            "submission"
                        } else {
                            "interactor"
                        },
                        text: &line.text,
                    })
                    .collect()
            }),
        }
    }
}

/// Writes the document: the submissions of `tasks`, and `sections`.
pub(crate) fn write(
    out: &mut dyn Write,
    command: &str,
    isolation: &str,
    tasks: &[TaskReport],
    sections: &Sections,
    interrupted: bool,
) -> std::io::Result<()> {
    let document = Document {
        version: SCHEMA_VERSION,
        command,
        isolation,
        interrupted,
        submissions: tasks.iter().map(SubmissionJson::of).collect(),
        sections,
    };
    let document = serde_json::to_value(&document)?;
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}
