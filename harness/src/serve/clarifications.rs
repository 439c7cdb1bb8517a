//! Clarifications and announcements: a participant asks the jury about a
//! problem or in general; the jury answers the one who asked or everybody,
//! and posts announcements. Every open page hears of a new one live (a
//! badge in the menu); who reads which is the access rule's
//! (`access::clarification_reaches`). Kept in the store
//! (`store/clarifications.rs`), also served by the CCS API.

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::access::Access;
use super::app::AppState;
use super::error::{AppError, page};
use super::http::{ClientAddr, JuryPosted, Posted, Viewer, csrf_form};
use super::pages::{Nav, nav};
use crate::store::clarifications::{self, Clarification, NewClarification, Sender};

/// The longest message taken.
const MAX_TEXT: usize = 4000;

/// A clarification as the page shows it.
pub(crate) struct Shown {
    id: i64,
    from: String,
    to: String,
    problem: String,
    text: String,
    time: String,
    /// A question (from a participant).
    question: bool,
    /// A question nobody has answered yet.
    open: bool,
    reply_to: Option<i64>,
}

#[derive(Template)]
#[template(path = "serve/clarifications.html")]
struct ClarificationsTemplate {
    nav: Nav,
    shown: Vec<Shown>,
    problems: Vec<(String, String)>,
    jury: bool,
}

/// `GET /clarifications`: what reaches the viewer, newest first; the
/// jury's unanswered questions first, each with an answer form.
pub(crate) async fn list(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Response, AppError> {
    viewer.require()?;
    let access = Access::new(&app.session, &viewer);
    let (all, people) = {
        let mut store = app.store();
        (
            clarifications::all(store.db(), app.ids.session)?,
            super::accounts::accounts(store.db())?,
        )
    };
    let name = |id: Option<i64>, nobody: &str| match id {
        Some(id) => people.iter().find(|a| a.id == id).map_or_else(
            || format!("#{id}"),
            |a| crate::escape::name(&a.display_name),
        ),
        None => nobody.to_string(),
    };
    let answered = |question: &Clarification| all.iter().any(|c| c.reply_to == Some(question.id));
    let mut shown: Vec<Shown> = all
        .iter()
        .filter(|c| access.sees_clarification(c))
        .map(|c| Shown {
            id: c.id,
            from: name(c.from, "the jury"),
            to: match (c.from, c.to) {
                (Some(_), _) => "the jury".into(),
                (None, to) => name(to, "everybody"),
            },
            problem: c.problem.clone().unwrap_or_default(),
            text: crate::escape::visible(&c.text),
            time: humantime::format_rfc3339_seconds(c.sent_at).to_string(),
            question: c.from.is_some(),
            open: c.from.is_some() && !answered(c),
            reply_to: c.reply_to,
        })
        .collect();
    shown.reverse();
    if access.is_jury() {
        shown.sort_by_key(|c| !c.open);
    }
    let problems = if access.sees_problems() {
        app.problems
            .iter()
            .map(|p| (p.id.clone(), p.title.clone()))
            .collect()
    } else {
        Vec::new()
    };
    page(&ClarificationsTemplate {
        nav: nav(&app, &viewer),
        shown,
        problems,
        jury: access.is_jury(),
    })
}

/// The text of a message as taken: trimmed, at most `MAX_TEXT`
/// characters, no control characters but line breaks and tabs.
fn message(text: &str) -> Result<String, AppError> {
    let kept: String = text
        .trim()
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect();
    if kept.is_empty() {
        return Err(AppError::BadRequest("Write your message first.".into()));
    }
    if kept.chars().count() > MAX_TEXT {
        return Err(AppError::TooLarge(format!(
            "At most {MAX_TEXT} characters, please."
        )));
    }
    Ok(kept)
}

/// The problem a message is about: one of the session's, or none.
fn about(app: &AppState, problem: &str) -> Result<Option<String>, AppError> {
    match problem {
        "" => Ok(None),
        id => app
            .problem(id)
            .map(|p| Some(p.id.clone()))
            .ok_or_else(|| AppError::BadRequest("No such problem.".into())),
    }
}

#[derive(Deserialize)]
pub(crate) struct AskForm {
    csrf: String,
    #[serde(default)]
    problem: String,
    text: String,
}

csrf_form!(AskForm);

/// `POST /clarifications`: a participant's question to the jury.
pub(crate) async fn ask(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    posted: Posted<AskForm>,
) -> Result<Response, AppError> {
    let account = posted.login.account.id;
    if !app.limits.may_ask(account, client) {
        return Err(AppError::TooMany(
            "A few questions a minute at most: wait a little.".into(),
        ));
    }
    let new = NewClarification {
        sender: Sender::Participant(account),
        reply_to: None,
        problem: about(&app, &posted.form.problem)?,
        text: message(&posted.form.text)?,
    };
    send(&app, &new)?;
    Ok(Redirect::to("/clarifications").into_response())
}

#[derive(Deserialize)]
pub(crate) struct AnswerForm {
    csrf: String,
    /// The question answered, if any.
    #[serde(default)]
    reply_to: Option<i64>,
    /// `asker` (to the one who asked) or `everybody`.
    #[serde(default)]
    to: String,
    #[serde(default)]
    problem: String,
    text: String,
}

csrf_form!(AnswerForm);

/// `POST /jury/clarifications`: the jury answers a question (to the one
/// who asked, or to everybody) or posts an announcement.
pub(crate) async fn answer(
    State(app): State<AppState>,
    JuryPosted(posted): JuryPosted<AnswerForm>,
) -> Result<Response, AppError> {
    let form = posted.form;
    let question = match form.reply_to {
        Some(id) => {
            let all = clarifications::all(app.store().db(), app.ids.session)?;
            let question = all
                .into_iter()
                .find(|c| c.id == id && c.from.is_some())
                .ok_or(AppError::NotFound)?;
            Some(question)
        }
        None => None,
    };
    let to = match (&question, form.to.as_str()) {
        (Some(q), "asker") => q.from,
        _ => None,
    };
    let problem = match &question {
        Some(q) if form.problem.is_empty() => q.problem.clone(),
        _ => about(&app, &form.problem)?,
    };
    let new = NewClarification {
        sender: Sender::Jury {
            author: posted.login.account.id,
            to,
        },
        reply_to: question.map(|q| q.id),
        problem,
        text: message(&form.text)?,
    };
    send(&app, &new)?;
    Ok(Redirect::to("/clarifications").into_response())
}

/// Stores `new` and tells the open pages.
fn send(app: &AppState, new: &NewClarification) -> Result<(), AppError> {
    let stored = clarifications::insert(app.store().db(), app.ids.session, new)?;
    app.live.clarification(stored);
    Ok(())
}
