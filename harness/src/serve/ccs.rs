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
use serde_json::{Value, json};

use super::api::ApiError;
use super::db;
use super::http::{AppError, AppState, Viewer};
use super::pages::current_scoreboard;
use super::session::Scoring;
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

fn contest(app: &AppState) -> Value {
    let (start, duration, freeze) = match app.session.schedule {
        super::session::Schedule::OpenEnded => (Value::Null, Value::Null, Value::Null),
        super::session::Schedule::Timed { start, end, freeze } => (
            json!(time(start)),
            json!(reltime(end.duration_since(start).unwrap_or_default())),
            freeze.map_or(Value::Null, |f| {
                json!(reltime(end.duration_since(f).unwrap_or_default()))
            }),
        ),
    };
    let penalty = match app.session.scoring {
        Scoring::Icpc { penalty } => json!(penalty.as_secs() / 60),
        Scoring::Points => json!(0),
    };
    json!({
        "id": app.session.name,
        "name": app.session.title,
        "formal_name": app.session.title,
        "start_time": start,
        "duration": duration,
        "scoreboard_freeze_duration": freeze,
        "scoreboard_type": if app.session.scoring == Scoring::Points { "score" } else { "pass-fail" },
        "penalty_time": penalty,
    })
}

fn judgement_types() -> Value {
    let types: Vec<Value> = Verdict::ALL
        .iter()
        .map(|&v| {
            json!({
                "id": judgement_type(v),
                "name": v.to_string(),
                "penalty": !matches!(v, Verdict::Accepted | Verdict::CompileError | Verdict::JudgeError),
                "solved": v == Verdict::Accepted,
            })
        })
        .collect();
    json!(types)
}

fn languages(app: &AppState) -> Value {
    json!(
        app.languages
            .iter()
            .map(|l| json!({ "id": l.key, "name": l.name, "extensions": l.extensions }))
            .collect::<Vec<_>>()
    )
}

fn problems(app: &AppState) -> Value {
    json!(
        app.problems
            .iter()
            .enumerate()
            .map(|(i, p)| {
                json!({
                    "id": p.id, "label": p.id, "name": p.title, "ordinal": i,
                    "time_limit": p.time_limit_seconds, "test_data_count": p.tests,
                })
            })
            .collect::<Vec<_>>()
    )
}

fn teams(app: &AppState) -> Result<Value, ApiError> {
    let people = super::accounts::accounts(app.store().connection())?;
    Ok(json!(
        people
            .iter()
            .filter(|a| !a.is_jury())
            .map(|a| json!({
                "id": a.username, "name": a.username, "display_name": a.display_name,
                "group_ids": a.team.iter().collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>()
    ))
}

/// The submissions and judgements `viewer` may see.
fn submissions_and_judgements(
    app: &AppState,
    viewer: &Viewer,
) -> Result<(Vec<Value>, Vec<Value>), ApiError> {
    let Some(account) = viewer.account() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let (entries, judgings) = {
        let store = app.store();
        (
            db::all_entries(store.connection(), app.ids.session)?,
            db::judgings(store.connection(), app.ids.session)?,
        )
    };
    let frozen = if account.is_jury() {
        None
    } else {
        app.session.frozen_since(SystemTime::now())
    };
    let mine = |e: &&db::Entry| account.is_jury() || e.account == account.id;
    let submissions: Vec<Value> = entries
        .iter()
        .filter(mine)
        .map(|e| {
            json!({
                "id": e.id.to_string(), "team_id": e.username, "problem_id": e.problem,
                "language_id": e.language, "time": time(e.submitted_at),
                "contest_time": contest_time(app, e.submitted_at), "files": [],
            })
        })
        .collect();
    let judgements = judgings
        .iter()
        .filter_map(|j| {
            let entry = entries.iter().filter(mine).find(|e| e.id == j.entry)?;
            if frozen.is_some_and(|f| entry.submitted_at >= f) {
                return None;
            }
            let at = |text: &Option<String>| {
                text.as_deref()
                    .and_then(|t| humantime::parse_rfc3339(t).ok())
            };
            let start = humantime::parse_rfc3339(&j.started_at).unwrap_or(SystemTime::UNIX_EPOCH);
            let end = at(&j.finished_at);
            Some(json!({
                "id": j.id.to_string(),
                "submission_id": j.entry.to_string(),
                "judgement_type_id": j.verdict.as_deref().and_then(Verdict::from_short).map(judgement_type),
                "score": j.score,
                "start_time": time(start),
                "start_contest_time": contest_time(app, start),
                "end_time": end.map(time),
                "end_contest_time": end.map(|e| contest_time(app, e)),
                "valid": j.valid,
            }))
        })
        .collect();
    Ok((submissions, judgements))
}

fn scoreboard(app: &AppState, viewer: &Viewer) -> Result<Value, ApiError> {
    let board = current_scoreboard(app, viewer)?;
    let rows: Vec<Value> = board
        .rows
        .iter()
        .map(|r| {
            let score = if board.points {
                json!({ "score": r.points })
            } else {
                json!({ "num_solved": r.solved, "total_time": r.penalty })
            };
            json!({
                "rank": r.rank,
                "team_id": r.username,
                "score": score,
                "problems": board.problems.iter().zip(&r.cells).map(|(p, c)| json!({
                    "problem_id": p,
                    "num_judged": c.rejected + usize::from(c.solved),
                    "num_pending": c.pending,
                    "solved": c.solved,
                    "time": c.minutes,
                    "score": c.points,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let now = SystemTime::now();
    Ok(json!({
        "time": time(now),
        "contest_time": contest_time(app, now),
        "state": { "frozen": board.frozen.map(time) },
        "rows": rows,
    }))
}

pub(crate) async fn contests(State(app): State<AppState>, viewer: Viewer) -> ApiResult {
    check_contest(&app, &viewer, &app.session.name.clone())?;
    Ok(Json(json!([contest(&app)])).into_response())
}

/// `GET /api/contests/ID[/KIND]`.
pub(crate) async fn endpoint(
    State(app): State<AppState>,
    viewer: Viewer,
    Path((id, kind)): Path<(String, String)>,
) -> ApiResult {
    check_contest(&app, &viewer, &id)?;
    let body = match kind.as_str() {
        "judgement-types" => judgement_types(),
        "languages" => languages(&app),
        "problems" => problems(&app),
        "teams" => teams(&app)?,
        "submissions" => json!(submissions_and_judgements(&app, &viewer)?.0),
        "judgements" => json!(submissions_and_judgements(&app, &viewer)?.1),
        "scoreboard" => scoreboard(&app, &viewer)?,
        "event-feed" => return event_feed(&app, &viewer),
        _ => return Err(AppError::NotFound.into()),
    };
    Ok(Json(body).into_response())
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
    let mut lines = String::new();
    let mut token = 0;
    let mut push = |kind: &str, id: Option<String>, data: Value| {
        token += 1;
        let event = json!({ "token": token.to_string(), "type": kind, "id": id, "data": data });
        lines.push_str(&event.to_string());
        lines.push('\n');
    };
    push("contest", None, contest(app));
    push("judgement-types", None, judgement_types());
    push("languages", None, languages(app));
    push("problems", None, problems(app));
    push("teams", None, teams(app)?);
    let (submissions, judgements) = submissions_and_judgements(app, viewer)?;
    for submission in submissions {
        push(
            "submissions",
            submission["id"].as_str().map(String::from),
            submission,
        );
    }
    for judgement in judgements {
        push(
            "judgements",
            judgement["id"].as_str().map(String::from),
            judgement,
        );
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], lines).into_response())
}
