//! The two released versions of the CCS Contest API the server speaks at
//! once, and the few serde types in which they differ: `/api/` speaks
//! 2023-06 (what DOMjudge and today's ICPC tools read), `/api/2026-01/`
//! the 2026-01 release. Everything else in `objects.rs` is the same in
//! both.
//!
//! What changed from 2023-06 to 2026-01, as far as a session has it:
//! penalty and scoreboard times are RELTIME strings, not whole minutes;
//! a clarification's recipients are `to_team_ids` (an array), not
//! `to_team_id`; problems give their memory, output and code limits;
//! judgements say whether they are `current` (a rejudge keeps the old
//! one, not current), where 2023-06 shows the current judgement only; the
//! clarification capability is `post_clar`, not `team_clar`.

use std::time::Duration;

use serde::Serialize;

use super::objects::reltime;

/// A version of the CCS Contest API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Version {
    V2023_06,
    V2026_01,
}

impl Version {
    pub(crate) const ALL: [Version; 2] = [Version::V2023_06, Version::V2026_01];

    /// As the API information endpoint names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Version::V2023_06 => "2023-06",
            Version::V2026_01 => "2026-01",
        }
    }

    /// The base URL's path, without the trailing slash.
    pub(crate) fn base(self) -> &'static str {
        match self {
            Version::V2023_06 => "/api",
            Version::V2026_01 => "/api/2026-01",
        }
    }

    pub(crate) fn documentation(self) -> String {
        format!("https://ccs-specs.icpc.io/{}/contest_api", self.name())
    }

    /// A penalty or a time on the scoreboard (whole minutes).
    pub(crate) fn minutes(self, minutes: u64) -> Minutes {
        match self {
            Version::V2023_06 => Minutes::Count(minutes),
            Version::V2026_01 => Minutes::RelTime(reltime(Duration::from_secs(minutes * 60))),
        }
    }

    /// A scoreboard row's `score.time` (the last solve, or the last better
    /// score): `null` before the first, as the spec says. 2023-06's schema
    /// has no `null` for it, so it is left out there; 2026-01's schema
    /// wants it present then (its `oneOf` for no solve matches twice when
    /// it is absent).
    pub(crate) fn last_solve(self, minutes: Option<u64>) -> Option<Option<Minutes>> {
        match (self, minutes) {
            (_, Some(m)) => Some(Some(self.minutes(m))),
            (Version::V2023_06, None) => None,
            (Version::V2026_01, None) => Some(None),
        }
    }

    /// Whom a jury message is for: one team, or (`None`) everybody.
    pub(crate) fn recipients(self, team: Option<String>) -> Recipients {
        match self {
            Version::V2023_06 => Recipients {
                to_team_id: team,
                to_team_ids: None,
            },
            Version::V2026_01 => Recipients {
                to_team_id: None,
                to_team_ids: team.map(|t| vec![t]),
            },
        }
    }

    /// A problem's limits, which 2023-06 does not define.
    pub(crate) fn problem_limits(self, limits: ProblemLimits) -> Option<ProblemLimits> {
        (self == Version::V2026_01).then_some(limits)
    }

    /// Whether judgements replaced by a rejudge are shown (as not
    /// `current`); 2023-06 has no such property, so it shows only the
    /// current one.
    pub(crate) fn shows_replaced_judgements(self) -> bool {
        self == Version::V2026_01
    }

    /// The capability to send clarifications as a team.
    pub(crate) fn team_clarification_capability(self) -> &'static str {
        match self {
            Version::V2023_06 => "team_clar",
            Version::V2026_01 => "post_clar",
        }
    }
}

/// Whole minutes: a number in 2023-06, a RELTIME in 2026-01.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum Minutes {
    Count(u64),
    RelTime(String),
}

/// A clarification's recipients; `None`s are left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Recipients {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) to_team_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) to_team_ids: Option<Vec<String>>,
}

/// A problem's limits (2026-01): memory and output in MiB, code in KiB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct ProblemLimits {
    pub(crate) memory_limit: u64,
    pub(crate) output_limit: u64,
    pub(crate) code_limit: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(value: impl Serialize) -> String {
        serde_json::to_string(&value).unwrap()
    }

    #[test]
    fn times_and_recipients_differ_by_version() {
        assert_eq!(json(Version::V2023_06.minutes(80)), "80");
        assert_eq!(json(Version::V2026_01.minutes(80)), "\"1:20:00.000\"");
        assert_eq!(
            json(Version::V2023_06.recipients(Some("3".into()))),
            r#"{"to_team_id":"3"}"#
        );
        assert_eq!(
            json(Version::V2026_01.recipients(Some("3".into()))),
            r#"{"to_team_ids":["3"]}"#
        );
        assert_eq!(json(Version::V2026_01.recipients(None)), "{}");
    }
}
