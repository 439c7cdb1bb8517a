//! A test result as a row of `test_results` and back: the one place that
//! knows how a `TestReport` is spelled in the store.

use std::time::Duration;

use serde_json::{Value, json};

use super::engine::{DbError, Sql};
use super::schema::TEST_COLUMNS;
use super::value::{Row, params};
use crate::compare::FirstDifference;
use crate::runner::{RunTiming, TestReport, Timing, TranscriptLine};
use crate::sandbox::{Metrics, Termination};
use crate::verdict::Verdict;

/// How a run ended, as stored: `exit N`, `signal N`, or the limit the judge
/// killed it at (`cpu`, `wall`, `output`, `memory`).
pub(super) fn termination_text(termination: Termination) -> String {
    match termination {
        Termination::Exited(code) => format!("exit {code}"),
        Termination::Signaled(signal) => format!("signal {signal}"),
        Termination::CpuLimit => "cpu".into(),
        Termination::WallLimit => "wall".into(),
        Termination::OutputLimit => "output".into(),
        Termination::MemoryLimit => "memory".into(),
    }
}

fn parse_termination(text: &str) -> Option<Termination> {
    let number = |rest: &str| rest.trim().parse::<i32>().ok();
    match text {
        "cpu" => Some(Termination::CpuLimit),
        "wall" => Some(Termination::WallLimit),
        "output" => Some(Termination::OutputLimit),
        "memory" => Some(Termination::MemoryLimit),
        _ => {
            if let Some(rest) = text.strip_prefix("exit ") {
                number(rest).map(Termination::Exited)
            } else {
                number(text.strip_prefix("signal ")?).map(Termination::Signaled)
            }
        }
    }
}

fn ms(duration: Duration) -> i64 {
    duration.as_millis().min(i64::MAX as u128) as i64
}

fn timing_json(timing: &Timing) -> String {
    json!(
        timing
            .runs
            .iter()
            .map(|run| json!({
                "verdict": run.verdict.short(),
                "cpu_ms": ms(run.cpu),
                "wall_ms": ms(run.wall),
            }))
            .collect::<Vec<_>>()
    )
    .to_string()
}

fn parse_timing(text: &str, unstable: bool) -> Option<Timing> {
    let runs: Vec<Value> = serde_json::from_str(text).ok()?;
    let millis = |run: &Value, key: &str| Duration::from_millis(run[key].as_u64().unwrap_or(0));
    Some(Timing {
        unstable,
        runs: runs
            .iter()
            .map(|run| RunTiming {
                verdict: run["verdict"]
                    .as_str()
                    .and_then(Verdict::from_short)
                    .unwrap_or(Verdict::JudgeError),
                cpu: millis(run, "cpu_ms"),
                wall: millis(run, "wall_ms"),
            })
            .collect(),
    })
}

fn transcript_json(lines: &[TranscriptLine]) -> Option<String> {
    (!lines.is_empty()).then(|| {
        json!(
            lines
                .iter()
                .map(|l| json!({ "submission": l.from_submission, "text": l.text }))
                .collect::<Vec<_>>()
        )
        .to_string()
    })
}

fn parse_transcript(text: &str) -> Vec<TranscriptLine> {
    let lines: Vec<Value> = serde_json::from_str(text).unwrap_or_default();
    lines
        .iter()
        .map(|l| TranscriptLine {
            from_submission: l["submission"].as_bool().unwrap_or(false),
            text: l["text"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

/// Inserts `report` as the `ordinal`-th test result of `submission`.
/// `cache_key` is `None` for a result that must never be reused.
pub(super) fn insert_test(
    tx: &mut impl Sql,
    submission: i64,
    ordinal: usize,
    report: &TestReport,
    cache_key: Option<&str>,
    reused: bool,
) -> Result<(), DbError> {
    let sql = format!(
        "INSERT INTO test_results (submission_id, {TEST_COLUMNS}) VALUES \
         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, \
          ?20, ?21, ?22, ?23, ?24)"
    );
    let difference = report.difference.as_ref();
    tx.execute(
        &sql,
        params![
            submission,
            ordinal,
            report.test,
            report.group,
            report.verdict.short(),
            ms(report.metrics.cpu),
            ms(report.metrics.wall),
            ms(report.metrics.waited),
            report.metrics.peak_memory_kib,
            report.metrics.output_bytes,
            report.termination.map(termination_text),
            report.score,
            report.detail,
            difference.map(|d| d.line),
            difference.map(|d| d.token),
            difference.map(|d| d.expected.as_str()),
            difference.map(|d| d.actual.as_str()),
            difference.map(|d| d.diff.as_str()),
            report.stderr,
            transcript_json(&report.transcript),
            report.timing.as_ref().map(timing_json),
            report.timing_unstable(),
            cache_key,
            reused,
        ],
    )?;
    Ok(())
}

/// The columns `test_from_row` reads, for a `SELECT`.
pub(super) const TEST_SELECT: &str = "test, test_group, verdict, cpu_ms, wall_ms, waited_ms, \
     memory_kib, output_bytes, termination, score, detail, diff_line, diff_token, diff_expected, \
     diff_actual, diff_text, stderr, transcript, timing_runs, timing_unstable, reused";

/// A `TestReport` from a row selected with `TEST_SELECT`, and whether it was
/// itself reused.
pub(super) fn test_from_row(row: &Row) -> Result<(TestReport, bool), DbError> {
    let millis = |i: usize| -> Result<Duration, DbError> {
        Ok(Duration::from_millis(row.get::<i64>(i)?.max(0) as u64))
    };
    let verdict: String = row.get(2)?;
    let difference = match row.get::<Option<i64>>(11)? {
        None => None,
        Some(line) => Some(FirstDifference {
            line: line as usize,
            token: row.get::<Option<i64>>(12)?.unwrap_or(0) as usize,
            expected: row.get::<Option<String>>(13)?.unwrap_or_default(),
            actual: row.get::<Option<String>>(14)?.unwrap_or_default(),
            diff: row.get::<Option<String>>(15)?.unwrap_or_default(),
        }),
    };
    let unstable: bool = row.get(19)?;
    let report = TestReport {
        test: row.get(0)?,
        group: row.get(1)?,
        verdict: Verdict::from_short(&verdict).unwrap_or(Verdict::JudgeError),
        metrics: Metrics {
            cpu: millis(3)?,
            wall: millis(4)?,
            waited: millis(5)?,
            peak_memory_kib: row.get::<i64>(6)?.max(0) as u64,
            output_bytes: row.get::<i64>(7)?.max(0) as u64,
        },
        termination: row
            .get::<Option<String>>(8)?
            .as_deref()
            .and_then(parse_termination),
        score: row.get(9)?,
        detail: row.get(10)?,
        difference,
        stderr: row.get(16)?,
        transcript: row
            .get::<Option<String>>(17)?
            .as_deref()
            .map(parse_transcript)
            .unwrap_or_default(),
        timing: row
            .get::<Option<String>>(18)?
            .as_deref()
            .and_then(|text| parse_timing(text, unstable)),
        // A multi-pass test's pass times are not stored (its slowest pass
        // is its time).
        pass_cpu: Vec::new(),
    };
    Ok((report, row.get(20)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations_survive_the_round_trip() {
        for termination in [
            Termination::Exited(0),
            Termination::Exited(-3),
            Termination::Signaled(11),
            Termination::CpuLimit,
            Termination::WallLimit,
            Termination::OutputLimit,
            Termination::MemoryLimit,
        ] {
            assert_eq!(
                parse_termination(&termination_text(termination)),
                Some(termination)
            );
        }
        assert_eq!(parse_termination("exit x"), None);
    }
}
