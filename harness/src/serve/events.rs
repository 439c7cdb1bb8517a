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

use super::access::{Access, Standing};
use super::app::{AppState, StreamOwner};
use super::error::AppError;
use super::http::{ClientAddr, Viewer};
use super::live::LiveEvent;
use crate::store::entries::{self, Entry, Filter, Status};

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
    // Subscribed first, then the snapshot read: a verdict that comes
    // meanwhile is in one or the other (or both), never lost.
    let receiver = app.live.subscribe();
    let notices = app.live.subscribe_clarifications();
    let snapshot = snapshot(&app, &viewer)?;
    let reader = viewer.clone();
    let clarifications = BroadcastStream::new(notices).map(move |item| {
        Item::Send(match item {
            Ok(c) if super::access::clarification_reaches(&reader, &c) => Some(
                Event::default()
                    .event("clarification")
                    .data(c.id.to_string()),
            ),
            Ok(_) => None,
            Err(_) => Some(Event::default().event("clarification").data("missed")),
        })
    });
    let live = BroadcastStream::new(receiver).map(move |item| {
        let event = match item {
            Ok(event) => event,
            Err(_) => return Item::Send(Some(Event::default().event("reload").data("missed"))),
        };
        Item::Send(shown(&app, &viewer, &event))
    });
    let stream = tokio_stream::iter(snapshot.into_iter().map(|event| Item::Send(Some(event))))
        .chain(live)
        .merge(clarifications)
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

/// How long after its verdict an entry is still in a new stream's
/// snapshot: a page opened (or reconnected) a little after the verdict
/// came still learns it.
const SNAPSHOT_RECENT: std::time::Duration = std::time::Duration::from_secs(15 * 60);
/// The most entries a snapshot tells of.
const SNAPSHOT_ENTRIES: usize = 100;

/// What a stream says first, on every (re)connect: the status of each
/// entry of the viewer's (every entry, for the jury) that is waiting, being
/// judged, or was judged lately. A verdict that came before the page's
/// stream opened is not missed.
fn snapshot(app: &AppState, viewer: &Viewer) -> Result<Vec<Event>, AppError> {
    let Some(account) = viewer.account() else {
        return Ok(Vec::new());
    };
    let filter = Filter {
        account: (!account.is_jury()).then_some(account.id),
        ..Filter::default()
    };
    let entries = entries::entries(app.store().db(), app.ids.session, &filter, SNAPSHOT_ENTRIES)?;
    let access = Access::new(&app.session, viewer);
    let now = std::time::SystemTime::now();
    let recent = |e: &Entry| {
        now.duration_since(e.submitted_at)
            .is_ok_and(|age| age < SNAPSHOT_RECENT)
    };
    Ok(entries
        .iter()
        .filter(|e| e.status != Status::Judged || recent(e))
        .map(|e| {
            let standing = access.standing(e, app.live.progress(e.id));
            let verdict = match &standing {
                Standing::Judged(v) => Some(v.short().to_string()),
                _ => None,
            };
            status_event(&LiveEvent {
                entry: e.id,
                account: e.account,
                submitted_at: e.submitted_at,
                problem: e.problem.clone(),
                status: standing.text(),
                verdict,
            })
        })
        .collect())
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
