//! `GET /events`: each viewer's stream of the live status (`live.rs`),
//! filtered by the access rule (`access.rs`). A viewer (an account, or an
//! address when nobody is logged in) has at most a few streams open at
//! once; every stream ends when the server stops, so that a restart never
//! waits for a browser.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::{BroadcastStream, WatchStream};

use super::access::Access;
use super::app::{AppState, StreamOwner};
use super::error::AppError;
use super::http::{ClientAddr, Viewer};
use super::live::LiveEvent;

/// An item of a stream: an event to send, or the server's stop.
enum Item {
    Send(Option<Event>),
    Stop,
}

/// `GET /events`: the viewer's stream. `status` events carry a
/// submission's new status (JSON); `scoreboard` events say the scoreboard
/// changed; `reload` says events were missed.
pub(crate) async fn events(
    State(app): State<AppState>,
    viewer: Viewer,
    ClientAddr(client): ClientAddr,
) -> Result<Response, AppError> {
    let owner = match viewer.account() {
        Some(account) => StreamOwner::Account(account.id),
        None => StreamOwner::Address(client),
    };
    let slot = app
        .streams
        .take(owner, app.net.streams_per_viewer, usize::MAX)
        .ok_or_else(|| AppError::TooMany("Too many live pages open: close some tabs.".into()))?;
    let stop = WatchStream::new(app.shutdown.subscribe())
        .filter(|stopped| *stopped)
        .map(|_| Item::Stop);
    let receiver = app.live.subscribe();
    let live = BroadcastStream::new(receiver).map(move |item| {
        let event = match item {
            Ok(event) => event,
            Err(_) => return Item::Send(Some(Event::default().event("reload").data("missed"))),
        };
        Item::Send(shown(&app, &viewer, &event))
    });
    let stream = live
        .merge(stop)
        .take_while(|item| !matches!(item, Item::Stop))
        .filter_map(move |item| {
            // The slot lives as long as the stream.
            let _held = &slot;
            match item {
                Item::Send(event) => event.map(Ok::<_, Infallible>),
                Item::Stop => None,
            }
        });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// What `viewer` is told of `event`: its status (their own entry, or the
/// jury's), a nudge that the scoreboard changed (a verdict they may not
/// see in full but whose result the scoreboard shows), or nothing.
fn shown(app: &AppState, viewer: &Viewer, event: &LiveEvent) -> Option<Event> {
    let access = Access::new(&app.session, viewer);
    let own = viewer.account().is_some_and(|a| a.id == event.account);
    if own || access.is_jury() {
        let mut event = event.clone();
        if event.verdict.is_none() {
            event.status = access.progress(Some(event.status));
        }
        return Some(status_event(&event));
    }
    (event.verdict.is_some() && access.sees_result(event.account, event.submitted_at))
        .then(|| Event::default().event("scoreboard").data("changed"))
}

fn status_event(event: &LiveEvent) -> Event {
    Event::default()
        .event("status")
        .json_data(event)
        .unwrap_or_else(|_| Event::default().event("reload").data("bad event"))
}
