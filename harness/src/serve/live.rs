//! Live status: what each judging is doing now ("compiling", "test 7 of
//! 24", the verdict), told to the pages through Server-Sent Events. The
//! judge threads publish; every open `/events` stream subscribes and sees
//! only what its viewer may: their own submissions (the jury: all), and a
//! "scoreboard changed" nudge (none for a result hidden by the freeze).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use serde::Serialize;
use tokio::sync::broadcast;

use crate::store::clarifications::Clarification;

/// The status of an entry waiting to be judged.
pub(crate) const QUEUED: &str = "queued";

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
    /// Clarifications as they are sent (each stream tells its viewer of
    /// those that reach them).
    clarifications: broadcast::Sender<Clarification>,
    /// Entry → what its judging does now (running entries only).
    progress: Mutex<HashMap<i64, String>>,
    /// Counts the changes a scoreboard shows (an entry queued, a
    /// verdict): a board computed at an older count is stale.
    board_changes: AtomicU64,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            // A slow page misses old statuses, never the stream: it is told
            // to reload (`Lagged`).
            sender: broadcast::channel(1024).0,
            clarifications: broadcast::channel(256).0,
            progress: Mutex::new(HashMap::new()),
            board_changes: AtomicU64::new(0),
        }
    }
}

impl Live {
    /// Publishes a status; a verdict ends the entry's progress.
    pub(crate) fn publish(&self, event: LiveEvent) {
        if event.verdict.is_some() || event.status == QUEUED {
            self.board_changes.fetch_add(1, Ordering::SeqCst);
        }
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

    /// How many changes the scoreboards have seen.
    pub(crate) fn board_changes(&self) -> u64 {
        self.board_changes.load(Ordering::SeqCst)
    }

    /// Tells the open pages of a clarification just sent.
    pub(crate) fn clarification(&self, clarification: Clarification) {
        // No page listening is not an error.
        let _ = self.clarifications.send(clarification);
    }

    pub(crate) fn subscribe_clarifications(&self) -> broadcast::Receiver<Clarification> {
        self.clarifications.subscribe()
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.sender.subscribe()
    }
}
