//! The API's one write: `POST contests/ID/clarifications`. A team asks
//! the jury (`team_clar` in 2023-06, `post_clar` in 2026-01); the jury
//! answers one team or everybody (`post_clar`, 2026-01). The server sets
//! the id and the time, so a body that gives them is refused, as is one
//! naming what its sender may not (another team, a recipient for a
//! question). The body must be JSON (`Content-Type: application/json`),
//! which a form on another site cannot send without asking first.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::Value;

use super::access::Audience;
use super::endpoints::audience;
use super::reply::{CcsError, CcsResult, open_to_any_origin};
use super::versions::Version;
use super::view::{Data, View, json};
use crate::serve::app::AppState;
use crate::serve::http::Viewer;
use crate::store::clarifications::{self, Sender};

/// The longest text a clarification may have.
const MAX_TEXT: usize = 10_000;

/// A clarification as posted.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewClarification {
    id: Option<Value>,
    time: Option<Value>,
    contest_time: Option<Value>,
    from_team_id: Option<String>,
    to_team_id: Option<String>,
    to_team_ids: Option<Vec<String>>,
    to_group_ids: Option<Vec<String>>,
    reply_to_id: Option<String>,
    problem_id: Option<String>,
    text: String,
}

pub(crate) fn clarification(
    app: &AppState,
    viewer: &Viewer,
    version: Version,
    contest: &str,
    kind: &str,
    body: Result<Json<NewClarification>, JsonRejection>,
) -> CcsResult {
    let audience = audience(app, viewer)?;
    if contest != app.session.name || kind != "clarifications" {
        return Err(CcsError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "only clarifications can be posted",
        ));
    }
    let Json(new) = body.map_err(|e| CcsError::new(e.status(), e.body_text()))?;
    let author = viewer.account().map_or(0, |a| a.id);
    let sender = sender(audience, author, version, &new)?;
    if new.id.is_some() || new.time.is_some() || new.contest_time.is_some() {
        return Err(CcsError::bad_request(
            "the server sets id, time and contest_time",
        ));
    }
    let text = new.text.trim();
    if text.is_empty() || text.len() > MAX_TEXT {
        return Err(CcsError::bad_request(format!(
            "text: 1 to {MAX_TEXT} bytes"
        )));
    }
    let data = Data::read(app)?;
    let view = View::new(app, &data, audience, version, std::time::SystemTime::now());
    let (problem, reply_to) = references(&view, &new)?;
    let sender = match sender {
        Sender::Jury {
            author,
            to: Some(team),
        } => {
            let to = view
                .participants()
                .find(|a| a.id == team)
                .map(|a| a.id)
                .ok_or_else(|| CcsError::bad_request(format!("no team `{team}`")))?;
            Sender::Jury {
                author,
                to: Some(to),
            }
        }
        other => other,
    };
    let stored = clarifications::insert(
        app.store().db(),
        app.ids.session,
        &clarifications::NewClarification {
            sender,
            reply_to,
            problem,
            text: text.to_string(),
        },
    )?;
    app.ccs.feeds.nudge();
    let data = Data::read(app)?;
    let view = View::new(app, &data, audience, version, view.now);
    let object = view
        .clarifications()
        .into_iter()
        .find(|(id, _)| *id == stored.id.to_string())
        .map(|(_, value)| value)
        .unwrap_or_default();
    let location = format!(
        "{}/contests/{}/clarifications/{}",
        version.base(),
        app.session.name,
        stored.id
    );
    let mut response = (StatusCode::CREATED, Json(json(&object))).into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    Ok(open_to_any_origin(response))
}

/// The problem and the clarification a new one names, as stored: each
/// must exist and be visible to the sender.
fn references(
    view: &View<'_>,
    new: &NewClarification,
) -> Result<(Option<String>, Option<i64>), CcsError> {
    let problem = match new.problem_id.as_deref() {
        None => None,
        Some(id) => Some(
            view.app
                .problems
                .iter()
                .filter(|_| view.access().sees_problems())
                .find(|p| super::view::problem_id(&p.id) == id)
                .map(|p| p.id.clone())
                .ok_or_else(|| CcsError::bad_request(format!("no problem `{id}`")))?,
        ),
    };
    let reply_to = match new.reply_to_id.as_deref() {
        None => None,
        Some(id) => Some(
            view.data
                .clarifications
                .iter()
                .find(|c| c.id.to_string() == id && view.audience.sees_clarification(c))
                .map(|c| c.id)
                .ok_or_else(|| CcsError::bad_request(format!("no clarification `{id}`")))?,
        ),
    };
    Ok((problem, reply_to))
}

/// Who sends, from the audience and what the body names.
fn sender(
    audience: Audience,
    author: i64,
    version: Version,
    new: &NewClarification,
) -> Result<Sender, CcsError> {
    let forbidden = |message: &str| CcsError::new(StatusCode::FORBIDDEN, message);
    let recipients: Option<Vec<String>> = match version {
        Version::V2023_06 if new.to_team_ids.is_some() || new.to_group_ids.is_some() => {
            return Err(CcsError::bad_request("2023-06 has to_team_id"));
        }
        Version::V2026_01 if new.to_team_id.is_some() => {
            return Err(CcsError::bad_request("2026-01 has to_team_ids"));
        }
        Version::V2023_06 => new.to_team_id.clone().map(|t| vec![t]),
        Version::V2026_01 => new.to_team_ids.clone(),
    };
    match audience {
        Audience::Public => Err(CcsError::unauthorized("log in first")),
        Audience::Team(me) => {
            if recipients.is_some() || new.to_group_ids.is_some() {
                return Err(forbidden("a team writes to the jury only"));
            }
            if new
                .from_team_id
                .as_deref()
                .is_some_and(|t| t != me.to_string())
            {
                return Err(forbidden("a team writes as itself only"));
            }
            Ok(Sender::Participant(me))
        }
        Audience::Jury if version == Version::V2023_06 => Err(forbidden(
            "the jury posts clarifications through the 2026-01 API (post_clar)",
        )),
        Audience::Jury => {
            if new.from_team_id.is_some() || new.to_group_ids.is_some() {
                return Err(CcsError::bad_request(
                    "the jury sends no from_team_id or groups",
                ));
            }
            let to = match recipients.as_deref() {
                None | Some([]) => None,
                Some([team]) => Some(
                    team.parse::<i64>()
                        .map_err(|_| CcsError::bad_request(format!("no team `{team}`")))?,
                ),
                Some(_) => return Err(CcsError::bad_request("one team, or everybody")),
            };
            Ok(Sender::Jury { author, to })
        }
    }
}
