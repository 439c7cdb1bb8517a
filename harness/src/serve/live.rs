//! Live status: what each judging is doing now ("compiling", "test 7 of
//! 24", the verdict), told to the pages through Server-Sent Events. The
//! judge threads publish; every open `/events` stream subscribes and sees
//! only what its viewer may: their own submissions (the jury: all), and a
//! "scoreboard changed" nudge (none for a result hidden by the freeze).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::SystemTime;

use serde::Serialize;
use tokio::sync::broadcast;

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
