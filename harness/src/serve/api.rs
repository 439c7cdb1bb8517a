//! The JSON API for programs and `judge submit`, with bearer tokens: a
//! token for a user's password, the problems, submitting, and a
//! submission's status and feedback (what the pages would show the same
//! viewer). Live status is the same `/events` stream the pages use,
//! authorised by the token.

use std::net::SocketAddr;

use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::accounts;
use super::db::{self, Filter, Status};
use super::http::{AppError, AppState, Viewer};
use super::pages::{feedback_for, visible_entry};
use super::submit::{NewEntry, accept};

/// An API error: the page error's status with a JSON body.
pub(crate) struct ApiError(AppError);

impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        ApiError(e)
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message) = match self.0 {
            AppError::Login => (StatusCode::UNAUTHORIZED, "a token is needed".to_string()),
            AppError::Forbidden => (StatusCode::FORBIDDEN, "not allowed".into()),
            AppError::NotFound => (StatusCode::NOT_FOUND, "no such thing".into()),
            AppError::Csrf => (StatusCode::FORBIDDEN, "no CSRF token".into()),
            AppError::BadRequest(m) => (StatusCode::BAD_REQUEST, m),
            AppError::TooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, m),
            AppError::TooMany(m) => (StatusCode::TOO_MANY_REQUESTS, m),
            AppError::NotReady => (StatusCode::SERVICE_UNAVAILABLE, "not ready yet".into()),
            AppError::Internal(m) => {
                eprintln!("judge serve: {m}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the server failed".into(),
                )
            }
        };
        (status, Json(json!({ "error": message }))).into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

#[derive(Deserialize)]
pub(crate) struct TokenRequest {
    username: String,
    password: String,
}

/// `POST /api/v1/token`: a new token for a user's password (as rate
/// limited as the login form).
pub(crate) async fn token(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(request): Json<TokenRequest>,
) -> ApiResult {
    if !app.may_try_login(peer.ip(), &request.username) {
        return Err(AppError::TooMany("too many login attempts: wait a minute".into()).into());
    }
    let Some(account) =
        super::login::verify_login(&app, &request.username, &request.password).await?
    else {
        return Ok((
            StatusCode::UNAUTHORIZED,
            Json(json!({ "error": "wrong user or password" })),
        )
            .into_response());
    };
    let token = accounts::new_api_token(app.store().connection(), account)?;
    Ok(Json(json!({ "token": token, "username": request.username })).into_response())
}

/// Public unless the session is private.
fn may_read(app: &AppState, viewer: &Viewer) -> Result<(), ApiError> {
    if app.session.private && viewer.login.is_none() {
        return Err(AppError::Login.into());
    }
    Ok(())
}

/// `GET /api/v1/problems`.
pub(crate) async fn problems(State(app): State<AppState>, viewer: Viewer) -> ApiResult {
    may_read(&app, &viewer)?;
    let list: Vec<Value> = app
        .problems
        .iter()
        .map(|p| {
            json!({
                "id": p.id, "title": p.title, "limits": p.limits,
                "interactive": p.interactive, "samples": p.samples.len(),
            })
        })
        .collect();
    Ok(Json(json!({ "session": app.session.title, "problems": list })).into_response())
}

#[derive(Deserialize)]
pub(crate) struct SubmitRequest {
    problem: String,
    #[serde(default)]
    language: Option<String>,
    file_name: String,
    source: String,
}

/// `POST /api/v1/submissions` (a token): stored and queued before the
/// answer, which gives its id.
pub(crate) async fn submit(
    State(app): State<AppState>,
    viewer: Viewer,
    Json(request): Json<SubmitRequest>,
) -> ApiResult {
    // A write through the API takes a token, never a browser's cookie.
    if !viewer.by_token {
        return Err(AppError::Login.into());
    }
    let login = viewer.require()?;
    let file_name = super::submit::upload_name(&request.file_name);
    let id = accept(
        &app,
        &login.account,
        request.language.as_deref().unwrap_or("auto"),
        NewEntry {
            problem: request.problem,
            language: String::new(),
            file_name,
            source: request.source.into_bytes(),
        },
    )?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "status": "queued", "url": format!("/submissions/{id}") })),
    )
        .into_response())
}

fn entry_json(app: &AppState, entry: &db::Entry) -> Value {
    let status = match entry.status {
        Status::Judged => "judged".to_string(),
        Status::Running => app
            .live
            .progress(entry.id)
            .unwrap_or_else(|| "running".into()),
        Status::Queued => "queued".into(),
    };
    json!({
        "id": entry.id,
        "user": entry.username,
        "problem": entry.problem,
        "language": entry.language,
        "file_name": crate::escape::visible(&entry.file_name),
        "submitted_at": humantime::format_rfc3339_millis(entry.submitted_at).to_string(),
        "status": status,
        "verdict": entry.verdict.filter(|_| entry.status == Status::Judged).map(|v| v.short()),
        "score": entry.score,
    })
}

/// `GET /api/v1/submissions`: the viewer's own (the jury's: all).
pub(crate) async fn submissions(State(app): State<AppState>, viewer: Viewer) -> ApiResult {
    let login = viewer.require()?;
    let filter = Filter {
        account: (!login.account.is_jury()).then_some(login.account.id),
        ..Filter::default()
    };
    let entries = db::entries(app.store().connection(), app.ids.session, &filter, 1000)?;
    let list: Vec<Value> = entries.iter().map(|e| entry_json(&app, e)).collect();
    Ok(Json(json!({ "submissions": list })).into_response())
}

/// `GET /api/v1/submissions/ID`: its status and the feedback the viewer
/// may see.
pub(crate) async fn submission(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> ApiResult {
    let entry = visible_entry(&app, &viewer, id)?;
    let mut body = entry_json(&app, &entry);
    if let Some(view) = feedback_for(&app, &viewer, &entry)? {
        body["message"] = json!(view.message);
        body["summary"] = json!(view.summary);
        body["tests"] = view
            .tests
            .iter()
            .map(|t| {
                json!({
                    "test": t.label, "verdict": t.verdict, "cpu_ms": t.cpu_ms as u64,
                    "memory_kib": t.memory_kib, "detail": t.detail, "expected": t.expected,
                    "actual": t.actual, "diff": t.diff,
                })
            })
            .collect();
    }
    Ok(Json(body).into_response())
}
