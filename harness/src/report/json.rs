//! The JSON report (schema in README "JSON report"): one document per
//! command, versioned, with every submission and every test.

use std::io::Write;

use serde_json::{Value, json};

use crate::runner::{TaskReport, TestReport};
use crate::sandbox::Termination;

pub(crate) const SCHEMA_VERSION: u32 = 1;

pub(crate) fn test_json(test: &TestReport) -> Value {
    json!({
        "test": test.test,
        "group": test.group,
        "verdict": test.verdict.short(),
        "cpu_ms": test.metrics.cpu.as_millis() as u64,
        "wall_ms": test.metrics.wall.as_millis() as u64,
        "waited_ms": test.metrics.waited.as_millis() as u64,
        "timing_unstable": test.timing_unstable(),
        "runs": test.timing.as_ref().map(|timing| timing.runs.iter().map(|run| json!({
            "verdict": run.verdict.short(),
            "cpu_ms": run.cpu.as_millis() as u64,
            "wall_ms": run.wall.as_millis() as u64,
        })).collect::<Vec<_>>()),
        "memory_kib": test.metrics.peak_memory_kib,
        "output_bytes": test.metrics.output_bytes,
        "exit_code": match test.termination { Some(Termination::Exited(code)) => Some(code), _ => None },
        "signal": match test.termination { Some(Termination::Signaled(signal)) => Some(signal), _ => None },
        "killed_at": match test.termination {
            Some(Termination::CpuLimit) => Some("cpu"),
            Some(Termination::WallLimit) => Some("wall"),
            Some(Termination::OutputLimit) => Some("output"),
            Some(Termination::MemoryLimit) => Some("memory"),
            _ => None,
        },
        "score": test.score,
        "detail": test.detail,
        "first_difference": test.difference.as_ref().map(|d| json!({
            "line": d.line,
            "token": d.token,
            "expected": d.expected,
            "actual": d.actual,
        })),
        // Interactive problems: the end of the conversation.
        "transcript": (!test.transcript.is_empty()).then(|| test.transcript.iter().map(|line| json!({
            "from": if line.from_submission { "submission" } else { "interactor" },
            "text": line.text,
        })).collect::<Vec<_>>()),
    })
}

pub(crate) fn task_json(task: &TaskReport) -> Value {
    json!({
        "problem": task.problem,
        "submission": task.submission,
        "verdict": task.verdict.short(),
        "score": task.score,
        "message": task.message,
        "skipped_tests": task.skipped,
        "timing_unstable_tests": task.tests.iter().filter(|t| t.timing_unstable()).count(),
        "tests": task.tests.iter().map(test_json).collect::<Vec<_>>(),
    })
}

/// `extra` holds command-specific fields (verify adds expectations).
pub(crate) fn write(
    out: &mut dyn Write,
    command: &str,
    isolation: &str,
    tasks: &[TaskReport],
    extra: Vec<(String, Value)>,
    interrupted: bool,
) -> std::io::Result<()> {
    let mut document = json!({
        "version": SCHEMA_VERSION,
        "command": command,
        "isolation": isolation,
        "interrupted": interrupted,
        "submissions": tasks.iter().map(task_json).collect::<Vec<_>>(),
    });
    if let Value::Object(map) = &mut document {
        map.extend(extra);
    }
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}
