//! Who is asking (a login cookie, an API token, or nobody; the `Jury`
//! extractor for the jury's pages), from which address (`ClientAddr`,
//! through a trusted proxy), the forms a browser posts (`Posted`,
//! `JuryPosted`, `LoginPosted`: each checks its CSRF token before the
//! handler runs, so that no handler can forget it), and cookies. The
//! shared state is `app.rs`, the routes `routes.rs`; handlers live in
//! `pages.rs`, `jury.rs`, `login.rs`, `submit.rs`, `play.rs`, `api.rs`,
//! `ccs.rs` and `events.rs`.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use serde::de::DeserializeOwned;

use super::accounts::{self, Account, Login};
use super::app::{App, AppState};
use super::error::AppError;

/// The login cookie's name.
pub(crate) const LOGIN_COOKIE: &str = "judge_login";
/// The cookie a login form's CSRF token is bound to (before a login exists).
const FORM_COOKIE: &str = "judge_form";

/// Who is asking: a valid login cookie's account, or nobody.
#[derive(Debug, Clone, Default)]
pub(crate) struct Viewer {
    pub(crate) login: Option<Login>,
    /// Authenticated by an API token, not a browser's cookie.
    pub(crate) by_token: bool,
    /// HTTP basic credentials that were given and refused (the CCS API
    /// answers 401 or 429; everything else sees nobody logged in).
    pub(crate) refused: Option<super::ccs::Refusal>,
}

impl Viewer {
    pub(crate) fn account(&self) -> Option<&Account> {
        self.login.as_ref().map(|l| &l.account)
    }

    pub(crate) fn is_jury(&self) -> bool {
        self.account().is_some_and(Account::is_jury)
    }

    /// The login, or a redirect to the login page.
    pub(crate) fn require(&self) -> Result<&Login, AppError> {
        self.login.as_ref().ok_or(AppError::Login)
    }
}

/// A viewer who is jury. A handler that takes one is the jury's alone:
/// nobody logged in is sent to log in, and a participant is refused (403),
/// before the handler runs.
#[derive(Debug, Clone)]
pub(crate) struct Jury(Viewer);

impl Jury {
    pub(crate) fn viewer(&self) -> &Viewer {
        &self.0
    }
}

impl FromRequestParts<AppState> for Jury {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Jury, AppError> {
        let Ok(viewer) = Viewer::from_request_parts(parts, app).await;
        match viewer.require()?.account.is_jury() {
            true => Ok(Jury(viewer)),
            false => Err(AppError::Forbidden),
        }
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Viewer, Self::Rejection> {
        let authorization = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let authorization = authorization.as_deref();
        // HTTP basic auth (the CCS API's tools): a browser may resend it
        // on its own, so it counts as a cookie would (`by_token` false);
        // its login's CSRF token is a fresh random one all the same.
        if let Some(basic) = authorization.filter(|v| v.starts_with("Basic ")) {
            let Ok(ClientAddr(address)) = ClientAddr::from_request_parts(parts, app).await;
            // Checked once a request (the guard and the handler both ask).
            let checked = match parts.extensions.get::<super::ccs::BasicChecked>() {
                Some(done) => done.0.clone(),
                None => {
                    let checked = app.ccs.auth.check(app, basic, address).await;
                    parts
                        .extensions
                        .insert(super::ccs::BasicChecked(checked.clone()));
                    checked
                }
            };
            return Ok(match checked {
                Ok(account) => Viewer {
                    login: Some(Login {
                        account,
                        csrf: accounts::random_token(),
                    }),
                    ..Viewer::default()
                },
                Err(refusal) => Viewer {
                    refused: Some(refusal),
                    ..Viewer::default()
                },
            });
        }
        // An API token: never sent by a browser on its own, so a form
        // posted with it is refused (its CSRF token is a fresh random one).
        let bearer = authorization
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        if let Some(token) = bearer {
            let account = accounts::api_account(app.store().db(), token)
                .ok()
                .flatten();
            return Ok(Viewer {
                by_token: true,
                login: account.map(|account| Login {
                    account,
                    csrf: accounts::random_token(),
                }),
                refused: None,
            });
        }
        let jar = CookieJar::from_headers(&parts.headers);
        let Some(token) = jar.get(LOGIN_COOKIE).map(|c| c.value().to_string()) else {
            return Ok(Viewer::default());
        };
        let login = accounts::login(app.store().db(), &token).ok().flatten();
        Ok(Viewer {
            login,
            by_token: false,
            refused: None,
        })
    }
}

/// The address a request comes from: the connection's peer, or behind a
/// trusted proxy (`judge serve --trusted-proxy`) the last address of
/// `X-Forwarded-For` that is not one of the trusted proxies. Every
/// per-address limit is keyed by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClientAddr(pub(crate) IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<ClientAddr, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        Ok(ClientAddr(app.proxies.client_address(peer, &parts.headers)))
    }
}

/// A form with a CSRF token.
pub(crate) trait CsrfForm {
    fn csrf(&self) -> &str;
}

/// `CsrfForm` for forms that carry their token as the field `csrf`
/// (every form of the server's pages).
macro_rules! csrf_form {
    ($form:ty) => {
        impl $crate::serve::http::CsrfForm for $form {
            fn csrf(&self) -> &str {
                &self.csrf
            }
        }
    };
}
pub(crate) use csrf_form;

/// A form posted by a logged-in browser, its CSRF token checked against
/// the login's before the handler runs. Nobody logged in is sent to log
/// in; an API token never posts a form (its token would be a fresh
/// random one anyway).
pub(crate) struct Posted<T> {
    pub(crate) login: Login,
    pub(crate) form: T,
}

impl<T: DeserializeOwned + CsrfForm + Send> FromRequest<AppState> for Posted<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, app: &AppState) -> Result<Posted<T>, AppError> {
        let (mut parts, body) = request.into_parts();
        let Ok(viewer) = Viewer::from_request_parts(&mut parts, app).await;
        let login = viewer.login.ok_or(AppError::Login)?;
        if viewer.by_token {
            return Err(AppError::Csrf);
        }
        let axum::Form(form) = axum::Form::<T>::from_request(Request::from_parts(parts, body), app)
            .await
            .map_err(|e| AppError::BadRequest(e.body_text()))?;
        check_csrf(&login, form.csrf())?;
        Ok(Posted { login, form })
    }
}

/// A form only the jury may post: `Posted`, and the jury's.
pub(crate) struct JuryPosted<T>(pub(crate) Posted<T>);

impl<T: DeserializeOwned + CsrfForm + Send> FromRequest<AppState> for JuryPosted<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, app: &AppState) -> Result<JuryPosted<T>, AppError> {
        let posted = Posted::<T>::from_request(request, app).await?;
        if !posted.login.account.is_jury() {
            return Err(AppError::Forbidden);
        }
        Ok(JuryPosted(posted))
    }
}

/// A login or sign-up form: no login exists yet, so its CSRF token is
/// bound to a cookie of its own (`new_form`). Also gives the cookies and
/// the client's address, which the handler needs.
pub(crate) struct LoginPosted<T> {
    pub(crate) form: T,
    pub(crate) jar: CookieJar,
    pub(crate) client: IpAddr,
    pub(crate) secure: bool,
}

impl<T: DeserializeOwned + CsrfForm + Send> FromRequest<AppState> for LoginPosted<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, app: &AppState) -> Result<LoginPosted<T>, AppError> {
        let (mut parts, body) = request.into_parts();
        let Ok(ClientAddr(client)) = ClientAddr::from_request_parts(&mut parts, app).await;
        let jar = CookieJar::from_headers(&parts.headers);
        let secure = is_https(&parts.headers);
        let axum::Form(form) = axum::Form::<T>::from_request(Request::from_parts(parts, body), app)
            .await
            .map_err(|e| AppError::BadRequest(e.body_text()))?;
        if !form_token_ok(app, &jar, form.csrf()) {
            return Err(AppError::Csrf);
        }
        Ok(LoginPosted {
            form,
            jar,
            client,
            secure,
        })
    }
}

/// Compares two tokens in time independent of where they differ.
pub(crate) fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A form's CSRF token checked against the login's (the extractors above
/// call it; a multipart form, read by its handler, too).
pub(crate) fn check_csrf(login: &Login, token: &str) -> Result<(), AppError> {
    if same_token(&login.csrf, token) {
        Ok(())
    } else {
        Err(AppError::Csrf)
    }
}

/// A cookie only this site's own pages send back, never to a script.
pub(crate) fn private_cookie(name: &'static str, value: String, secure: bool) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .path("/")
        .build()
}

/// A fresh login form's cookie and token.
pub(crate) fn new_form(app: &App, jar: CookieJar, secure: bool) -> (CookieJar, String) {
    let value = accounts::random_token();
    let token = app.form_token(&value);
    (jar.add(private_cookie(FORM_COOKIE, value, secure)), token)
}

/// Whether a login form's token belongs to its cookie.
fn form_token_ok(app: &App, jar: &CookieJar, token: &str) -> bool {
    jar.get(FORM_COOKIE)
        .is_some_and(|cookie| same_token(&app.form_token(cookie.value()), token))
}

/// Behind a TLS proxy (`X-Forwarded-Proto: https`), cookies are Secure.
pub(crate) fn is_https(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
}
