//! One audience's view of the contest at one moment, in one version: the
//! store read once (`Data`), then every object rendered from it. The REST
//! endpoints and the event feed both take their objects from here, so a
//! feed's last event for an object is what its endpoint answers.
//!
//! Ids: a team is its participant's account id (usernames may be longer
//! than the spec's 36 characters); a group is a participant's team name
//! when that is an ID, else a short hash of it; problems keep their ids
//! and are labelled A, B, ...; Python is `python3`, as the spec's table of
//! languages has it.

use std::collections::{BTreeMap, BTreeSet};
use std::time::SystemTime;

use serde::Serialize;
use serde_json::Value;

use super::access::{Audience, Kind};
use super::objects::{self, abstime, contest_time, is_id, reltime, seconds};
use super::versions::{ProblemLimits, Version};
use crate::serve::access::Access;
use crate::serve::accounts::{self, Account};
use crate::serve::app::App;
use crate::serve::http::Viewer;
use crate::serve::session::{Schedule, Scoring};
use crate::store::DbError;
use crate::store::clarifications::{self, Clarification};
use crate::store::entries::{self, Entry};
use crate::store::judgings::{self, Judging, TestRun};
use crate::verdict::Verdict;

/// What the store holds of the session, read at once.
pub(crate) struct Data {
    pub(crate) accounts: Vec<Account>,
    pub(crate) entries: Vec<Entry>,
    pub(crate) judgings: Vec<Judging>,
    pub(crate) runs: Vec<TestRun>,
    pub(crate) clarifications: Vec<Clarification>,
    /// When the session was first served: an open-ended one's start.
    pub(crate) created: SystemTime,
}

impl Data {
    pub(crate) fn read(app: &App) -> Result<Data, DbError> {
        let mut store = app.store();
        let db = store.db();
        Ok(Data {
            accounts: accounts::accounts(db)?,
            entries: entries::all_entries(db, app.ids.session)?,
            judgings: judgings::judgings(db, app.ids.session)?,
            runs: judgings::test_runs(db, app.ids.session)?,
            clarifications: clarifications::all(db, app.ids.session)?,
            created: crate::store::sessions::session_created(db, app.ids.session)?,
        })
    }
}

/// The contest as `audience` sees it at `now`, in `version`.
pub(crate) struct View<'a> {
    pub(crate) app: &'a App,
    pub(crate) data: &'a Data,
    pub(crate) audience: Audience,
    pub(crate) version: Version,
    pub(crate) now: SystemTime,
    /// The audience as the server's access rule knows a viewer.
    viewer: Viewer,
}

/// A group's id for a participant's team name.
pub(crate) fn group_id(team: &str) -> String {
    if is_id(team) {
        return team.to_string();
    }
    let hash = blake3::hash(team.as_bytes()).to_hex();
    format!("g-{}", &hash[..12])
}

/// A problem's CCS id.
pub(crate) fn problem_id(problem: &str) -> String {
    if is_id(problem) {
        return problem.to_string();
    }
    let hash = blake3::hash(problem.as_bytes()).to_hex();
    format!("p-{}", &hash[..12])
}

/// A problem's label by its place: A, B, ..., Z, AA, AB, ...
fn label(ordinal: usize) -> String {
    let mut n = ordinal + 1;
    let mut label = Vec::new();
    while n > 0 {
        n -= 1;
        label.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    label.reverse();
    String::from_utf8(label).unwrap_or_default()
}

/// A language key as a CCS language id.
pub(crate) fn language_id(key: &str) -> String {
    match key {
        "python" => "python3".to_string(),
        key if is_id(key) => key.to_string(),
        key => format!("l-{}", &blake3::hash(key.as_bytes()).to_hex()[..12]),
    }
}

/// Our verdict as a judgement type id (our RE is the spec's RTE).
pub(crate) fn judgement_type(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::RuntimeError => "RTE",
        other => other.short(),
    }
}

/// An object as JSON (the types are plain data: this cannot fail).
pub(crate) fn json(object: &impl Serialize) -> Value {
    serde_json::to_value(object).unwrap_or(Value::Null)
}

impl<'a> View<'a> {
    pub(crate) fn new(
        app: &'a App,
        data: &'a Data,
        audience: Audience,
        version: Version,
        now: SystemTime,
    ) -> View<'a> {
        View {
            app,
            data,
            audience,
            version,
            now,
            viewer: audience.viewer(),
        }
    }

    /// The server's one access rule (`serve/access.rs`) for this audience
    /// at this view's moment: problems before the start, entries, the
    /// freeze, feedback.
    pub(crate) fn access(&self) -> Access<'_> {
        Access::at(&self.app.session, &self.viewer, self.now)
    }

    /// When contest time counts from: the start, or when an open-ended
    /// session was first served.
    pub(crate) fn start(&self) -> SystemTime {
        self.app.session.start().unwrap_or(self.data.created)
    }

    pub(crate) fn contest_time(&self, at: SystemTime) -> String {
        contest_time(self.start(), at)
    }

    pub(crate) fn participants(&self) -> impl Iterator<Item = &Account> {
        self.data.accounts.iter().filter(|a| !a.is_jury())
    }

    /// A participant's team id, if `account` is a participant.
    pub(crate) fn team_of(&self, account: i64) -> Option<String> {
        self.participants()
            .any(|a| a.id == account)
            .then(|| account.to_string())
    }

    /// Every object of `kind` this view shows, as (id, JSON) in id order
    /// of the store (the contest and the state: one, with no id).
    pub(crate) fn objects(&self, kind: Kind) -> Vec<(Option<String>, Value)> {
        let listed = |items: Vec<(String, Value)>| {
            items
                .into_iter()
                .map(|(id, value)| (Some(id), value))
                .collect()
        };
        match kind {
            Kind::Contest => vec![(None, json(&self.contest()))],
            Kind::State => vec![(None, json(&self.state()))],
            Kind::JudgementTypes => listed(self.judgement_types()),
            Kind::Languages => listed(self.languages()),
            Kind::Problems => listed(self.problems()),
            Kind::Groups => listed(self.groups()),
            Kind::Organizations => Vec::new(),
            Kind::Teams => listed(self.teams()),
            Kind::Accounts => listed(self.accounts()),
            Kind::Submissions => listed(self.submissions()),
            Kind::Judgements => listed(self.judgements()),
            Kind::Runs => listed(self.runs()),
            Kind::Clarifications => listed(self.clarifications()),
            Kind::Awards => listed(self.awards()),
        }
    }

    pub(crate) fn contest(&self) -> objects::Contest {
        let session = &self.app.session;
        let (start_time, duration, freeze) = match session.schedule() {
            // Open-ended: started when first served, and it goes on.
            Schedule::OpenEnded => (self.data.created, OPEN_ENDED, None),
            Schedule::Timed { start, end, freeze } => (
                start,
                end.duration_since(start).unwrap_or_default(),
                freeze.map(|f| end.duration_since(f).unwrap_or_default()),
            ),
        };
        objects::Contest {
            id: session.name.clone(),
            name: session.title.clone(),
            formal_name: session.title.clone(),
            start_time: Some(abstime(start_time)),
            duration: reltime(duration),
            scoreboard_freeze_duration: freeze.map(reltime),
            scoreboard_type: match session.scoring {
                Scoring::Points => "score",
                Scoring::Icpc { .. } => "pass-fail",
            },
            penalty_time: match session.scoring {
                Scoring::Icpc { penalty } => Some(self.version.minutes(penalty.as_secs() / 60)),
                Scoring::Points => None,
            },
        }
    }

    /// The state at `now`: the freeze ends with the contest (the server
    /// thaws at the end); results are final once every submission made
    /// during the contest is judged.
    pub(crate) fn state(&self) -> objects::State {
        let now = self.now;
        let passed = |at: SystemTime| (at <= now).then(|| abstime(at));
        let (started, ended, freeze) = match self.app.session.schedule() {
            Schedule::OpenEnded => (Some(self.data.created), None, None),
            Schedule::Timed { start, end, freeze } => (Some(start), Some(end), freeze),
        };
        let ended_at = ended.filter(|&end| end <= now);
        objects::State {
            started: started.and_then(passed),
            frozen: freeze.map(passed),
            ended: ended_at.map(abstime),
            thawed: freeze.map(|_| ended_at.map(abstime)),
            finalized: ended_at.and_then(|end| self.finalized(end)).map(abstime),
            end_of_updates: None,
        }
    }

    /// When the last submission made before `end` was judged (not before
    /// `end`), if none is still waiting.
    fn finalized(&self, end: SystemTime) -> Option<SystemTime> {
        let mut last = end;
        for entry in self.data.entries.iter().filter(|e| e.submitted_at < end) {
            if entry.status != entries::Status::Judged {
                return None;
            }
            let finished = self
                .data
                .judgings
                .iter()
                .filter(|j| j.entry == entry.id && j.valid)
                .filter_map(|j| j.finished_at.as_deref())
                .filter_map(|t| humantime::parse_rfc3339(t).ok())
                .max();
            last = last.max(finished.unwrap_or(end));
        }
        Some(last)
    }

    fn judgement_types(&self) -> Vec<(String, Value)> {
        let pass_fail = matches!(self.app.session.scoring, Scoring::Icpc { .. });
        Verdict::ALL
            .iter()
            .map(|&verdict| {
                let object = objects::JudgementType {
                    id: judgement_type(verdict),
                    name: verdict.to_string(),
                    // A compile error and a judge error are no tries.
                    penalty: pass_fail.then_some(!matches!(
                        verdict,
                        Verdict::Accepted | Verdict::CompileError | Verdict::JudgeError
                    )),
                    solved: verdict == Verdict::Accepted,
                };
                (object.id.to_string(), json(&object))
            })
            .collect()
    }

    /// The session's languages, and any other one a stored submission used.
    fn languages(&self) -> Vec<(String, Value)> {
        let mut seen = BTreeSet::new();
        let configured = self.app.languages.iter().map(|l| objects::Language {
            id: language_id(&l.key),
            name: l.name.clone(),
            entry_point_required: false,
            extensions: l.extensions.clone(),
        });
        let used = self.data.entries.iter().map(|e| objects::Language {
            id: language_id(&e.language),
            name: e.language.clone(),
            entry_point_required: false,
            extensions: Vec::new(),
        });
        configured
            .chain(used)
            .filter(|l| seen.insert(l.id.clone()))
            .map(|l| (l.id.clone(), json(&l)))
            .collect()
    }

    /// The problems, once this audience may see them (the jury always;
    /// everybody else from the start on).
    fn problems(&self) -> Vec<(String, Value)> {
        if !self.access().sees_problems() {
            return Vec::new();
        }
        let max_score = self.max_scores();
        self.app
            .problems
            .iter()
            .enumerate()
            .map(|(ordinal, p)| {
                let object = objects::Problem {
                    id: problem_id(&p.id),
                    label: label(ordinal),
                    name: p.title.clone(),
                    ordinal,
                    time_limit: seconds((p.time_limit_seconds * 1000.0).round() as u64),
                    limits: self.version.problem_limits(ProblemLimits {
                        memory_limit: p.memory_mib,
                        output_limit: p.output_mib,
                        code_limit: self.app.session.max_source / 1024,
                    }),
                    test_data_count: p.tests,
                    max_score: max_score
                        .as_ref()
                        .map(|m| m.get(&p.id).copied().unwrap_or(1.0)),
                };
                (object.id.clone(), json(&object))
            })
            .collect()
    }

    /// A score contest's best score per problem on this audience's
    /// scoreboard (at least 1): each judgement's score lies below it.
    fn max_scores(&self) -> Option<BTreeMap<String, f64>> {
        if self.app.session.scoring != Scoring::Points {
            return None;
        }
        let board = self.board();
        let mut best = BTreeMap::new();
        for row in &board.rows {
            for (problem, cell) in board.problems.iter().zip(&row.cells) {
                let entry = best.entry(problem.clone()).or_insert(1.0_f64);
                *entry = entry.max(cell.points);
            }
        }
        Some(best)
    }

    fn groups(&self) -> Vec<(String, Value)> {
        let names: BTreeSet<&str> = self
            .participants()
            .filter_map(|a| a.team.as_deref())
            .collect();
        names
            .into_iter()
            .map(|name| {
                let object = objects::Group {
                    id: group_id(name),
                    name: crate::escape::name(name),
                };
                (object.id.clone(), json(&object))
            })
            .collect()
    }

    fn teams(&self) -> Vec<(String, Value)> {
        self.participants()
            .map(|a| {
                let object = objects::Team {
                    id: a.id.to_string(),
                    label: a.username.clone(),
                    // As everywhere: a control or reordering character
                    // (from before names were checked) shows escaped.
                    name: crate::escape::name(&a.display_name),
                    group_ids: a.team.as_deref().map(group_id).into_iter().collect(),
                };
                (object.id.clone(), json(&object))
            })
            .collect()
    }

    /// The jury sees every account; a participant their own.
    fn accounts(&self) -> Vec<(String, Value)> {
        self.data
            .accounts
            .iter()
            .filter(|a| match self.audience {
                Audience::Jury => true,
                Audience::Team(me) => a.id == me,
                Audience::Public => false,
            })
            .map(|a| {
                let object = account(a);
                (object.id.clone(), json(&object))
            })
            .collect()
    }
}

/// An account as the `accounts` and `account` endpoints show it.
pub(crate) fn account(account: &Account) -> objects::Account {
    objects::Account {
        id: account.id.to_string(),
        username: account.username.clone(),
        name: crate::escape::name(&account.display_name),
        kind: if account.is_jury() { "judge" } else { "team" },
        team_id: (!account.is_jury()).then(|| account.id.to_string()),
    }
}

/// An open-ended session's duration: it goes on (ten years).
const OPEN_ENDED: std::time::Duration = std::time::Duration::from_secs(10 * 365 * 24 * 3600);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_run_from_a_to_z_then_aa() {
        let labels: Vec<String> = [0, 1, 25, 26, 27, 701, 702].map(label).to_vec();
        assert_eq!(labels, ["A", "B", "Z", "AA", "AB", "ZZ", "AAA"]);
    }

    #[test]
    fn names_that_are_no_ids_get_a_stable_one() {
        assert_eq!(group_id("red"), "red");
        let spaced = group_id("Room 101");
        assert!(is_id(&spaced) && spaced.starts_with("g-"), "{spaced}");
        assert_eq!(spaced, group_id("Room 101"));
        assert_eq!(language_id("python"), "python3");
        assert_eq!(language_id("rust"), "rust");
    }
}
