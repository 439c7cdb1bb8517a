//! Who sees what through the CCS API: the three roles (the public, a
//! team, the jury) and the endpoints and properties each is offered (the
//! `access` endpoint says exactly this). What each may see of problems,
//! submissions, results and feedback is the server's one access rule
//! (`serve/access.rs`, through `View::access`): a participant sees their
//! own submissions, judgements and (when the session shows tests) runs,
//! the public none, nobody but the jury the problems before the start or
//! the true scoreboard during the freeze. Clarifications, which only this
//! API serves yet, go to whom they were sent (`sees_clarification`).

use super::objects::{Access, AccessEndpoint};
use super::versions::Version;
use crate::serve::accounts::{Account, Login, Role};
use crate::serve::http::Viewer;
use crate::serve::session::{Scoring, Session};
use crate::store::clarifications::Clarification;

/// Whom an answer is for: each sees its own view of the contest (and has
/// its own event feed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Audience {
    /// Nobody logged in.
    Public,
    /// A participant, by account id.
    Team(i64),
    Jury,
}

impl Audience {
    pub(crate) fn of(account: Option<&Account>) -> Audience {
        match account {
            None => Audience::Public,
            Some(a) if a.is_jury() => Audience::Jury,
            Some(a) => Audience::Team(a.id),
        }
    }

    /// The audience as a viewer, for the server's access rule (which
    /// asks only whether it is the jury, and which account it is).
    pub(crate) fn viewer(self) -> Viewer {
        let account = |id, role| Account {
            id,
            username: String::new(),
            display_name: String::new(),
            team: None,
            role,
            disabled: false,
        };
        let login = match self {
            Audience::Public => None,
            Audience::Team(id) => Some(account(id, Role::Participant)),
            Audience::Jury => Some(account(0, Role::Jury)),
        };
        Viewer {
            login: login.map(|account| Login {
                account,
                csrf: String::new(),
            }),
            ..Viewer::default()
        }
    }

    /// Whether a clarification is shown: the jury all; a participant
    /// their own questions, the answers to them and messages to
    /// everybody; the public messages to everybody.
    pub(crate) fn sees_clarification(self, clarification: &Clarification) -> bool {
        crate::serve::access::clarification_reaches(&self.viewer(), clarification)
    }

    /// What the `access` endpoint tells this audience.
    pub(crate) fn access(self, session: &Session, version: Version) -> Access {
        let capabilities = match self {
            Audience::Team(_) => vec![version.team_clarification_capability()],
            Audience::Jury if version == Version::V2026_01 => vec!["post_clar"],
            _ => Vec::new(),
        };
        let endpoints = Kind::ALL
            .into_iter()
            .filter(|kind| self.offered(*kind))
            .map(|kind| AccessEndpoint {
                kind: kind.name(),
                properties: kind.properties(session, version),
            })
            .chain(
                [("scoreboard", SCOREBOARD), ("event-feed", EVENT_FEED)].map(
                    |(kind, properties)| AccessEndpoint {
                        kind,
                        properties: properties.to_vec(),
                    },
                ),
            )
            .collect();
        Access {
            capabilities,
            endpoints,
        }
    }

    /// Whether the endpoint of `kind` exists for this audience (else 404).
    pub(crate) fn offered(self, kind: Kind) -> bool {
        match kind {
            Kind::Accounts | Kind::Submissions | Kind::Judgements | Kind::Runs => {
                self != Audience::Public
            }
            _ => true,
        }
    }
}

/// A kind of object, in the order the event feed sends them (what is
/// referred to before what refers to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    Contest,
    JudgementTypes,
    Languages,
    Problems,
    Groups,
    Organizations,
    Teams,
    Accounts,
    State,
    Submissions,
    Judgements,
    Runs,
    Clarifications,
    Awards,
}

const SCOREBOARD: &[&str] = &["time", "contest_time", "state", "rows"];
const CONTEST: &[&str] = &[
    "id",
    "name",
    "formal_name",
    "start_time",
    "duration",
    "scoreboard_freeze_duration",
    "scoreboard_type",
];
const PROBLEM: &[&str] = &[
    "id",
    "label",
    "name",
    "ordinal",
    "time_limit",
    "test_data_count",
];
const STATE: &[&str] = &[
    "started",
    "frozen",
    "ended",
    "thawed",
    "finalized",
    "end_of_updates",
];
const SUBMISSION: &[&str] = &[
    "id",
    "language_id",
    "problem_id",
    "team_id",
    "time",
    "contest_time",
    "entry_point",
    "files",
];
const JUDGEMENT: &[&str] = &[
    "id",
    "submission_id",
    "judgement_type_id",
    "start_time",
    "start_contest_time",
    "end_time",
    "end_contest_time",
    "max_run_time",
];
const RUN: &[&str] = &[
    "id",
    "judgement_id",
    "ordinal",
    "judgement_type_id",
    "time",
    "contest_time",
    "run_time",
];
const CLARIFICATION: &[&str] = &[
    "id",
    "from_team_id",
    "reply_to_id",
    "problem_id",
    "text",
    "time",
    "contest_time",
];
const EVENT_FEED: &[&str] = &["type", "id", "data", "token"];

impl Kind {
    pub(crate) const ALL: [Kind; 14] = [
        Kind::Contest,
        Kind::JudgementTypes,
        Kind::Languages,
        Kind::Problems,
        Kind::Groups,
        Kind::Organizations,
        Kind::Teams,
        Kind::Accounts,
        Kind::State,
        Kind::Submissions,
        Kind::Judgements,
        Kind::Runs,
        Kind::Clarifications,
        Kind::Awards,
    ];

    /// The event type and the `access` name (`contest` for the contest).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Contest => "contest",
            Kind::JudgementTypes => "judgement-types",
            Kind::Languages => "languages",
            Kind::Problems => "problems",
            Kind::Groups => "groups",
            Kind::Organizations => "organizations",
            Kind::Teams => "teams",
            Kind::Accounts => "accounts",
            Kind::State => "state",
            Kind::Submissions => "submissions",
            Kind::Judgements => "judgements",
            Kind::Runs => "runs",
            Kind::Clarifications => "clarifications",
            Kind::Awards => "awards",
        }
    }

    /// The collection under `contests/ID/` (the contest and the state are
    /// not collections).
    pub(crate) fn collection(name: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .filter(|k| !matches!(k, Kind::Contest | Kind::State))
            .find(|k| k.name() == name)
    }

    /// The properties its objects may have (the ones `objects.rs` sends).
    pub(crate) fn properties(self, session: &Session, version: Version) -> Vec<&'static str> {
        let pass_fail = matches!(session.scoring, Scoring::Icpc { .. });
        let new = version == Version::V2026_01;
        let when = |yes: bool, names: &'static [&'static str]| if yes { names } else { &[] };
        let (always, extra): (&[&str], [&[&str]; 2]) = match self {
            Kind::Contest => (CONTEST, [when(pass_fail, &["penalty_time"]), &[]]),
            Kind::JudgementTypes => (
                &["id", "name", "solved"],
                [when(pass_fail, &["penalty"]), &[]],
            ),
            Kind::Languages => (
                &["id", "name", "entry_point_required", "extensions"],
                [&[], &[]],
            ),
            Kind::Problems => (
                PROBLEM,
                [
                    when(new, &["memory_limit", "output_limit", "code_limit"]),
                    when(!pass_fail, &["max_score"]),
                ],
            ),
            Kind::Groups | Kind::Organizations => (&["id", "name"], [&[], &[]]),
            Kind::Teams => (&["id", "label", "name", "group_ids"], [&[], &[]]),
            Kind::Accounts => (&["id", "username", "name", "type", "team_id"], [&[], &[]]),
            Kind::State => (STATE, [&[], &[]]),
            Kind::Submissions => (SUBMISSION, [&[], &[]]),
            Kind::Judgements => (
                JUDGEMENT,
                [when(!pass_fail, &["score"]), when(new, &["current"])],
            ),
            Kind::Runs => (RUN, [&[], &[]]),
            Kind::Clarifications => (
                CLARIFICATION,
                [
                    if new {
                        &["to_team_ids"]
                    } else {
                        &["to_team_id"]
                    },
                    &[],
                ],
            ),
            Kind::Awards => (&["id", "citation", "team_ids"], [&[], &[]]),
        };
        [always, extra[0], extra[1]].concat()
    }

    /// The properties of type ID (not `id`) a collection may be filtered
    /// on (`?team_id=3`; empty for `null`).
    pub(crate) fn filters(self) -> &'static [&'static str] {
        match self {
            Kind::Accounts => &["team_id"],
            Kind::Submissions => &["language_id", "problem_id", "team_id"],
            Kind::Judgements => &["submission_id", "judgement_type_id"],
            Kind::Runs => &["judgement_id", "judgement_type_id"],
            Kind::Clarifications => &["from_team_id", "to_team_id", "reply_to_id", "problem_id"],
            _ => &[],
        }
    }
}
