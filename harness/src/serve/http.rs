//! The HTTP side: the router, the shared state, who is asking (a login
//! cookie or nobody), CSRF checks, rate limits, the security headers every
//! response carries, and errors as pages. Handlers live in `pages.rs`,
//! `jury.rs`, `api.rs` and `live.rs`.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};

use askama::Template;
use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::accounts::{self, Account, Login};
use super::db::SessionIds;
use super::live::Live;
use super::pages::ProblemPage;
use super::queue::Queue;
use super::session::Session;
use crate::store::Store;

/// The login cookie's name.
pub(crate) const LOGIN_COOKIE: &str = "judge_login";
/// The cookie a login form's CSRF token is bound to (before a login exists).
const FORM_COOKIE: &str = "judge_form";

/// No script but our own file, no inline script or style, no framing, no
/// form posting elsewhere, nothing loaded from another origin.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

/// A language a participant may choose.
#[derive(Debug, Clone)]
pub(crate) struct LanguageChoice {
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) extensions: Vec<String>,
}

/// What runs beside the pages: live status, the judging queue, the games.
pub(crate) struct Engines {
    pub(crate) live: Arc<Live>,
    pub(crate) queue: Arc<Queue>,
    pub(crate) games: super::play::Games,
}

/// What every handler shares.
pub(crate) struct App {
    pub(crate) session: Session,
    pub(crate) ids: SessionIds,
    pub(crate) problems: Vec<ProblemPage>,
    pub(crate) languages: Vec<LanguageChoice>,
    store: Mutex<Store>,
    pub(crate) live: Arc<Live>,
    pub(crate) queue: Arc<Queue>,
    pub(crate) games: super::play::Games,
    /// Keys the login form's CSRF token to its cookie.
    form_key: [u8; 32],
    login_by_ip: DefaultKeyedRateLimiter<IpAddr>,
    login_by_user: DefaultKeyedRateLimiter<String>,
    submissions_by_account: DefaultKeyedRateLimiter<i64>,
}

pub(crate) type AppState = Arc<App>;

/// Failed or not, login attempts per client address and per username.
// Behind a reverse proxy every client has its address: the per-address
// limit must let a whole class log in at once.
const LOGINS_PER_MINUTE_BY_IP: u32 = 300;
const LOGINS_PER_MINUTE_BY_USER: u32 = 5;

impl App {
    pub(crate) fn new(
        session: Session,
        ids: SessionIds,
        problems: Vec<ProblemPage>,
        languages: Vec<LanguageChoice>,
        store: Store,
        engines: Engines,
    ) -> App {
        let Engines { live, queue, games } = engines;
        let per_minute =
            |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN));
        App {
            submissions_by_account: RateLimiter::keyed(per_minute(session.submissions_per_minute)),
            session,
            ids,
            problems,
            languages,
            store: Mutex::new(store),
            live,
            queue,
            games,
            form_key: rand::random(),
            login_by_ip: RateLimiter::keyed(per_minute(LOGINS_PER_MINUTE_BY_IP)),
            login_by_user: RateLimiter::keyed(per_minute(LOGINS_PER_MINUTE_BY_USER)),
        }
    }

    /// The store, for a few quick statements (never held across an await).
    pub(crate) fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn problem(&self, id: &str) -> Option<&ProblemPage> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// Whether a login attempt from `ip` for `username` may go ahead.
    pub(crate) fn may_try_login(&self, ip: IpAddr, username: &str) -> bool {
        self.login_by_ip.check_key(&ip).is_ok()
            && self.login_by_user.check_key(&username.to_string()).is_ok()
    }

    pub(crate) fn may_submit(&self, account: i64) -> bool {
        self.submissions_by_account.check_key(&account).is_ok()
    }

    /// The login form's CSRF token for its cookie's value.
    pub(crate) fn form_token(&self, cookie: &str) -> String {
        blake3::keyed_hash(&self.form_key, cookie.as_bytes())
            .to_hex()
            .to_string()
    }
}

/// Every route of the server.
pub(crate) fn router(app: AppState) -> Router {
    let upload_limit = (app.session.max_source as usize) * 2 + (64 << 10);
    Router::new()
        .route("/", get(super::pages::home))
        .route(
            "/login",
            get(super::login::login_form).post(super::login::login),
        )
        .route("/logout", post(super::login::logout))
        .route(
            "/register",
            get(super::login::register_form).post(super::login::register),
        )
        .route("/problems/{id}", get(super::pages::problem))
        .route("/problems/{id}/samples/{file}", get(super::pages::sample))
        .route(
            "/problems/{id}/play",
            get(super::play::play_page).post(super::play::play_move),
        )
        .route(
            "/submit",
            post(super::submit::submit).layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route("/submissions", get(super::pages::submissions))
        .route("/submissions/{id}", get(super::pages::submission))
        .route("/scoreboard", get(super::pages::scoreboard))
        .route("/events", get(super::live::events))
        .route("/api/v1/token", post(super::api::token))
        .route("/api/v1/problems", get(super::api::problems))
        .route(
            "/api/v1/submissions",
            get(super::api::submissions)
                .post(super::api::submit)
                .layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route("/api/v1/submissions/{id}", get(super::api::submission))
        .route("/api/contests", get(super::ccs::contests))
        .route("/api/contests/{id}", get(super::ccs::one_contest))
        .route("/api/contests/{id}/{kind}", get(super::ccs::endpoint))
        .route("/jury", get(super::jury::overview))
        .route(
            "/jury/participants/{username}",
            get(super::jury::participant),
        )
        .route("/jury/rejudge", post(super::jury::rejudge))
        .route("/jury/workers", get(super::jury::workers))
        .route(
            "/jury/gradebook.csv",
            get(|app, viewer| super::jury::gradebook_file(app, viewer, super::jury::Export::Csv)),
        )
        .route(
            "/jury/gradebook.html",
            get(|app, viewer| super::jury::gradebook_file(app, viewer, super::jury::Export::Html)),
        )
        .route("/static/{file}", get(super::pages::static_file))
        .layer(DefaultBodyLimit::max(64 << 10))
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Security headers on every response; a private session shows nothing
/// but its login page to somebody not logged in.
async fn guard(
    State(app): State<AppState>,
    viewer: Viewer,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let open_path = path == "/login"
        || path == "/register"
        || path.starts_with("/static/")
        || path.starts_with("/api/");
    let mut response = if app.session.private && viewer.login.is_none() && !open_path {
        Redirect::to("/login").into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// Who is asking: a valid login cookie's account, or nobody.
#[derive(Debug, Clone, Default)]
pub(crate) struct Viewer {
    pub(crate) login: Option<Login>,
    /// Authenticated by an API token, not a browser's cookie.
    pub(crate) by_token: bool,
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
pub(crate) struct Jury(pub(crate) Viewer);

impl Jury {
    pub(crate) fn login(&self) -> &Login {
        self.0
            .login
            .as_ref()
            .expect("a Jury is made only from a login")
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
        // An API token: never sent by a browser on its own, so a form
        // posted with it is refused (its CSRF token is a fresh random one).
        let bearer = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
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

/// A form's CSRF token checked against the login's.
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
pub(crate) fn form_token_ok(app: &App, jar: &CookieJar, token: &str) -> bool {
    jar.get(FORM_COOKIE)
        .is_some_and(|cookie| same_token(&app.form_token(cookie.value()), token))
}

/// Behind a TLS proxy (`X-Forwarded-Proto: https`), cookies are Secure.
pub(crate) fn is_https(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
}

/// What a handler can fail with, as a page with its status.
#[derive(Debug)]
pub(crate) enum AppError {
    /// Not logged in: to the login page.
    Login,
    Forbidden,
    NotFound,
    /// A form without its login's CSRF token.
    Csrf,
    BadRequest(String),
    TooLarge(String),
    TooMany(String),
    /// The problems are still being built.
    NotReady,
    Internal(String),
}

impl From<crate::store::DbError> for AppError {
    fn from(e: crate::store::DbError) -> AppError {
        AppError::Internal(format!("the result store: {e}"))
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> AppError {
        AppError::Internal(format!("a page template: {e}"))
    }
}

#[derive(Template)]
#[template(path = "serve/error.html")]
struct ErrorPage<'a> {
    status: u16,
    title: &'a str,
    message: &'a str,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, title, message) = match &self {
            AppError::Login => return Redirect::to("/login").into_response(),
            AppError::Forbidden => (
                StatusCode::FORBIDDEN,
                "Forbidden",
                "This page is for the jury.",
            ),
            AppError::NotFound => (StatusCode::NOT_FOUND, "Not found", "There is no such page."),
            AppError::Csrf => (
                StatusCode::FORBIDDEN,
                "Form expired",
                "The form did not carry this login's token: reload the page and try again.",
            ),
            AppError::BadRequest(m) => (StatusCode::BAD_REQUEST, "Bad request", m.as_str()),
            AppError::TooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, "Too large", m.as_str()),
            AppError::TooMany(m) => (
                StatusCode::TOO_MANY_REQUESTS,
                "Too many requests",
                m.as_str(),
            ),
            AppError::NotReady => (
                StatusCode::SERVICE_UNAVAILABLE,
                "Not ready",
                "The judge is still building the problems' programs: try again in a minute.",
            ),
            AppError::Internal(m) => {
                eprintln!("judge serve: {m}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Judge error",
                    "The server failed; the jury can read why in its log.",
                )
            }
        };
        let page = ErrorPage {
            status: status.as_u16(),
            title,
            message,
        };
        match page.render() {
            Ok(html) => (status, Html(html)).into_response(),
            Err(_) => (status, title.to_string()).into_response(),
        }
    }
}

/// Renders a template as a page.
pub(crate) fn page(template: &impl Template) -> Result<Response, AppError> {
    Ok(Html(template.render()?).into_response())
}
