//! The play page of an interactive problem: the person's moves, one line
//! per form post (no script needed), and the game so far; the games
//! themselves are `games.rs`.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::access::Access;
use super::app::AppState;
use super::error::{AppError, page};
use super::games::Line;
use super::http::{Posted, Viewer, csrf_form};
use super::pages::{Nav, nav};
use super::problem_page::ProblemPage;

#[derive(Template)]
#[template(path = "serve/play.html")]
struct PlayTemplate<'a> {
    nav: Nav,
    problem: &'a ProblemPage,
    lines: Vec<Line>,
    running: bool,
    result: String,
}

pub(crate) async fn play_page(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let login = viewer.require()?;
    let problem = playable(&app, &viewer, &id)?;
    let (lines, running, result) = app.games.view(login.account.id, &id);
    page(&PlayTemplate {
        nav: nav(&app, &viewer),
        problem,
        lines,
        running,
        result,
    })
}

/// The problem `id` if `viewer` may play it now (the access rule: an
/// interactive problem with samples, during the session's hours).
fn playable<'a>(app: &'a AppState, viewer: &Viewer, id: &str) -> Result<&'a ProblemPage, AppError> {
    let access = Access::new(&app.session, viewer);
    let problem = access.problem(app.problem(id))?;
    if !access.may_play(problem) {
        return Err(AppError::NotFound);
    }
    Ok(problem)
}

#[derive(Deserialize)]
pub(crate) struct PlayForm {
    csrf: String,
    action: String,
    #[serde(default)]
    line: String,
}

csrf_form!(PlayForm);

pub(crate) async fn play_move(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
    posted: Posted<PlayForm>,
) -> Result<Response, AppError> {
    playable(&app, &viewer, &id)?;
    let form = posted.form;
    let account = posted.login.account.id;
    let back = format!("/problems/{id}/play");
    let games = app.clone();
    tokio::task::spawn_blocking(move || match form.action.as_str() {
        "start" => games.games.start(account, &id),
        "move" => games.games.send(account, &form.line),
        "finish" => games.games.finish(account),
        "stop" => {
            games.games.stop(account);
            Ok(())
        }
        _ => Err(AppError::BadRequest("start, move, finish or stop".into())),
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))??;
    // To the newest move, in view.
    Ok(Redirect::to(&format!("{back}#newest")).into_response())
}
