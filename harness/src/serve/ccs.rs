//! The read side of the ICPC CCS Contest API, where it fits, so that
//! existing ICPC tools can read a session: the contest, judgement types,
//! languages, problems, teams (the participants), submissions, judgements,
//! the scoreboard, and the NDJSON event feed (a snapshot of every object
//! in the feed's order). What the pages hide stays hidden: submissions and
//! judgements need a token (a participant's own only; the jury's all),
//! and a participant or the public sees no judgement of a submission made
//! during the freeze.

use std::time::{Duration, SystemTime};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::api::ApiError;
use super::app::AppState;
use super::error::AppError;
use super::http::Viewer;
use super::pages::current_scoreboard;
use super::session::Scoring;
use crate::store::entries;
use crate::verdict::Verdict;

type ApiResult = Result<Response, ApiError>;

/// CCS times: `2026-05-01T09:00:00.000+00:00`.
fn time(at: SystemTime) -> String {
    let text = humantime::format_rfc3339_millis(at).to_string();
    text.strip_suffix('Z')
        .map_or(text.clone(), |t| format!("{t}+00:00"))
}

/// CCS relative times: `h:mm:ss.uuu`, negative before the start.
fn reltime(duration: Duration) -> String {
    let millis = duration.as_millis();
    let (h, m, s, ms) = (
        millis / 3_600_000,
        millis / 60_000 % 60,
        millis / 1000 % 60,
        millis % 1000,
    );
    format!("{h}:{m:02}:{s:02}.{ms:03}")
}

fn contest_time(app: &AppState, at: SystemTime) -> String {
    let start = app.session.start().unwrap_or(SystemTime::UNIX_EPOCH);
    match at.duration_since(start) {
        Ok(d) => reltime(d),
        Err(e) => format!("-{}", reltime(e.duration())),
    }
}

/// Our verdict as a CCS judgement type id.
fn judgement_type(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::RuntimeError => "RTE",
        other => other.short(),
    }
}

/// The contest's id: the session's name.
fn check_contest(app: &AppState, viewer: &Viewer, id: &str) -> Result<(), ApiError> {
    if app.session.private && viewer.login.is_none() {
        return Err(AppError::Login.into());
    }
    if id != app.session.name {
        return Err(AppError::NotFound.into());
    }
    Ok(())
}

/// The CCS objects, as ICPC tools read them.
mod objects {
    use serde::Serialize;

    #[derive(Serialize)]
    pub(super) struct Contest<'a> {
        pub(super) id: &'a str,
        pub(super) name: &'a str,
        pub(super) formal_name: &'a str,
        pub(super) start_time: Option<String>,
        pub(super) duration: Option<String>,
        pub(super) scoreboard_freeze_duration: Option<String>,
        pub(super) scoreboard_type: &'static str,
        /// Minutes.
        pub(super) penalty_time: u64,
    }

    #[derive(Serialize)]
    pub(super) struct JudgementType {
        pub(super) id: &'static str,
        pub(super) name: String,
        pub(super) penalty: bool,
        pub(super) solved: bool,
    }

    #[derive(Serialize)]
    pub(super) struct Language<'a> {
        pub(super) id: &'a str,
        pub(super) name: &'a str,
        pub(super) extensions: &'a [String],
    }

    #[derive(Serialize)]
    pub(super) struct Problem<'a> {
        pub(super) id: &'a str,
        pub(super) label: &'a str,
        pub(super) name: &'a str,
        pub(super) ordinal: usize,
        pub(super) time_limit: f64,
        pub(super) test_data_count: usize,
    }

    #[derive(Serialize)]
    pub(super) struct Team {
        pub(super) id: String,
        pub(super) name: String,
        pub(super) display_name: String,
        pub(super) group_ids: Vec<String>,
    }

    #[derive(Serialize)]
    pub(super) struct Submission {
        pub(super) id: String,
        pub(super) team_id: String,
        pub(super) problem_id: String,
        pub(super) language_id: String,
        pub(super) time: String,
        pub(super) contest_time: String,
        /// Always empty: the source is on the jury's pages, not here.
        pub(super) files: Vec<String>,
    }

    #[derive(Serialize)]
    pub(super) struct Judgement {
        pub(super) id: String,
        pub(super) submission_id: String,
        pub(super) judgement_type_id: Option<&'static str>,
        pub(super) score: Option<f64>,
        pub(super) start_time: String,
        pub(super) start_contest_time: String,
        pub(super) end_time: Option<String>,
        pub(super) end_contest_time: Option<String>,
        pub(super) valid: bool,
    }

    #[derive(Serialize)]
    pub(super) struct Scoreboard {
        pub(super) time: String,
        pub(super) contest_time: String,
        pub(super) state: State,
        pub(super) rows: Vec<Row>,
    }

    #[derive(Serialize)]
    pub(super) struct State {
        pub(super) frozen: Option<String>,
    }

    #[derive(Serialize)]
    pub(super) struct Row {
        pub(super) rank: usize,
        pub(super) team_id: String,
        pub(super) score: RowScore,
        pub(super) problems: Vec<Cell>,
    }

    /// A points session ranks by score; an ICPC one by problems solved,
    /// then penalty minutes.
    #[derive(Serialize)]
    #[serde(untagged)]
    pub(super) enum RowScore {
        Points { score: f64 },
        Icpc { num_solved: usize, total_time: u64 },
    }

    #[derive(Serialize)]
    pub(super) struct Cell {
        pub(super) problem_id: String,
        pub(super) num_judged: usize,
        pub(super) num_pending: usize,
        pub(super) solved: bool,
        pub(super) time: Option<u64>,
        pub(super) score: f64,
    }

    /// One line of the event feed.
    #[derive(Serialize)]
    pub(super) struct Event<'a, T: Serialize> {
        pub(super) token: String,
        #[serde(rename = "type")]
        pub(super) kind: &'a str,
        pub(super) id: Option<&'a str>,
        pub(super) data: &'a T,
    }
}

fn contest(app: &AppState) -> objects::Contest<'_> {
    let (start_time, duration, scoreboard_freeze_duration) = match app.session.schedule {
        super::session::Schedule::OpenEnded => (None, None, None),
        super::session::Schedule::Timed { start, end, freeze } => (
            Some(time(start)),
            Some(reltime(end.duration_since(start).unwrap_or_default())),
            freeze.map(|f| reltime(end.duration_since(f).unwrap_or_default())),
        ),
    };
    objects::Contest {
        id: &app.session.name,
        name: &app.session.title,
        formal_name: &app.session.title,
        start_time,
        duration,
        scoreboard_freeze_duration,
        scoreboard_type: match app.session.scoring {
            Scoring::Points => "score",
            Scoring::Icpc { .. } => "pass-fail",
        },
        penalty_time: match app.session.scoring {
            Scoring::Icpc { penalty } => penalty.as_secs() / 60,
            Scoring::Points => 0,
        },
    }
}

fn judgement_types() -> Vec<objects::JudgementType> {
    Verdict::ALL
        .iter()
        .map(|&v| objects::JudgementType {
            id: judgement_type(v),
            name: v.to_string(),
            penalty: !matches!(
                v,
                Verdict::Accepted | Verdict::CompileError | Verdict::JudgeError
            ),
            solved: v == Verdict::Accepted,
        })
        .collect()
}

fn languages(app: &AppState) -> Vec<objects::Language<'_>> {
    app.languages
        .iter()
        .map(|l| objects::Language {
            id: &l.key,
            name: &l.name,
            extensions: &l.extensions,
        })
        .collect()
}

fn problems(app: &AppState) -> Vec<objects::Problem<'_>> {
    app.problems
        .iter()
        .enumerate()
        .map(|(ordinal, p)| objects::Problem {
            id: &p.id,
            label: &p.id,
            name: &p.title,
            ordinal,
            time_limit: p.time_limit_seconds,
            test_data_count: p.tests,
        })
        .collect()
}

fn teams(app: &AppState) -> Result<Vec<objects::Team>, ApiError> {
    let people = super::accounts::accounts(app.store().db())?;
    Ok(people
        .into_iter()
        .filter(|a| !a.is_jury())
        .map(|a| objects::Team {
            id: a.username.clone(),
            name: a.username,
            display_name: crate::escape::name(&a.display_name),
            group_ids: a.team.into_iter().collect(),
        })
        .collect())
}

/// The submissions and judgements `viewer` may see.
fn submissions_and_judgements(
    app: &AppState,
    viewer: &Viewer,
) -> Result<(Vec<objects::Submission>, Vec<objects::Judgement>), ApiError> {
    let Some(account) = viewer.account() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let (entries, judgings) = {
        let mut store = app.store();
        (
            entries::all_entries(store.db(), app.ids.session)?,
            entries::judgings(store.db(), app.ids.session)?,
        )
    };
    let frozen = if account.is_jury() {
        None
    } else {
        app.session.frozen_since(SystemTime::now())
    };
    let mine = |e: &&entries::Entry| account.is_jury() || e.account == account.id;
    let submissions = entries
        .iter()
        .filter(mine)
        .map(|e| objects::Submission {
            id: e.id.to_string(),
            team_id: e.username.clone(),
            problem_id: e.problem.clone(),
            language_id: e.language.clone(),
            time: time(e.submitted_at),
            contest_time: contest_time(app, e.submitted_at),
            files: Vec::new(),
        })
        .collect();
    let judgements = judgings
        .iter()
        .filter_map(|j| {
            let entry = entries.iter().filter(mine).find(|e| e.id == j.entry)?;
            if frozen.is_some_and(|f| entry.submitted_at >= f) {
                return None;
            }
            let start = humantime::parse_rfc3339(&j.started_at).unwrap_or(SystemTime::UNIX_EPOCH);
            let end = j
                .finished_at
                .as_deref()
                .and_then(|t| humantime::parse_rfc3339(t).ok());
            Some(objects::Judgement {
                id: j.id.to_string(),
                submission_id: j.entry.to_string(),
                judgement_type_id: j
                    .verdict
                    .as_deref()
                    .and_then(Verdict::from_short)
                    .map(judgement_type),
                score: j.score,
                start_time: time(start),
                start_contest_time: contest_time(app, start),
                end_time: end.map(time),
                end_contest_time: end.map(|e| contest_time(app, e)),
                valid: j.valid,
            })
        })
        .collect();
    Ok((submissions, judgements))
}

async fn scoreboard(app: &AppState, viewer: &Viewer) -> Result<objects::Scoreboard, ApiError> {
    let board = current_scoreboard(app, viewer).await?;
    let rows = board
        .rows
        .iter()
        .map(|r| objects::Row {
            rank: r.rank,
            team_id: r.username.clone(),
            score: if board.points {
                objects::RowScore::Points { score: r.points }
            } else {
                objects::RowScore::Icpc {
                    num_solved: r.solved,
                    total_time: r.penalty,
                }
            },
            problems: board
                .problems
                .iter()
                .zip(&r.cells)
                .map(|(p, c)| objects::Cell {
                    problem_id: p.clone(),
                    num_judged: c.rejected + usize::from(c.solved),
                    num_pending: c.pending,
                    solved: c.solved,
                    time: c.minutes,
                    score: c.points,
                })
                .collect(),
        })
        .collect();
    let now = SystemTime::now();
    Ok(objects::Scoreboard {
        time: time(now),
        contest_time: contest_time(app, now),
        state: objects::State {
            frozen: board.frozen.map(time),
        },
        rows,
    })
}

pub(crate) async fn contests(State(app): State<AppState>, viewer: Viewer) -> ApiResult {
    check_contest(&app, &viewer, &app.session.name.clone())?;
    Ok(Json([contest(&app)]).into_response())
}

/// `GET /api/contests/ID[/KIND]`.
pub(crate) async fn endpoint(
    State(app): State<AppState>,
    viewer: Viewer,
    Path((id, kind)): Path<(String, String)>,
) -> ApiResult {
    check_contest(&app, &viewer, &id)?;
    Ok(match kind.as_str() {
        "judgement-types" => Json(judgement_types()).into_response(),
        "languages" => Json(languages(&app)).into_response(),
        // Before the start only the jury sees problems (the access rule).
        "problems" if !super::access::Access::new(&app.session, &viewer).sees_problems() => {
            Json(Vec::<objects::Problem<'_>>::new()).into_response()
        }
        "problems" => Json(problems(&app)).into_response(),
        "teams" => Json(teams(&app)?).into_response(),
        "submissions" => Json(submissions_and_judgements(&app, &viewer)?.0).into_response(),
        "judgements" => Json(submissions_and_judgements(&app, &viewer)?.1).into_response(),
        "scoreboard" => Json(scoreboard(&app, &viewer).await?).into_response(),
        "event-feed" => return event_feed(&app, &viewer),
        _ => return Err(AppError::NotFound.into()),
    })
}

pub(crate) async fn one_contest(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult {
    check_contest(&app, &viewer, &id)?;
    Ok(Json(contest(&app)).into_response())
}

/// The event feed as NDJSON: every object once, contest first, in the
/// order CCS tools expect (a snapshot; follow live changes on `/events`).
fn event_feed(app: &AppState, viewer: &Viewer) -> ApiResult {
    let mut feed = Feed::default();
    feed.push("contest", None, &contest(app));
    feed.push("judgement-types", None, &judgement_types());
    feed.push("languages", None, &languages(app));
    feed.push("problems", None, &problems(app));
    feed.push("teams", None, &teams(app)?);
    let (submissions, judgements) = submissions_and_judgements(app, viewer)?;
    for submission in &submissions {
        feed.push("submissions", Some(&submission.id), submission);
    }
    for judgement in &judgements {
        feed.push("judgements", Some(&judgement.id), judgement);
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], feed.lines).into_response())
}

/// The event feed being written: one JSON line an event, numbered.
#[derive(Default)]
struct Feed {
    lines: String,
    token: u64,
}

impl Feed {
    fn push(&mut self, kind: &str, id: Option<&str>, data: &impl serde::Serialize) {
        self.token += 1;
        let event = objects::Event {
            token: self.token.to_string(),
            kind,
            id,
            data,
        };
        // Plain structs of strings and numbers: serialising cannot fail.
        if let Ok(line) = serde_json::to_string(&event) {
            self.lines.push_str(&line);
            self.lines.push('\n');
        }
    }
}
