//! Logging in and out, and open registration when the session file
//! allows it. The login and sign-up forms carry a CSRF token bound to a
//! cookie of their own (no login exists yet); passwords are checked off the
//! store's lock, on a blocking thread (argon2 is slow on purpose); login
//! attempts are rate limited per user and per address.

use std::net::SocketAddr;

use askama::Template;
use axum::Form;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum_extra::extract::cookie::CookieJar;
use serde::Deserialize;

use super::accounts;
use super::app::AppState;
use super::error::{AppError, page};
use super::http::{
    LOGIN_COOKIE, Viewer, check_csrf, form_token_ok, is_https, new_form, private_cookie,
};
use super::pages::{Nav, nav};

#[derive(Template)]
#[template(path = "serve/login.html")]
struct LoginTemplate {
    nav: Nav,
    form_token: String,
    error: String,
    registration: bool,
}

pub(crate) async fn login_form(
    State(app): State<AppState>,
    viewer: Viewer,
    headers: HeaderMap,
    jar: CookieJar,
) -> Result<Response, AppError> {
    let (jar, form_token) = new_form(&app, jar, is_https(&headers));
    let html = page(&LoginTemplate {
        nav: nav(&app, &viewer),
        form_token,
        error: String::new(),
        registration: app.session.registration,
    })?;
    Ok((jar, html).into_response())
}

#[derive(Deserialize)]
pub(crate) struct LoginForm {
    csrf: String,
    username: String,
    password: String,
}

pub(crate) async fn login(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    jar: CookieJar,
    Form(form): Form<LoginForm>,
) -> Result<Response, AppError> {
    let busy = "Too many login attempts: wait a minute and try again.";
    admit(&app, &jar, &form.csrf, peer, &form.username, busy)?;
    let account = verify_login(&app, &form.username, &form.password).await?;
    let secure = is_https(&headers);
    let Some(account) = account else {
        let (jar, form_token) = new_form(&app, jar, secure);
        let html = page(&LoginTemplate {
            nav: nav(&app, &Viewer::default()),
            form_token,
            error: "Wrong user or password.".into(),
            registration: app.session.registration,
        })?;
        return Ok((StatusCode::UNAUTHORIZED, jar, html).into_response());
    };
    logged_in(&app, jar, account, secure)
}

/// A form that logs in (or registers and logs in) may be tried: its CSRF
/// token is this browser's (else `AppError::Csrf`), and the address and
/// the user name have tries left (else `busy`, as `AppError::TooMany`).
fn admit(
    app: &AppState,
    jar: &CookieJar,
    csrf: &str,
    peer: SocketAddr,
    username: &str,
    busy: &str,
) -> Result<(), AppError> {
    if !form_token_ok(app, jar, csrf) {
        return Err(AppError::Csrf);
    }
    if !app.may_try_login(peer.ip(), username) {
        return Err(AppError::TooMany(busy.into()));
    }
    Ok(())
}

/// The login cookie of a new login of `account`, and home.
fn logged_in(
    app: &AppState,
    jar: CookieJar,
    account: i64,
    secure: bool,
) -> Result<Response, AppError> {
    let token = accounts::start_login(app.store().db(), account)?;
    let jar = jar.add(private_cookie(LOGIN_COOKIE, token, secure));
    Ok((jar, Redirect::to("/")).into_response())
}

/// The account whose password this is: the hash is read under the
/// store's lock, verified outside it, on a blocking thread.
pub(crate) async fn verify_login(
    app: &AppState,
    username: &str,
    password: &str,
) -> Result<Option<i64>, AppError> {
    let found = accounts::password_hash_of(app.store().db(), username)?;
    let Some((id, hash)) = found else {
        return Ok(None);
    };
    let password = password.to_string();
    let ok = tokio::task::spawn_blocking(move || accounts::verify_password(&password, &hash))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(ok.then_some(id))
}

#[derive(Template)]
#[template(path = "serve/register.html")]
struct RegisterTemplate {
    nav: Nav,
    form_token: String,
    error: String,
}

/// `GET /register`: only when the session file allows open registration.
pub(crate) async fn register_form(
    State(app): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> Result<Response, AppError> {
    if !app.session.registration {
        return Err(AppError::NotFound);
    }
    let (jar, form_token) = new_form(&app, jar, is_https(&headers));
    let html = page(&RegisterTemplate {
        nav: nav(&app, &Viewer::default()),
        form_token,
        error: String::new(),
    })?;
    Ok((jar, html).into_response())
}

#[derive(Deserialize)]
pub(crate) struct RegisterForm {
    csrf: String,
    username: String,
    display_name: String,
    password: String,
}

/// `POST /register`: a new participant, logged in at once.
pub(crate) async fn register(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    jar: CookieJar,
    Form(form): Form<RegisterForm>,
) -> Result<Response, AppError> {
    if !app.session.registration {
        return Err(AppError::NotFound);
    }
    let busy = "Too many attempts: wait a minute.";
    admit(&app, &jar, &form.csrf, peer, &form.username, busy)?;
    let secure = is_https(&headers);
    let refuse = |jar: CookieJar, error: String| -> Result<Response, AppError> {
        let (jar, form_token) = new_form(&app, jar, secure);
        let html = page(&RegisterTemplate {
            nav: nav(&app, &Viewer::default()),
            form_token,
            error,
        })?;
        Ok((StatusCode::BAD_REQUEST, jar, html).into_response())
    };
    let name = form.display_name.trim();
    if let Err(why) = accounts::check_username(&form.username) {
        return refuse(jar, why.to_string());
    }
    if name.is_empty() || name.chars().count() > 64 {
        return refuse(jar, "A name of 1 to 64 characters, please.".into());
    }
    if form.password.chars().count() < 10 {
        return refuse(jar, "A password of at least 10 characters, please.".into());
    }
    let password = form.password.clone();
    let hash = tokio::task::spawn_blocking(move || accounts::hash_password(&password))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let created = accounts::create_participant(app.store().db(), &form.username, name, &hash)?;
    let Some(account) = created else {
        return refuse(jar, "That user name is taken.".into());
    };
    logged_in(&app, jar, account, secure)
}

#[derive(Deserialize)]
pub(crate) struct CsrfForm {
    csrf: String,
}

pub(crate) async fn logout(
    State(app): State<AppState>,
    viewer: Viewer,
    jar: CookieJar,
    Form(form): Form<CsrfForm>,
) -> Result<Response, AppError> {
    let login = viewer.require()?;
    check_csrf(login, &form.csrf)?;
    if let Some(cookie) = jar.get(LOGIN_COOKIE) {
        accounts::end_login(app.store().db(), cookie.value())?;
    }
    let jar = jar.remove(axum_extra::extract::cookie::Cookie::build(LOGIN_COOKIE).path("/"));
    Ok((jar, Redirect::to("/")).into_response())
}
