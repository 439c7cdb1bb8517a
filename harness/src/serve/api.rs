//! The JSON API for programs and `judge submit`, with bearer tokens: a
//! token for a user's password, the problems, submitting, and a
//! submission's status and feedback (what the pages would show the same
//! viewer). Live status is the same `/events` stream the pages use,
//! authorised by the token.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::access::{Access, Standing};
use super::accounts;
use super::app::AppState;
use super::error::AppError;
use super::http::{ClientAddr, Viewer};
use super::pages::{feedback_for, visible_entry};
use super::submit::{NewEntry, accept};
use crate::store::entries::{self, Filter};

/// An API error: the page error's status with a JSON body.
pub(crate) struct ApiError(AppError);

impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        ApiError(e)
    }
}

impl From<crate::store::DbError> for ApiError {
    fn from(e: crate::store::DbError) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.0.log();
        let (status, _, message) = self.0.status();
        (status, Json(Failure { error: message })).into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

/// The body of every refusal.
#[derive(Serialize)]
struct Failure<'a> {
    error: &'a str,
}

/// `POST /api/v1/token`'s answer.
#[derive(Serialize)]
struct Token<'a> {
    token: &'a str,
    username: &'a str,
    /// RFC 3339: the token is refused from then on.
    expires_at: String,
}

/// `GET /api/v1/problems`'s answer.
#[derive(Serialize)]
struct Problems<'a> {
    session: &'a str,
    problems: Vec<ProblemJson<'a>>,
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    id: &'a str,
    title: &'a str,
    limits: &'a str,
    interactive: bool,
    samples: usize,
}

/// `POST /api/v1/submissions`'s answer.
#[derive(Serialize)]
struct Queued {
    id: i64,
    status: &'static str,
    url: String,
}

/// A submission as the API shows it, with its feedback when the viewer
/// may see it.
#[derive(Serialize)]
struct EntryJson {
    id: i64,
    user: String,
    problem: String,
    language: String,
    file_name: String,
    submitted_at: String,
    status: String,
    verdict: Option<&'static str>,
    score: Option<f64>,
    #[serde(flatten)]
    feedback: Option<FeedbackJson>,
}

#[derive(Serialize)]
struct FeedbackJson {
    message: String,
    summary: String,
    tests: Vec<TestJson>,
}

#[derive(Serialize)]
struct TestJson {
    test: String,
    verdict: &'static str,
    /// Exact figures for samples (and the jury); null for a secret test,
    /// whose `time` and `memory` say only `within limit` or `over limit`.
    cpu_ms: Option<u64>,
    memory_kib: Option<u64>,
    time: String,
    memory: String,
    detail: String,
    expected: String,
    actual: String,
    diff: String,
}

/// `GET /api/v1/submissions`'s answer.
#[derive(Serialize)]
struct Submissions {
    submissions: Vec<EntryJson>,
}

#[derive(Deserialize)]
pub(crate) struct TokenRequest {
    username: String,
    password: String,
    /// What asks for the token (shown in the owner's token list).
    #[serde(default)]
    label: Option<String>,
}

/// `POST /api/v1/token`: a new token for a user's password (as limited
/// as the login form), valid for the session's `token-lifetime`.
pub(crate) async fn token(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    Json(request): Json<TokenRequest>,
) -> ApiResult {
    let account =
        super::login::verify_login(&app, &request.username, &request.password, client).await?;
    let Some(account) = account else {
        return Ok((
            StatusCode::UNAUTHORIZED,
            Json(Failure {
                error: "wrong user or password",
            }),
        )
            .into_response());
    };
    let label: String = crate::escape::name(request.label.as_deref().unwrap_or("API"))
        .chars()
        .take(40)
        .collect();
    let lifetime = app.session.token_lifetime;
    let token = accounts::new_api_token(app.store().db(), account, &label, lifetime)?;
    let expires_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now() + lifetime);
    Ok(Json(Token {
        token: &token,
        username: &request.username,
        expires_at: expires_at.to_string(),
    })
    .into_response())
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
    // Before the start only the jury sees problems; the list is empty.
    let shown = Access::new(&app.session, &viewer).sees_problems();
    let problems = app
        .problems
        .iter()
        .filter(|_| shown)
        .map(|p| ProblemJson {
            id: &p.id,
            title: &p.title,
            limits: &p.limits,
            interactive: p.interactive,
            samples: p.samples.len(),
        })
        .collect();
    Ok(Json(Problems {
        session: &app.session.title,
        problems,
    })
    .into_response())
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
    ClientAddr(client): ClientAddr,
    Json(request): Json<SubmitRequest>,
) -> ApiResult {
    // A write through the API takes a token, never a browser's cookie.
    if !viewer.by_token {
        return Err(AppError::Login.into());
    }
    let file_name = super::submit::upload_name(&request.file_name);
    let id = accept(
        &app,
        &viewer,
        client,
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
        Json(Queued {
            id,
            status: "queued",
            url: format!("/submissions/{id}"),
        }),
    )
        .into_response())
}

fn entry_json(app: &AppState, viewer: &Viewer, entry: &entries::Entry) -> EntryJson {
    let standing = Access::new(&app.session, viewer).standing(entry, app.live.progress(entry.id));
    let (status, verdict) = match standing {
        Standing::Judged(verdict) => ("judged".to_string(), Some(verdict.short())),
        other => (other.text(), None),
    };
    EntryJson {
        id: entry.id,
        user: entry.username.clone(),
        problem: entry.problem.clone(),
        language: entry.language.clone(),
        file_name: crate::escape::visible(&entry.file_name),
        submitted_at: humantime::format_rfc3339_millis(entry.submitted_at).to_string(),
        status,
        verdict,
        score: entry.score,
        feedback: None,
    }
}

/// `GET /api/v1/submissions`: the viewer's own (the jury's: all).
pub(crate) async fn submissions(State(app): State<AppState>, viewer: Viewer) -> ApiResult {
    let login = viewer.require()?;
    let filter = Filter {
        account: (!login.account.is_jury()).then_some(login.account.id),
        ..Filter::default()
    };
    let entries = entries::entries(app.store().db(), app.ids.session, &filter, 1000)?;
    let submissions = entries
        .iter()
        .map(|e| entry_json(&app, &viewer, e))
        .collect();
    Ok(Json(Submissions { submissions }).into_response())
}

/// `GET /api/v1/submissions/ID`: its status and the feedback the viewer
/// may see.
pub(crate) async fn submission(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> ApiResult {
    let entry = visible_entry(&app, &viewer, id)?;
    let mut body = entry_json(&app, &viewer, &entry);
    body.feedback = feedback_for(&app, &viewer, &entry)?.map(|view| FeedbackJson {
        message: view.message,
        summary: view.summary,
        tests: view
            .tests
            .into_iter()
            .map(|t| TestJson {
                test: t.label,
                verdict: t.verdict,
                cpu_ms: t.cpu_ms,
                memory_kib: t.memory_kib,
                time: t.time,
                memory: t.memory,
                detail: t.detail,
                expected: t.expected,
                actual: t.actual,
                diff: t.diff,
            })
            .collect(),
    });
    Ok(Json(body).into_response())
}
