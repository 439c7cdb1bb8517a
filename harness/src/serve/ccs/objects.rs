//! The CCS objects as serde types, one per endpoint, with the spec's
//! property names; a property that is `None` is left out (the spec: a
//! `null` property may be absent). Where the two versions differ the
//! field's type comes from `versions.rs`. Times: TIME as
//! `2026-05-01T09:00:00.000+00:00`, RELTIME as `h:mm:ss.uuu`, both always
//! with milliseconds (the spec asks for one form throughout).

use std::time::{Duration, SystemTime};

use serde::Serialize;

use super::versions::{Minutes, ProblemLimits, Recipients};

/// A TIME.
pub(crate) fn abstime(at: SystemTime) -> String {
    let text = humantime::format_rfc3339_millis(at).to_string();
    match text.strip_suffix('Z') {
        Some(local) => format!("{local}+00:00"),
        None => text,
    }
}

/// A RELTIME: `h:mm:ss.uuu`.
pub(crate) fn reltime(duration: Duration) -> String {
    let millis = duration.as_millis();
    let (h, m, s, ms) = (
        millis / 3_600_000,
        millis / 60_000 % 60,
        millis / 1000 % 60,
        millis % 1000,
    );
    format!("{h}:{m:02}:{s:02}.{ms:03}")
}

/// A RELTIME from `start` to `at`, negative before the start.
pub(crate) fn contest_time(start: SystemTime, at: SystemTime) -> String {
    match at.duration_since(start) {
        Ok(d) => reltime(d),
        Err(e) => format!("-{}", reltime(e.duration())),
    }
}

/// Seconds with millisecond precision, as the spec's `time_limit` and
/// `run_time` want them (an integer multiple of 0.001).
pub(crate) fn seconds(millis: u64) -> f64 {
    millis as f64 / 1000.0
}

/// Whether `text` is a CCS ID: `[a-zA-Z0-9_.-]`, at most 36 characters,
/// not starting with `-` or `.`, not ending with `.`.
pub(crate) fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 36
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        && !text.starts_with(['-', '.'])
        && !text.ends_with('.')
}

/// `GET /` of a version: the API information.
#[derive(Debug, Serialize)]
pub(crate) struct ApiInfo {
    pub(crate) version: &'static str,
    pub(crate) version_url: String,
    pub(crate) provider: Provider,
}

#[derive(Debug, Serialize)]
pub(crate) struct Provider {
    pub(crate) name: &'static str,
    pub(crate) version: String,
}

/// `GET contests/ID/access`.
#[derive(Debug, Serialize)]
pub(crate) struct Access {
    pub(crate) capabilities: Vec<&'static str>,
    pub(crate) endpoints: Vec<AccessEndpoint>,
}

#[derive(Debug, Serialize)]
pub(crate) struct AccessEndpoint {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) properties: Vec<&'static str>,
}

/// A failure's body: `{"code": 404, "message": "..."}`.
#[derive(Debug, Serialize)]
pub(crate) struct Failure<'a> {
    pub(crate) code: u16,
    pub(crate) message: &'a str,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Contest {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) formal_name: String,
    pub(crate) start_time: Option<String>,
    pub(crate) duration: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) scoreboard_freeze_duration: Option<String>,
    pub(crate) scoreboard_type: &'static str,
    /// Pass-fail only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) penalty_time: Option<Minutes>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct State {
    pub(crate) started: Option<String>,
    /// Present (perhaps `null`) iff the contest has a freeze, as `thawed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) frozen: Option<Option<String>>,
    pub(crate) ended: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) thawed: Option<Option<String>>,
    pub(crate) finalized: Option<String>,
    pub(crate) end_of_updates: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct JudgementType {
    pub(crate) id: &'static str,
    pub(crate) name: String,
    /// Pass-fail only (the spec: iff the contest has a penalty time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) penalty: Option<bool>,
    pub(crate) solved: bool,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Language {
    pub(crate) id: String,
    pub(crate) name: String,
    /// Never: a submission is one file, and the judge finds its entry.
    pub(crate) entry_point_required: bool,
    pub(crate) extensions: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Problem {
    pub(crate) id: String,
    pub(crate) label: String,
    pub(crate) name: String,
    pub(crate) ordinal: usize,
    pub(crate) time_limit: f64,
    /// 2026-01 only.
    #[serde(flatten)]
    pub(crate) limits: Option<ProblemLimits>,
    pub(crate) test_data_count: usize,
    /// Score contests only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_score: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Group {
    pub(crate) id: String,
    pub(crate) name: String,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Team {
    pub(crate) id: String,
    pub(crate) label: String,
    pub(crate) name: String,
    pub(crate) group_ids: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Account {
    pub(crate) id: String,
    pub(crate) username: String,
    pub(crate) name: String,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) team_id: Option<String>,
}

/// A FILE reference.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FileRef {
    pub(crate) href: String,
    pub(crate) filename: String,
    pub(crate) mime: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Submission {
    pub(crate) id: String,
    pub(crate) language_id: String,
    pub(crate) problem_id: String,
    pub(crate) team_id: String,
    pub(crate) time: String,
    pub(crate) contest_time: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) entry_point: Option<String>,
    pub(crate) files: Vec<FileRef>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Judgement {
    pub(crate) id: String,
    pub(crate) submission_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) judgement_type_id: Option<&'static str>,
    /// Score contests only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) score: Option<f64>,
    /// 2026-01 only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) current: Option<bool>,
    pub(crate) start_time: String,
    pub(crate) start_contest_time: String,
    /// The end's two times and the verdict come together (once judged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) end_time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) end_contest_time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_run_time: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Run {
    pub(crate) id: String,
    pub(crate) judgement_id: String,
    pub(crate) ordinal: i64,
    pub(crate) judgement_type_id: &'static str,
    pub(crate) time: String,
    pub(crate) contest_time: String,
    pub(crate) run_time: f64,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Clarification {
    pub(crate) id: String,
    pub(crate) from_team_id: Option<String>,
    #[serde(flatten)]
    pub(crate) to: Recipients,
    pub(crate) reply_to_id: Option<String>,
    pub(crate) problem_id: Option<String>,
    pub(crate) text: String,
    pub(crate) time: String,
    pub(crate) contest_time: String,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Award {
    pub(crate) id: String,
    pub(crate) citation: String,
    pub(crate) team_ids: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Scoreboard {
    pub(crate) time: String,
    pub(crate) contest_time: String,
    pub(crate) state: State,
    pub(crate) rows: Vec<Row>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Row {
    pub(crate) rank: usize,
    pub(crate) team_id: String,
    pub(crate) score: RowScore,
    pub(crate) problems: Vec<Cell>,
}

/// Pass-fail: problems solved, penalty, and the time of the last solve
/// (none before the first); score: the total, and the time of its last
/// improvement.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum RowScore {
    PassFail {
        num_solved: usize,
        total_time: Minutes,
        #[serde(skip_serializing_if = "Option::is_none")]
        time: Option<Option<Minutes>>,
    },
    Score {
        score: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        time: Option<Option<Minutes>>,
    },
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Cell {
    pub(crate) problem_id: String,
    pub(crate) num_judged: usize,
    pub(crate) num_pending: usize,
    /// Pass-fail only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) solved: Option<bool>,
    /// Score contests only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) score: Option<f64>,
    /// When solved (or scored above 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) time: Option<Minutes>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_have_milliseconds_and_an_offset() {
        let at = humantime::parse_rfc3339("2026-05-01T09:00:00Z").unwrap();
        assert_eq!(abstime(at), "2026-05-01T09:00:00.000+00:00");
        let later = at + Duration::from_millis(3_723_004);
        assert_eq!(contest_time(at, later), "1:02:03.004");
        assert_eq!(contest_time(later, at), "-1:02:03.004");
    }

    #[test]
    fn ids_are_what_the_spec_allows() {
        for good in ["alice", "a-b_c.d", "0", &"x".repeat(36)] {
            assert!(is_id(good), "{good}");
        }
        for bad in ["", "-a", ".a", "a.", "a b", "é", &"x".repeat(37)] {
            assert!(!is_id(bad), "{bad}");
        }
    }
}
