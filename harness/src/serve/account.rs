//! `/account`: a participant's (or jury member's) own logins and API
//! tokens: the tokens listed (never shown again, only named by the start
//! of their hash), each revocable, and "log out everywhere".

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::accounts::{self, TokenInfo};
use super::app::AppState;
use super::error::{AppError, page};
use super::http::{Posted, Viewer, csrf_form};
use super::pages::{Nav, nav};

#[derive(Template)]
#[template(path = "serve/account.html")]
struct AccountTemplate {
    nav: Nav,
    username: String,
    logins: usize,
    tokens: Vec<TokenInfo>,
    revoke_action: &'static str,
}

/// `GET /account`.
pub(crate) async fn account(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Response, AppError> {
    let login = viewer.require()?;
    let (logins, tokens) = {
        let mut store = app.store();
        (
            accounts::open_logins(store.db(), login.account.id)?,
            accounts::tokens(store.db(), login.account.id)?,
        )
    };
    page(&AccountTemplate {
        nav: nav(&app, &viewer),
        username: login.account.username.clone(),
        logins,
        tokens,
        revoke_action: "/account",
    })
}

/// An action on an account (its owner's, or the jury's on anybody's):
/// `action` and, to revoke one token, its name.
#[derive(Deserialize)]
pub(crate) struct AccountForm {
    csrf: String,
    pub(crate) action: String,
    #[serde(default)]
    pub(crate) token: String,
}

csrf_form!(AccountForm);

/// `POST /account`: revoke one token, or end every login and token
/// (this browser's login too: it is sent to log in again).
pub(crate) async fn account_action(
    State(app): State<AppState>,
    posted: Posted<AccountForm>,
) -> Result<Response, AppError> {
    let account = posted.login.account.id;
    match posted.form.action.as_str() {
        "revoke-token" => {
            accounts::revoke_token(app.store().db(), account, &posted.form.token)?;
            Ok(Redirect::to("/account").into_response())
        }
        "logout-everywhere" => {
            accounts::end_everything(app.store().db(), account)?;
            Ok(Redirect::to("/login").into_response())
        }
        _ => Err(AppError::BadRequest(
            "an action: revoke-token or logout-everywhere".into(),
        )),
    }
}
