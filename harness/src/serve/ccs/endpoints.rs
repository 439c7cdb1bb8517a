//! The CCS API's endpoints, under each version's base (`/api/` for
//! 2023-06, `/api/2026-01/`): the API information, the contests, and
//! under `contests/ID/` the access, the state, the scoreboard, the event
//! feed, the caller's account, every collection (filtered on its ID
//! properties) and each of its objects, and a submission's files. The
//! contest's id is the session's name.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::SystemTime;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::Value;

use super::access::{Audience, Kind};
use super::feed::KEEP_ALIVE;
use super::objects::{ApiInfo, Provider};
use super::reply::{CcsError, CcsResult, json, open_to_any_origin};
use super::versions::Version;
use super::view::{Data, View};
use crate::serve::app::AppState;
use crate::serve::http::Viewer;

/// Every route of every version.
pub(crate) fn router() -> Router<AppState> {
    let mut router = Router::new();
    for version in Version::ALL {
        router = router.merge(routes(version));
    }
    router
}

type Query2 = Query<Vec<(String, String)>>;

fn routes(version: Version) -> Router<AppState> {
    let base = version.base();
    let info = move || async move { api_info(version) };
    Router::new()
        .route(base, get(info))
        .route(&format!("{base}/"), get(info))
        .route(
            &format!("{base}/contests"),
            get(move |State(app): State<AppState>, viewer: Viewer| async move {
                contests(&app, &viewer, version)
            }),
        )
        .route(
            &format!("{base}/contests/{{id}}"),
            get(
                move |State(app): State<AppState>, viewer: Viewer, Path(id): Path<String>| async move {
                    contest(&app, &viewer, version, &id)
                },
            ),
        )
        .route(
            &format!("{base}/contests/{{id}}/{{kind}}"),
            get(
                move |State(app): State<AppState>,
                      viewer: Viewer,
                      Path((id, kind)): Path<(String, String)>,
                      Query(query): Query2| async move {
                    endpoint(&app, &viewer, version, &id, &kind, &query)
                },
            )
            .post(
                move |State(app): State<AppState>,
                      viewer: Viewer,
                      Path((id, kind)): Path<(String, String)>,
                      body: Result<axum::Json<super::post::NewClarification>, axum::extract::rejection::JsonRejection>| async move {
                    super::post::clarification(&app, &viewer, version, &id, &kind, body)
                },
            ),
        )
        .route(
            &format!("{base}/contests/{{id}}/{{kind}}/{{object}}"),
            get(
                move |State(app): State<AppState>,
                      viewer: Viewer,
                      Path((id, kind, object)): Path<(String, String, String)>| async move {
                    one(&app, &viewer, version, &id, &kind, &object)
                },
            ),
        )
        .route(
            &format!("{base}/contests/{{id}}/submissions/{{object}}/files"),
            get(
                move |State(app): State<AppState>,
                      viewer: Viewer,
                      Path((id, object)): Path<(String, String)>| async move {
                    files(&app, &viewer, version, &id, &object)
                },
            ),
        )
}

/// Who asks, as an audience; wrong credentials are 401 (too many: 429),
/// and a private session shows nobody who is not logged in anything.
pub(crate) fn audience(app: &AppState, viewer: &Viewer) -> Result<Audience, CcsError> {
    if let Some(refusal) = &viewer.refused {
        return Err(match refusal {
            super::auth::Refusal::Wrong => CcsError::unauthorized("wrong user or password"),
            super::auth::Refusal::TooMany => CcsError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many wrong passwords: wait a minute",
            ),
        });
    }
    if app.session.private && viewer.login.is_none() {
        return Err(CcsError::unauthorized("log in first"));
    }
    Ok(Audience::of(viewer.account()))
}

/// The audience, if `id` is this session's contest.
fn check(app: &AppState, viewer: &Viewer, id: &str) -> Result<Audience, CcsError> {
    let audience = audience(app, viewer)?;
    if id != app.session.name {
        return Err(CcsError::not_found("contest"));
    }
    Ok(audience)
}

fn api_info(version: Version) -> Response {
    json(&ApiInfo {
        version: version.name(),
        version_url: version.documentation(),
        provider: Provider {
            name: "Game Judge",
            version: crate::store::judge_version().to_string(),
        },
    })
}

/// Reads the store and hands `audience`'s view to `answer`.
fn with_view<T>(
    app: &AppState,
    audience: Audience,
    version: Version,
    answer: impl FnOnce(&View<'_>) -> T,
) -> Result<T, CcsError> {
    let data = Data::read(app)?;
    Ok(answer(&View::new(
        app,
        &data,
        audience,
        version,
        SystemTime::now(),
    )))
}

fn contests(app: &AppState, viewer: &Viewer, version: Version) -> CcsResult {
    let audience = audience(app, viewer)?;
    with_view(app, audience, version, |view| json(&[view.contest()]))
}

fn contest(app: &AppState, viewer: &Viewer, version: Version, id: &str) -> CcsResult {
    let audience = check(app, viewer, id)?;
    with_view(app, audience, version, |view| json(&view.contest()))
}

/// `contests/ID/KIND`: the singletons, the event feed, or a collection.
fn endpoint(
    app: &AppState,
    viewer: &Viewer,
    version: Version,
    id: &str,
    kind: &str,
    query: &[(String, String)],
) -> CcsResult {
    let audience = check(app, viewer, id)?;
    match kind {
        "access" => return Ok(json(&audience.access(&app.session, version))),
        "event-feed" => return event_feed(app, audience, version, query),
        "account" => {
            let account = viewer
                .account()
                .ok_or_else(|| CcsError::not_found("account"))?;
            return Ok(json(&super::view::account(account)));
        }
        _ => {}
    }
    with_view(app, audience, version, |view| match kind {
        "state" => Ok(json(&view.state())),
        "scoreboard" => {
            let group = query
                .iter()
                .find(|(key, _)| key == "group_id")
                .map(|(_, value)| value.as_str());
            let board = view
                .scoreboard(group)
                .ok_or_else(|| CcsError::bad_request("no such group"))?;
            Ok(json(&board))
        }
        _ => {
            let kind = Kind::collection(kind)
                .filter(|k| audience.offered(*k))
                .ok_or_else(|| CcsError::not_found("endpoint"))?;
            let objects: Vec<Value> = view
                .objects(kind)
                .into_iter()
                .map(|(_, value)| value)
                .filter(|value| passes(kind, value, query))
                .collect();
            Ok(json(&objects))
        }
    })?
}

/// Whether an object passes a collection's filters: each ID property
/// asked for equals the value given (empty: `null` or absent).
fn passes(kind: Kind, object: &Value, query: &[(String, String)]) -> bool {
    query
        .iter()
        .filter(|(key, _)| kind.filters().contains(&key.as_str()))
        .all(|(key, wanted)| match object.get(key) {
            None | Some(Value::Null) => wanted.is_empty(),
            Some(Value::String(value)) => value == wanted,
            Some(_) => false,
        })
}

/// `contests/ID/KIND/OBJECT`.
fn one(
    app: &AppState,
    viewer: &Viewer,
    version: Version,
    id: &str,
    kind: &str,
    object: &str,
) -> CcsResult {
    let audience = check(app, viewer, id)?;
    let kind = Kind::collection(kind)
        .filter(|k| audience.offered(*k))
        .ok_or_else(|| CcsError::not_found("endpoint"))?;
    with_view(app, audience, version, |view| {
        view.objects(kind)
            .into_iter()
            .find(|(found, _)| found.as_deref() == Some(object))
            .map(|(_, value)| json(&value))
            .ok_or_else(|| CcsError::not_found(kind.name()))
    })?
}

/// `contests/ID/submissions/N/files`: the source in a zip archive, to
/// the jury and its owner (what the submission's `files` points to).
fn files(app: &AppState, viewer: &Viewer, version: Version, id: &str, object: &str) -> CcsResult {
    let audience = check(app, viewer, id)?;
    let entry = object
        .parse::<i64>()
        .ok()
        .and_then(|n| {
            with_view(app, audience, version, |view| {
                view.visible_entries().find(|e| e.id == n).cloned()
            })
            .ok()
            .flatten()
        })
        .filter(|_| audience != Audience::Public)
        .ok_or_else(|| CcsError::not_found("submission"))?;
    let source = crate::store::entries::source(app.store().db(), entry.id)?;
    let archive = super::package::zip_of(&[(entry.file_name.as_str(), source.as_slice())])
        .map_err(|e| CcsError::from(crate::serve::error::AppError::Internal(e.to_string())))?;
    Ok(open_to_any_origin(
        ([(header::CONTENT_TYPE, "application/zip")], archive).into_response(),
    ))
}

/// `contests/ID/event-feed[?since_token=T][&types=a,b][&stream=false]`.
fn event_feed(
    app: &AppState,
    audience: Audience,
    version: Version,
    query: &[(String, String)],
) -> CcsResult {
    let mut asked: HashMap<&str, &str> = HashMap::new();
    for (key, value) in query {
        match key.as_str() {
            "since_token" | "types" | "stream" | "strict" => {
                asked.insert(key, value);
            }
            other => return Err(CcsError::bad_request(format!("no parameter `{other}`"))),
        }
    }
    let kinds = match asked.get("types") {
        None => Vec::new(),
        Some(types) => types
            .split(',')
            .map(|name| {
                Kind::ALL
                    .into_iter()
                    .find(|k| k.name() == name)
                    .ok_or_else(|| CcsError::bad_request(format!("no event type `{name}`")))
            })
            .collect::<Result<_, _>>()?,
    };
    let follow = match asked.get("stream").copied() {
        None | Some("true") => true,
        Some("false") => false,
        Some(other) => return Err(CcsError::bad_request(format!("stream={other}"))),
    };
    let feeds = app.ccs.feeds.clone();
    let log = feeds.log(app, version, audience)?;
    let from = feeds
        .start_after(&log, asked.get("since_token").copied())
        .ok_or_else(|| {
            CcsError::bad_request("unknown since_token: read the feed from its start")
        })?;
    let shutdown = (KEEP_ALIVE, app.shutdown.subscribe());
    let stream = super::feed::Feeds::stream(log, from, kinds, follow, shutdown);
    Ok(open_to_any_origin(
        (
            [(header::CONTENT_TYPE, "application/x-ndjson")],
            Body::from_stream(stream),
        )
            .into_response(),
    ))
}

/// Every CCS route's state: the basic-auth memory and the feeds.
#[derive(Default)]
pub(crate) struct Ccs {
    pub(crate) auth: super::auth::BasicAuth,
    pub(crate) feeds: Arc<super::feed::Feeds>,
}
