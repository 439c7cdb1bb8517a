//! What a handler can fail with, and how each failure is shown: a page
//! with its status (a missing login, a redirect to the login page).

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};

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

impl AppError {
    /// The one map from a failure to its HTTP status, title and words,
    /// which pages and the API both answer with (a missing login is a
    /// redirect to the login page for a page, 401 for the API).
    pub(crate) fn status(&self) -> (StatusCode, &'static str, &str) {
        match self {
            AppError::Login => (
                StatusCode::UNAUTHORIZED,
                "Log in",
                "Log in (or give an API token) first.",
            ),
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
            AppError::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Judge error",
                "The server failed; the jury can read why in its log.",
            ),
        }
    }

    /// A failure of the server itself goes to its log (never to the page).
    pub(crate) fn log(&self) {
        if let AppError::Internal(m) = self {
            eprintln!("judge serve: {m}");
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if matches!(self, AppError::Login) {
            return Redirect::to("/login").into_response();
        }
        self.log();
        let (status, title, message) = self.status();
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
