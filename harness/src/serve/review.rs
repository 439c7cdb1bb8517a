//! A rejudging under review: the jury judges again, as a dry run, every
//! judged submission of a scope (a problem after mending its tests or
//! checker, a participant, a language, those submitted since a time, or
//! any combination), sees which verdicts would change, and applies it or
//! cancels it. Until applied nothing changes for anybody; once applied,
//! each participant whose verdict changed is told (a clarification to
//! them, and their open pages hear of the new verdict). The store keeps
//! the review and its scope (`store/reviews.rs`); the server's judging
//! threads judge it (`judges.rs`, `Queue::push_review`). An interrupted
//! review (a restart) shows what was judged before; start another for the
//! rest.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::app::AppState;
use super::error::{AppError, page};
use super::http::{Jury, JuryPosted, csrf_form};
use super::live::LiveEvent;
use super::pages::{Nav, nav};
use crate::store::clarifications::{NewClarification, Sender};
use crate::store::entries;
use crate::store::reviews::{self, ReviewState, Scope};

/// The scope form as the jury filled it in (every part may be empty).
#[derive(Deserialize, Default)]
pub(crate) struct StartForm {
    csrf: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    participant: String,
    #[serde(default)]
    language: String,
    #[serde(default)]
    since: String,
}

csrf_form!(StartForm);

/// The scope form as a page shows it: its choices, what the jury filled
/// in, and why it was refused (empty: it was not).
pub(crate) struct ScopeForm {
    pub(crate) problems: Vec<String>,
    /// (key, name) of the session's languages.
    pub(crate) languages: Vec<(String, String)>,
    pub(crate) participants: Vec<String>,
    pub(crate) problem: String,
    pub(crate) participant: String,
    pub(crate) language: String,
    pub(crate) since: String,
    pub(crate) message: String,
}

impl ScopeForm {
    /// The form with the choices of `app`'s session, filled in as `posted`.
    pub(crate) fn new(app: &AppState, posted: &StartForm) -> Result<ScopeForm, AppError> {
        let people = crate::store::accounts::accounts(app.store().db())?;
        Ok(ScopeForm {
            problems: app.problems.iter().map(|p| p.id.clone()).collect(),
            languages: app
                .languages
                .iter()
                .map(|l| (l.key.clone(), l.name.clone()))
                .collect(),
            participants: people
                .into_iter()
                .filter(|a| !a.is_jury())
                .map(|a| a.username)
                .collect(),
            problem: posted.problem.clone(),
            participant: posted.participant.clone(),
            language: posted.language.clone(),
            since: posted.since.clone(),
            message: String::new(),
        })
    }
}

/// The validated scope of a filled-in form, and its participant's name;
/// what is wrong with the form otherwise.
fn scope_of(app: &AppState, form: &StartForm) -> Result<(Scope, Option<String>), String> {
    let given = |text: &str| Some(text.trim().to_string()).filter(|t| !t.is_empty());
    let mut scope = Scope::default();
    if let Some(problem) = given(&form.problem) {
        app.problem(&problem)
            .ok_or_else(|| format!("{problem} is not a problem of this session"))?;
        scope.problem = Some(problem);
    }
    let participant = given(&form.participant);
    if let Some(username) = &participant {
        let account = crate::store::accounts::account_named(app.store().db(), username)
            .map_err(|e| format!("the result store: {e}"))?
            .ok_or_else(|| format!("nobody has the username {username}"))?;
        scope.account = Some(account.id);
    }
    if let Some(language) = given(&form.language) {
        if !app.languages.iter().any(|l| l.key == language) {
            return Err(format!("{language} is not a language of this session"));
        }
        scope.language = Some(language);
    }
    if let Some(since) = given(&form.since) {
        scope.since = Some(super::jury::jury_time("since", &since)?);
    }
    Ok((scope, participant))
}

/// What a review covers, in words: "every judged submission of sum by
/// alice in python since 2026-05-01T09:00:00Z".
pub(crate) fn covers(scope: &Scope, participant: Option<&str>) -> String {
    let mut words = String::from("every judged submission");
    if let Some(problem) = &scope.problem {
        words.push_str(&format!(" of {problem}"));
    }
    if let Some(name) = participant {
        words.push_str(&format!(" by {}", crate::escape::name(name)));
    }
    if let Some(language) = &scope.language {
        words.push_str(&format!(" in {language}"));
    }
    if let Some(since) = scope.since {
        words.push_str(&format!(
            " since {}",
            humantime::format_rfc3339_seconds(since)
        ));
    }
    if scope == &Scope::default() {
        words.push_str(" of the session");
    }
    words
}

/// A review as the lists show it.
pub(crate) struct ReviewLine {
    pub(crate) id: i64,
    pub(crate) covers: String,
    pub(crate) state: &'static str,
    pub(crate) created_at: String,
}

/// The session's reviews, newest first.
pub(crate) fn review_lines(app: &AppState) -> Result<Vec<ReviewLine>, AppError> {
    let found = reviews::reviews(app.store().db(), app.ids.session)?;
    Ok(found
        .into_iter()
        .map(|r| ReviewLine {
            id: r.id,
            covers: covers(&r.scope, r.participant.as_deref()),
            state: r.state.name(),
            created_at: r.created_at,
        })
        .collect())
}

#[derive(Template)]
#[template(path = "serve/reviews.html")]
struct ReviewsTemplate {
    nav: Nav,
    review_form: ScopeForm,
    reviews: Vec<ReviewLine>,
}

/// The reviews page with the form as filled in and `message` (empty:
/// none).
fn reviews_page(
    app: &AppState,
    jury: &Jury,
    posted: &StartForm,
    message: String,
) -> Result<Response, AppError> {
    let mut review_form = ScopeForm::new(app, posted)?;
    review_form.message = message;
    page(&ReviewsTemplate {
        nav: nav(app, jury.viewer()),
        review_form,
        reviews: review_lines(app)?,
    })
}

/// `GET /jury/reviews`: the session's reviews, and the form for a new one.
pub(crate) async fn list(State(app): State<AppState>, jury: Jury) -> Result<Response, AppError> {
    reviews_page(&app, &jury, &StartForm::default(), String::new())
}

/// `POST /jury/reviews`: every judged submission of the scope judged
/// again as a dry run; to the review's page. A scope that names what the
/// session does not have is refused with the form; one that matches no
/// judged submission says so, and no review is made.
pub(crate) async fn start(
    State(app): State<AppState>,
    jury: Jury,
    JuryPosted(posted): JuryPosted<StartForm>,
) -> Result<Response, AppError> {
    let form = posted.form;
    let (scope, participant) = match scope_of(&app, &form) {
        Ok(found) => found,
        Err(why) => {
            let html = reviews_page(&app, &jury, &form, why)?;
            return Ok((StatusCode::BAD_REQUEST, html).into_response());
        }
    };
    let covered = covers(&scope, participant.as_deref());
    let judged = entries::entries(
        app.store().db(),
        app.ids.session,
        &scope.filter(),
        usize::MAX >> 1,
    )?;
    if judged.is_empty() {
        let why = format!(
            "Nothing to review: the scope ({covered}) covers no submission; no review was made."
        );
        return reviews_page(&app, &jury, &form, why);
    }
    let (review, run) = {
        let mut store = app.store();
        let meta = crate::store::RunMeta {
            started_at: std::time::SystemTime::now(),
            command: "review".into(),
            judge_version: crate::store::judge_version().to_string(),
            isolation: String::new(),
            machine: crate::store::machine(),
            partition: None,
            source: Some(format!("{} (review of {covered})", app.session.name)),
            interrupted: false,
            deadline: None,
            late_rule: None,
            policy: None,
        };
        let run = store
            .record_run(&meta, &[], &[], &[])
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let covered = (&scope, judged.len());
        (
            reviews::open(store.db(), app.ids.session, covered, run)?,
            run,
        )
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
    problem: String,
    before: String,
    after: String,
    changed: bool,
}

#[derive(Template)]
#[template(path = "serve/review.html")]
struct ReviewTemplate {
    nav: Nav,
    id: i64,
    covers: String,
    created_at: String,
    state: &'static str,
    open: bool,
    rows: Vec<Row>,
    judged: usize,
    /// How many it judges again, those still queued counted.
    covered: usize,
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
            problem: r.problem.clone(),
            before: short(r.before),
            after: short(r.after),
            changed: r.after.is_some() && r.after != r.before,
        })
        .collect();
    rows.sort_by_key(|r| !r.changed);
    page(&ReviewTemplate {
        nav: nav(&app, jury.viewer()),
        id,
        covers: covers(&review.scope, review.participant.as_deref()),
        created_at: review.created_at,
        state: review.state.name(),
        open: review.state == ReviewState::Open,
        judged: found.iter().filter(|r| r.after.is_some()).count(),
        covered: review.covered.unwrap_or(0).max(found.len()),
        changed: rows.iter().filter(|r| r.changed).count(),
        rows,
    })
}

#[derive(Deserialize)]
pub(crate) struct DecideForm {
    csrf: String,
    action: String,
}

csrf_form!(DecideForm);

/// `POST /jury/reviews/ID`: `apply` (the new verdicts in force; each
/// participant whose verdict changed is told) or `cancel`.
pub(crate) async fn decide(
    State(app): State<AppState>,
    Path(id): Path<i64>,
    JuryPosted(posted): JuryPosted<DecideForm>,
) -> Result<Response, AppError> {
    let open = reviews::reviews(app.store().db(), app.ids.session)?
        .into_iter()
        .any(|r| r.id == id && r.state == ReviewState::Open);
    if !open {
        return Err(AppError::NotFound);
    }
    match posted.form.action.as_str() {
        "apply" => {
            let changed = reviews::apply(app.store().db(), id, app.ids.run)?;
            tell(&app, &changed, posted.login.account.id)?;
        }
        "cancel" => reviews::cancel(app.store().db(), id)?,
        _ => return Err(AppError::BadRequest("apply or cancel".into())),
    }
    Ok(Redirect::to(&format!("/jury/reviews/{id}")).into_response())
}

/// Tells each participant whose verdict changed: their open pages hear of
/// the new verdict, and a clarification to them says what changed.
fn tell(app: &AppState, changed: &[reviews::ReviewRow], author: i64) -> Result<(), AppError> {
    for row in changed {
        let (Some(after), before) = (row.after, row.before) else {
            continue;
        };
        let problem = &row.problem;
        let entry = entries::entry(app.store().db(), app.ids.session, row.entry)?;
        let submitted_at = entry.map_or_else(std::time::SystemTime::now, |e| e.submitted_at);
        app.live.publish(LiveEvent {
            entry: row.entry,
            account: row.account,
            submitted_at,
            problem: problem.clone(),
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
            problem: Some(problem.clone()),
            text,
        };
        let stored =
            crate::store::clarifications::insert(app.store().db(), app.ids.session, &note)?;
        app.live.clarification(stored);
    }
    Ok(())
}
