//! The live data of a view: submissions, their judgements and test runs,
//! and clarifications, each shown to whom `access.rs` says. A submission
//! counts if a participant made it for a problem the session serves (the
//! jury's own tries are not the contest's).

use std::time::SystemTime;

use serde_json::Value;

use super::access::Audience;
use super::objects::{self, abstime, seconds};
use super::view::{View, json, judgement_type, language_id, problem_id};
use crate::serve::access::FeedbackLevel;
use crate::serve::scoreboard;
use crate::serve::session::{Feedback, Scoring};
use crate::store::entries::Entry;
use crate::store::judgings::Judging;
use crate::verdict::Verdict;

impl View<'_> {
    /// The participants' submissions to served problems this view shows.
    pub(crate) fn visible_entries(&self) -> impl Iterator<Item = &Entry> {
        let access = self.access();
        let problems = access.sees_problems();
        self.data.entries.iter().filter(move |e| {
            self.team_of(e.account).is_some()
                && problems
                && self.app.problem(&e.problem).is_some()
                && access.sees_entry(e)
        })
    }

    /// Whether the test runs of a participant's judging are shown: to
    /// the jury; to its owner when the session shows every test's verdict.
    fn sees_runs_of(&self, account: i64) -> bool {
        match self.access().feedback() {
            FeedbackLevel::Jury => true,
            FeedbackLevel::Owner(feedback) => {
                self.audience == Audience::Team(account) && feedback == Feedback::Tests
            }
        }
    }

    /// The judgings this view shows: of visible submissions; in 2023-06
    /// only the current one of each (a rejudge's result replaces it).
    pub(crate) fn visible_judgings(&self) -> impl Iterator<Item = (&Judging, &Entry)> {
        let entries: Vec<&Entry> = self.visible_entries().collect();
        self.data.judgings.iter().filter_map(move |j| {
            let entry = entries.iter().find(|e| e.id == j.entry)?;
            (j.valid || self.version.shows_replaced_judgements()).then_some((j, *entry))
        })
    }

    /// Where a submission's files are downloaded (with the same login).
    pub(crate) fn files_href(&self, entry: i64) -> String {
        format!(
            "{}/contests/{}/submissions/{entry}/files",
            self.version.base(),
            self.app.session.name
        )
    }

    pub(crate) fn submissions(&self) -> Vec<(String, Value)> {
        self.visible_entries()
            .map(|e| {
                let object = objects::Submission {
                    id: e.id.to_string(),
                    language_id: language_id(&e.language),
                    problem_id: problem_id(&e.problem),
                    team_id: e.account.to_string(),
                    time: abstime(e.submitted_at),
                    contest_time: self.contest_time(e.submitted_at),
                    entry_point: entry_point(&e.language, &e.file_name),
                    files: vec![objects::FileRef {
                        href: self.files_href(e.id),
                        filename: "files.zip".into(),
                        mime: "application/zip",
                    }],
                };
                (object.id.clone(), json(&object))
            })
            .collect()
    }

    pub(crate) fn judgements(&self) -> Vec<(String, Value)> {
        let score = self.app.session.scoring == Scoring::Points;
        self.visible_judgings()
            .map(|(j, entry)| {
                let start = parse(&j.started_at);
                let end = j.finished_at.as_deref().map(parse);
                let verdict = j.verdict.as_deref().and_then(Verdict::from_short);
                // The verdict and the end come together: a judging whose
                // verdict is unreadable shows as still running.
                let end = end.filter(|_| verdict.is_some());
                let runs_seen = self.sees_runs_of(entry.account);
                let max_run_time = self
                    .data
                    .runs
                    .iter()
                    .filter(|r| runs_seen && r.judging == j.id)
                    .map(|r| r.cpu_ms.max(0) as u64)
                    .max()
                    .map(seconds);
                let object = objects::Judgement {
                    id: j.id.to_string(),
                    submission_id: j.entry.to_string(),
                    judgement_type_id: verdict.map(judgement_type),
                    // A running judging has scored nothing yet.
                    score: score
                        .then(|| verdict.map_or(0.0, |v| scoreboard::points(v, j.score).max(0.0))),
                    current: self.version.shows_replaced_judgements().then_some(j.valid),
                    start_time: abstime(start),
                    start_contest_time: self.contest_time(start),
                    end_time: end.map(abstime),
                    end_contest_time: end.map(|e| self.contest_time(e)),
                    max_run_time,
                };
                (object.id.clone(), json(&object))
            })
            .collect()
    }

    pub(crate) fn runs(&self) -> Vec<(String, Value)> {
        let judgings: Vec<(&Judging, &Entry)> = self.visible_judgings().collect();
        self.data
            .runs
            .iter()
            .filter_map(|run| {
                let (_, entry) = judgings.iter().find(|(j, _)| j.id == run.judging)?;
                if !self.sees_runs_of(entry.account) {
                    return None;
                }
                let verdict = Verdict::from_short(&run.verdict)?;
                let time = parse(&run.finished_at);
                let object = objects::Run {
                    id: run.id.to_string(),
                    judgement_id: run.judging.to_string(),
                    ordinal: run.ordinal + 1,
                    judgement_type_id: judgement_type(verdict),
                    time: abstime(time),
                    contest_time: self.contest_time(time),
                    run_time: seconds(run.cpu_ms.max(0) as u64),
                };
                Some((object.id.clone(), json(&object)))
            })
            .collect()
    }

    /// A reply names what it answers only to whom sees that too (the
    /// spec: referential integrity for everyone).
    pub(crate) fn clarifications(&self) -> Vec<(String, Value)> {
        let seen =
            |c: &&crate::store::clarifications::Clarification| self.audience.sees_clarification(c);
        let visible: Vec<_> = self.data.clarifications.iter().filter(seen).collect();
        visible
            .iter()
            .map(|c| {
                let team = |account: Option<i64>| account.and_then(|a| self.team_of(a));
                let reply_to = c
                    .reply_to
                    .filter(|id| visible.iter().any(|v| v.id == *id))
                    .map(|id| id.to_string());
                let problem = c
                    .problem
                    .as_deref()
                    .filter(|p| self.app.problem(p).is_some() && self.access().sees_problems())
                    .map(problem_id);
                let object = objects::Clarification {
                    id: c.id.to_string(),
                    from_team_id: team(c.from),
                    to: self.version.recipients(team(c.to)),
                    reply_to_id: reply_to,
                    problem_id: problem,
                    text: c.text.clone(),
                    time: abstime(c.sent_at),
                    contest_time: self.contest_time(c.sent_at),
                };
                (object.id.clone(), json(&object))
            })
            .collect()
    }
}

/// What the spec calls a submission's entry point: Java's and Kotlin's
/// main class, Python's file; none for the rest (C and C++ must have none).
fn entry_point(language: &str, file_name: &str) -> Option<String> {
    let stem = file_name
        .rsplit_once('.')
        .map_or(file_name, |(stem, _)| stem);
    match language {
        "java" | "kotlin" => Some(stem.to_string()),
        "python" | "pypy" => Some(file_name.to_string()),
        _ => None,
    }
}

fn parse(text: &str) -> SystemTime {
    humantime::parse_rfc3339(text).unwrap_or(SystemTime::UNIX_EPOCH)
}
