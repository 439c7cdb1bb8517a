//! The play page of an interactive problem: the person's moves, one line
//! per form post (no script needed), and the game so far; the games
//! themselves are `games.rs`.

use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::app::AppState;
use super::error::{AppError, page};
use super::games::Line;
use super::http::{Viewer, check_csrf};
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
    let problem = app
        .problem(&id)
        .filter(|p| p.interactive)
        .ok_or(AppError::NotFound)?;
    let (lines, running, result) = app.games.view(login.account.id, &id);
    page(&PlayTemplate {
        nav: nav(&app, &viewer),
        problem,
        lines,
        running,
        result,
    })
}

#[derive(Deserialize)]
pub(crate) struct PlayForm {
    csrf: String,
    action: String,
    #[serde(default)]
    line: String,
}

pub(crate) async fn play_move(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
    Form(form): Form<PlayForm>,
) -> Result<Response, AppError> {
    let login = viewer.require()?;
    check_csrf(login, &form.csrf)?;
    app.problem(&id)
        .filter(|p| p.interactive)
        .ok_or(AppError::NotFound)?;
    let account = login.account.id;
    let back = format!("/problems/{id}/play");
    let games = app.clone();
    tokio::task::spawn_blocking(move || match form.action.as_str() {
        "start" => games.games.start(account, &id),
        "move" => games.games.send(account, &form.line),
        "stop" => {
            games.games.stop(account);
            Ok(())
        }
        _ => Err(AppError::BadRequest("start, move or stop".into())),
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Redirect::to(&back).into_response())
}
