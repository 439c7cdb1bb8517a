//! Every route of the server, and the guard every request and response
//! passes: the time a request may take, a cross-site form refused by its
//! `Origin`, a private session's login wall, and the security headers.

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};

use super::app::AppState;
use super::error::AppError;
use super::http::Viewer;

/// No script but our own file, no inline script or style, no framing, no
/// form posting elsewhere, nothing loaded from another origin.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

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
            "/account",
            get(super::account::account).post(super::account::account_action),
        )
        .route(
            "/register",
            get(super::login::register_form).post(super::login::register),
        )
        .route("/problems/all", get(super::pages::problem_set))
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
        .route(
            "/clarifications",
            get(super::clarifications::list).post(super::clarifications::ask),
        )
        .route("/jury/clarifications", post(super::clarifications::answer))
        .route("/events", get(super::events::events))
        .route("/api/v1/token", post(super::api::token))
        .route("/api/v1/problems", get(super::api::problems))
        .route(
            "/api/v1/submissions",
            get(super::api::submissions)
                .post(super::api::submit)
                .layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route("/api/v1/submissions/{id}", get(super::api::submission))
        .route("/jury", get(super::jury::overview))
        .route(
            "/jury/participants/{username}",
            get(super::jury::participant),
        )
        .route(
            "/jury/participants/{username}/account",
            post(super::jury::account_action),
        )
        .route("/jury/rejudge", post(super::jury::rejudge))
        .route("/jury/session", post(super::jury::session))
        .route(
            "/jury/reviews",
            get(super::review::list).post(super::review::start),
        )
        .route(
            "/jury/reviews/{id}",
            get(super::review::show).post(super::review::decide),
        )
        .route("/jury/sources.zip", get(super::jury::sources))
        .route(
            "/jury/clarifications.csv",
            get(super::jury::clarifications_file),
        )
        .route(
            "/jury/problems/{id}/tests/{number}/{kind}",
            get(super::jury_view::test_file),
        )
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
        .merge(super::ccs::router())
        .layer(DefaultBodyLimit::max(64 << 10))
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .layer(axum::middleware::from_fn_with_state(
            app.net.request_timeout,
            |State(limit), request, next| super::net::timed(limit, request, next),
        ))
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
    if cross_site(&request) {
        return AppError::Csrf.into_response();
    }
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

/// A state-changing request another site's page made a browser send: a
/// POST that the browser marks as cross-site (`Sec-Fetch-Site`, sent by
/// every current browser), or, from an older one, whose `Origin` names
/// another host than the one asked. (Under `Referrer-Policy: no-referrer`
/// a browser's own same-origin form says `Origin: null`, so `null` alone
/// proves nothing.) The forms' CSRF tokens refuse such a request too;
/// this refuses it before any handler, whatever a handler forgets.
fn cross_site(request: &Request) -> bool {
    if request.method() != axum::http::Method::POST {
        return false;
    }
    let headers = request.headers();
    if let Some(site) = headers.get("sec-fetch-site") {
        return !matches!(site.as_bytes(), b"same-origin" | b"none");
    }
    let origin = headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .filter(|o| *o != "null");
    let Some(origin) = origin else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let origin_host = origin
        .split_once("://")
        .map_or(origin, |(_, rest)| rest)
        .trim_end_matches('/');
    !origin_host.eq_ignore_ascii_case(host)
}
