//! Logging in and out, and open registration when the session file
//! allows it. The login and sign-up forms carry a CSRF token bound to a
//! cookie of their own (no login exists yet: `LoginPosted`); passwords
//! are checked on the bounded password threads (`passwords.rs`), a
//! missing account against a dummy hash; tries are limited per user name
//! and client address, with back-off (`limits.rs`); user names are
//! checked before any limiter sees them.

use std::net::IpAddr;

use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum_extra::extract::cookie::CookieJar;
use serde::Deserialize;

use super::accounts;
use super::app::AppState;
use super::error::{AppError, page};
use super::http::{
    LOGIN_COOKIE, LoginPosted, Posted, Viewer, csrf_form, is_https, new_form, private_cookie,
};
use super::limits::Wait;
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

csrf_form!(LoginForm);

pub(crate) async fn login(
    State(app): State<AppState>,
    posted: LoginPosted<LoginForm>,
) -> Result<Response, AppError> {
    let LoginPosted {
        form,
        jar,
        client,
        secure,
    } = posted;
    let Some(account) = verify_login(&app, &form.username, &form.password, client).await? else {
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

/// A try refused by the limits, as the page or the API says it.
pub(crate) fn refused(wait: Wait) -> AppError {
    AppError::TooMany(match wait {
        Wait::Backoff(seconds) => {
            format!("Too many wrong passwords for this user from here: wait {seconds} s.")
        }
        Wait::Rate => "Too many login attempts from here: wait a minute.".into(),
    })
}

/// The account whose password this is, for a try from `client`: the
/// user name checked first (an invalid one is simply wrong, and no
/// limiter keeps it), then the limits, then the password on the password
/// threads (a missing or disabled account against the dummy hash, so
/// that it takes as long as a wrong password).
pub(crate) async fn verify_login(
    app: &AppState,
    username: &str,
    password: &str,
    client: IpAddr,
) -> Result<Option<i64>, AppError> {
    if accounts::check_username(username).is_err() || password.len() > 1024 {
        return Ok(None);
    }
    app.limits
        .may_try_login(username, client)
        .map_err(refused)?;
    let found = accounts::password_hash_of(app.store().db(), username)?;
    let (id, hash) = match found {
        Some((id, hash, false)) => (Some(id), Some(hash)),
        _ => (None, None),
    };
    let right = app.passwords.verify(password, hash).await?;
    if right {
        app.limits.login_succeeded(username, client);
        Ok(id)
    } else {
        app.limits.login_failed(username, client);
        Ok(None)
    }
}

#[derive(Template)]
#[template(path = "serve/register.html")]
struct RegisterTemplate {
    nav: Nav,
    form_token: String,
    error: String,
    invitation: bool,
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
        invitation: app.session.invitation.is_some(),
    })?;
    Ok((jar, html).into_response())
}

#[derive(Deserialize)]
pub(crate) struct RegisterForm {
    csrf: String,
    username: String,
    display_name: String,
    password: String,
    #[serde(default)]
    invitation: String,
}

csrf_form!(RegisterForm);

/// What is wrong with a sign-up, if anything, before any hashing.
fn check_sign_up(app: &AppState, form: &RegisterForm) -> Result<(), String> {
    if let Some(code) = &app.session.invitation {
        if !super::http::same_token(code, form.invitation.trim()) {
            return Err("That is not this session's invitation code.".into());
        }
    }
    accounts::check_username(&form.username).map_err(|why| why.to_string())?;
    accounts::check_name(&form.display_name).map_err(|why| format!("Your name: {why}."))?;
    let length = form.password.chars().count();
    if !(10..=1024).contains(&length) {
        return Err("A password of 10 to 1024 characters, please.".into());
    }
    Ok(())
}

/// `POST /register`: a new participant, logged in at once. Each client
/// address may sign up `signups-per-hour` accounts.
pub(crate) async fn register(
    State(app): State<AppState>,
    posted: LoginPosted<RegisterForm>,
) -> Result<Response, AppError> {
    if !app.session.registration {
        return Err(AppError::NotFound);
    }
    let LoginPosted {
        form,
        jar,
        client,
        secure,
    } = posted;
    let refuse = |jar: CookieJar, error: String| -> Result<Response, AppError> {
        let (jar, form_token) = new_form(&app, jar, secure);
        let html = page(&RegisterTemplate {
            nav: nav(&app, &Viewer::default()),
            form_token,
            error,
            invitation: app.session.invitation.is_some(),
        })?;
        Ok((StatusCode::BAD_REQUEST, jar, html).into_response())
    };
    if let Err(why) = check_sign_up(&app, &form) {
        return refuse(jar, why);
    }
    if !app.limits.may_sign_up(client) {
        return Err(AppError::TooMany(format!(
            "At most {} new accounts an hour from one address: ask the jury for one.",
            app.session.signups_per_hour
        )));
    }
    let hash = app.passwords.hash(&form.password).await?;
    let name = form.display_name.trim();
    let created = accounts::create_participant(app.store().db(), &form.username, name, &hash)?;
    let Some(account) = created else {
        return refuse(jar, "That user name is taken.".into());
    };
    logged_in(&app, jar, account, secure)
}

#[derive(Deserialize)]
pub(crate) struct CsrfOnly {
    csrf: String,
}

csrf_form!(CsrfOnly);

pub(crate) async fn logout(
    State(app): State<AppState>,
    jar: CookieJar,
    _posted: Posted<CsrfOnly>,
) -> Result<Response, AppError> {
    if let Some(cookie) = jar.get(LOGIN_COOKIE) {
        accounts::end_login(app.store().db(), cookie.value())?;
    }
    let jar = jar.remove(axum_extra::extract::cookie::Cookie::build(LOGIN_COOKIE).path("/"));
    Ok((jar, Redirect::to("/")).into_response())
}
