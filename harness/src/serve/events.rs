//! `GET /events`: each viewer's stream of the live status (`live.rs`),
//! filtered to what the viewer may see.

use std::convert::Infallible;
use std::time::SystemTime;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::BroadcastStream;

use super::app::AppState;
use super::http::Viewer;
use super::live::LiveEvent;

/// `GET /events`: the viewer's stream. `status` events carry a
/// submission's new status (JSON); `scoreboard` events say the scoreboard
/// changed; `reload` says events were missed.
pub(crate) async fn events(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    let account = viewer.account().cloned();
    let stream = BroadcastStream::new(app.live.subscribe()).filter_map(move |item| {
        let event = match item {
            Ok(event) => event,
            Err(_) => return Some(Ok(Event::default().event("reload").data("missed"))),
        };
        let jury = account.as_ref().is_some_and(|a| a.is_jury());
        let own = account.as_ref().is_some_and(|a| a.id == event.account);
        if event.verdict.is_some() {
            let hidden = app
                .session
                .frozen_since(SystemTime::now())
                .is_some_and(|freeze| event.submitted_at >= freeze);
            if own || jury {
                return Some(Ok(status_event(&event)));
            }
            return (!hidden).then(|| Ok(Event::default().event("scoreboard").data("changed")));
        }
        (own || jury).then(|| Ok(status_event(&event)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

fn status_event(event: &LiveEvent) -> Event {
    Event::default()
        .event("status")
        .json_data(event)
        .unwrap_or_else(|_| Event::default().event("reload").data("bad event"))
}
