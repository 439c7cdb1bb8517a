//! Live status: what each judging is doing now ("compiling", "test 7 of
//! 24", the verdict), told to the pages through Server-Sent Events. The
//! judge threads publish; every open `/events` stream subscribes and sees
//! only what its viewer may: their own submissions (the jury: all), and a
//! "scoreboard changed" nudge (none for a result hidden by the freeze).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Mutex;
use std::time::SystemTime;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::Serialize;
use tokio::sync::broadcast;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::BroadcastStream;

use super::http::{AppState, Viewer};

/// One change of a submission's status.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LiveEvent {
    pub(crate) entry: i64,
    #[serde(skip)]
    pub(crate) account: i64,
    #[serde(skip)]
    pub(crate) submitted_at: SystemTime,
    pub(crate) problem: String,
    /// `queued`, `compiling`, `test 7 of 24`, or the verdict.
    pub(crate) status: String,
    /// Set once judged.
    pub(crate) verdict: Option<String>,
}

pub(crate) struct Live {
    sender: broadcast::Sender<LiveEvent>,
    /// Entry → what its judging does now (running entries only).
    progress: Mutex<HashMap<i64, String>>,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            // A slow page misses old statuses, never the stream: it is told
            // to reload (`Lagged`).
            sender: broadcast::channel(1024).0,
            progress: Mutex::new(HashMap::new()),
        }
    }
}

impl Live {
    /// Publishes a status; a verdict ends the entry's progress.
    pub(crate) fn publish(&self, event: LiveEvent) {
        {
            let mut progress = self.progress.lock().unwrap_or_else(|e| e.into_inner());
            if event.verdict.is_some() {
                progress.remove(&event.entry);
            } else {
                progress.insert(event.entry, event.status.clone());
            }
        }
        // No page listening is not an error.
        let _ = self.sender.send(event);
    }

    /// What a running entry's judging does now.
    pub(crate) fn progress(&self, entry: i64) -> Option<String> {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&entry)
            .cloned()
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.sender.subscribe()
    }
}

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
