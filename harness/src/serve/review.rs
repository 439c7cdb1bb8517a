//! A rejudging under review: the jury judges every submission of a
//! problem again as a dry run (after mending its tests or checker, say),
//! sees which verdicts would change, and applies it or cancels it. Until
//! applied nothing changes for anybody; once applied, each participant
//! whose verdict changed is told (a clarification to them, and their open
//! pages hear of the new verdict). The store keeps the review
//! (`store/reviews.rs`); the server's judging threads judge it
//! (`judges.rs`, `Queue::push_review`). An interrupted review (a restart)
//! shows what was judged before; start another for the rest.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::app::AppState;
use super::error::{AppError, page};
use super::http::{CsrfForm, Jury, JuryPosted};
use super::live::LiveEvent;
use super::pages::{Nav, nav};
use crate::store::clarifications::{NewClarification, Sender};
use crate::store::entries::{self, Filter};
use crate::store::reviews::{self, ReviewState};

#[derive(Deserialize)]
pub(crate) struct StartForm {
    csrf: String,
    problem: String,
}

impl CsrfForm for StartForm {
    fn csrf(&self) -> &str {
        &self.csrf
    }
}

/// `POST /jury/reviews`: every submission of a problem judged again as a
/// dry run; to the review's page.
pub(crate) async fn start(
    State(app): State<AppState>,
    JuryPosted(posted): JuryPosted<StartForm>,
) -> Result<Response, AppError> {
    let problem = app
        .problem(&posted.form.problem)
        .ok_or_else(|| AppError::BadRequest("review what: a problem of the session".into()))?
        .id
        .clone();
    let filter = Filter {
        problem: Some(problem.clone()),
        ..Filter::default()
    };
    let (review, run, judged) = {
        let mut store = app.store();
        let meta = crate::store::RunMeta {
            started_at: std::time::SystemTime::now(),
            command: "review".into(),
            judge_version: crate::store::judge_version().to_string(),
            isolation: String::new(),
            machine: crate::store::machine(),
            partition: None,
            source: Some(format!("{} (review of {problem})", app.session.name)),
            interrupted: false,
            deadline: None,
            late_rule: None,
            policy: None,
        };
        let run = store
            .record_run(&meta, &[], &[], &[])
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let review = reviews::open(store.db(), app.ids.session, &problem, run)?;
        let judged = entries::entries(store.db(), app.ids.session, &filter, usize::MAX >> 1)?
            .into_iter()
            .filter(|e| e.status == entries::Status::Judged)
            .collect::<Vec<_>>();
        (review, run, judged)
    };
    for entry in judged.iter().rev() {
        app.queue.push_review(entry.id, entry.account, review, run);
    }
    Ok(Redirect::to(&format!("/jury/reviews/{review}")).into_response())
}

/// A submission of a review as its page shows it.
struct Row {
    entry: i64,
    user: String,
    before: String,
    after: String,
    changed: bool,
}

#[derive(Template)]
#[template(path = "serve/review.html")]
struct ReviewTemplate {
    nav: Nav,
    id: i64,
    problem: String,
    created_at: String,
    state: &'static str,
    open: bool,
    rows: Vec<Row>,
    judged: usize,
    changed: usize,
}

/// `GET /jury/reviews/ID`: each submission's verdict in force and its new
/// one, the changes first.
pub(crate) async fn show(
    State(app): State<AppState>,
    jury: Jury,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let (review, found) = {
        let mut store = app.store();
        let review = reviews::reviews(store.db(), app.ids.session)?
            .into_iter()
            .find(|r| r.id == id)
            .ok_or(AppError::NotFound)?;
        let rows = reviews::rows(store.db(), id)?;
        (review, rows)
    };
    let short = |v: Option<crate::verdict::Verdict>| v.map_or("…", |v| v.short()).to_string();
    let mut rows: Vec<Row> = found
        .iter()
        .map(|r| Row {
            entry: r.entry,
            user: crate::escape::name(&r.username),
            before: short(r.before),
            after: short(r.after),
            changed: r.after.is_some() && r.after != r.before,
        })
        .collect();
    rows.sort_by_key(|r| !r.changed);
    page(&ReviewTemplate {
        nav: nav(&app, jury.viewer()),
        id,
        problem: review.problem,
        created_at: review.created_at,
        state: match review.state {
            ReviewState::Open => "open",
            ReviewState::Applied => "applied",
            ReviewState::Cancelled => "cancelled",
        },
        open: review.state == ReviewState::Open,
        judged: found.iter().filter(|r| r.after.is_some()).count(),
        changed: rows.iter().filter(|r| r.changed).count(),
        rows,
    })
}

#[derive(Deserialize)]
pub(crate) struct DecideForm {
    csrf: String,
    action: String,
}

impl CsrfForm for DecideForm {
    fn csrf(&self) -> &str {
        &self.csrf
    }
}

/// `POST /jury/reviews/ID`: `apply` (the new verdicts in force; each
/// participant whose verdict changed is told) or `cancel`.
pub(crate) async fn decide(
    State(app): State<AppState>,
    Path(id): Path<i64>,
    JuryPosted(posted): JuryPosted<DecideForm>,
) -> Result<Response, AppError> {
    let review = reviews::reviews(app.store().db(), app.ids.session)?
        .into_iter()
        .find(|r| r.id == id && r.state == ReviewState::Open)
        .ok_or(AppError::NotFound)?;
    match posted.form.action.as_str() {
        "apply" => {
            let changed = reviews::apply(app.store().db(), id, app.ids.run)?;
            tell(&app, &review.problem, &changed, posted.login.account.id)?;
        }
        "cancel" => reviews::cancel(app.store().db(), id)?,
        _ => return Err(AppError::BadRequest("apply or cancel".into())),
    }
    Ok(Redirect::to(&format!("/jury/reviews/{id}")).into_response())
}

/// Tells each participant whose verdict changed: their open pages hear of
/// the new verdict, and a clarification to them says what changed.
fn tell(
    app: &AppState,
    problem: &str,
    changed: &[reviews::ReviewRow],
    author: i64,
) -> Result<(), AppError> {
    for row in changed {
        let (Some(after), before) = (row.after, row.before) else {
            continue;
        };
        let entry = entries::entry(app.store().db(), app.ids.session, row.entry)?;
        let submitted_at = entry.map_or_else(std::time::SystemTime::now, |e| e.submitted_at);
        app.live.publish(LiveEvent {
            entry: row.entry,
            account: row.account,
            submitted_at,
            problem: problem.to_string(),
            status: after.short().into(),
            verdict: Some(after.short().into()),
        });
        let text = format!(
            "Your submission #{} of {problem} was judged again: {} is now {}.",
            row.entry,
            before.map_or("its verdict", |v| v.short()),
            after.short()
        );
        let note = NewClarification {
            sender: Sender::Jury {
                author,
                to: Some(row.account),
            },
            reply_to: None,
            problem: Some(problem.to_string()),
            text,
        };
        let stored =
            crate::store::clarifications::insert(app.store().db(), app.ids.session, &note)?;
        app.live.clarification(stored);
    }
    Ok(())
}
