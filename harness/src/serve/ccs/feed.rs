//! The event feed: for each version and audience a log of every change
//! to every object that audience sees, as NDJSON lines with a token each.
//! A log is brought up to date by diffing the audience's view (`view.rs`)
//! against the objects it last sent: new and changed objects in the
//! order of `Kind` (what is referred to first), then deletes in reverse.
//! So the feed's last event for an object is what its REST endpoint says.
//!
//! Logs are kept for the server's life, so any token it gave stays good
//! (the spec asks for 15 minutes at least); a token carries the server's
//! instance, so one from an earlier run is refused (400) rather than
//! misread. A connection gets the log from its token on, then each new
//! event as it is logged, a newline when nothing happened for
//! `KEEP_ALIVE`, and its end when the server shuts down.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Notify, broadcast, mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;

use super::access::{Audience, Kind};
use super::versions::Version;
use super::view::{Data, View};
use crate::serve::app::App;
use crate::serve::session::Schedule;
use crate::store::DbError;

/// The spec: a newline at least every 120 s when no event came.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(60);
/// Changes close together are logged together.
const SETTLE: Duration = Duration::from_millis(200);
/// How often the logs are brought up to date when nothing said so (a
/// `judge users import` from another process, for one).
const FALLBACK: Duration = Duration::from_secs(10);

/// One logged event.
#[derive(Debug, Clone)]
pub(crate) struct Logged {
    pub(crate) token: u64,
    pub(crate) kind: Kind,
    /// The NDJSON line, without its newline.
    pub(crate) line: Arc<str>,
}

/// The line's shape.
#[derive(Serialize)]
struct Line<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: Option<&'a str>,
    data: Option<&'a Value>,
    token: String,
}

#[derive(Default)]
struct LogState {
    events: Vec<Logged>,
    /// What was last sent of each object.
    current: HashMap<(Kind, Option<String>), Value>,
}

/// One audience's log in one version.
pub(crate) struct Log {
    state: Mutex<LogState>,
    /// The last token logged.
    grew: watch::Sender<u64>,
}

/// Every log, and what brings them up to date.
pub(crate) struct Feeds {
    /// This server's instance, in every token.
    instance: String,
    next: AtomicU64,
    logs: Mutex<HashMap<(Version, Audience), Arc<Log>>>,
    nudge: Notify,
    /// Held while the store is read and the logs updated, so that an
    /// older reading is never logged after a newer one.
    updating: Mutex<()>,
    refresher: AtomicBool,
}

impl Default for Feeds {
    fn default() -> Feeds {
        Feeds {
            instance: format!("{:08x}", rand::random::<u32>()),
            next: AtomicU64::new(1),
            logs: Mutex::new(HashMap::new()),
            nudge: Notify::new(),
            updating: Mutex::new(()),
            refresher: AtomicBool::new(false),
        }
    }
}

impl Feeds {
    /// A token as the client sees it.
    pub(crate) fn token(&self, n: u64) -> String {
        format!("{}-{n}", self.instance)
    }

    /// The number in a token of this instance.
    fn token_number(&self, token: &str) -> Option<u64> {
        let (instance, n) = token.rsplit_once('-')?;
        (instance == self.instance)
            .then(|| n.parse().ok())
            .flatten()
    }

    /// Something changed (a clarification was sent): bring the logs up to date.
    pub(crate) fn nudge(&self) {
        self.nudge.notify_one();
    }

    /// The log of `audience` in `version`, up to date.
    pub(crate) fn log(
        self: &Arc<Self>,
        app: &Arc<App>,
        version: Version,
        audience: Audience,
    ) -> Result<Arc<Log>, DbError> {
        let log = self
            .logs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((version, audience))
            .or_insert_with(|| {
                Arc::new(Log {
                    state: Mutex::new(LogState::default()),
                    grew: watch::channel(0).0,
                })
            })
            .clone();
        {
            let _updating = self.updating.lock().unwrap_or_else(|e| e.into_inner());
            let data = Data::read(app)?;
            self.update(app, &data, version, audience, &log);
        }
        self.start_refresher(app);
        Ok(log)
    }

    /// Brings one log up to date with `data`.
    fn update(&self, app: &App, data: &Data, version: Version, audience: Audience, log: &Log) {
        let view = View::new(app, data, audience, version, SystemTime::now());
        let mut fresh: Vec<(Kind, Option<String>, Value)> = Vec::new();
        for kind in Kind::ALL.into_iter().filter(|k| audience.offered(*k)) {
            for (id, value) in view.objects(kind) {
                fresh.push((kind, id, value));
            }
        }
        let mut state = log.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut last = None;
        for (kind, id, value) in &fresh {
            let key = (*kind, id.clone());
            if state.current.get(&key) == Some(value) {
                continue;
            }
            last = Some(self.append(&mut state, *kind, id.as_deref(), Some(value)));
            state.current.insert(key, value.clone());
        }
        let mut gone: Vec<(Kind, Option<String>)> = state
            .current
            .keys()
            .filter(|(kind, id)| !fresh.iter().any(|(k, i, _)| k == kind && i == id))
            .cloned()
            .collect();
        gone.sort_by(|a, b| b.cmp(a));
        for (kind, id) in gone {
            last = Some(self.append(&mut state, kind, id.as_deref(), None));
            state.current.remove(&(kind, id));
        }
        drop(state);
        if let Some(token) = last {
            log.grew.send_replace(token);
        }
    }

    /// Every line of a fresh log of `audience` (the contest package's
    /// `event-feed.ndjson`).
    pub(crate) fn lines(
        &self,
        app: &App,
        data: &Data,
        version: Version,
        audience: Audience,
    ) -> Vec<Arc<str>> {
        let log = Log {
            state: Mutex::new(LogState::default()),
            grew: watch::channel(0).0,
        };
        self.update(app, data, version, audience, &log);
        let state = log.state.lock().unwrap_or_else(|e| e.into_inner());
        state.events.iter().map(|e| e.line.clone()).collect()
    }

    fn append(
        &self,
        state: &mut LogState,
        kind: Kind,
        id: Option<&str>,
        data: Option<&Value>,
    ) -> u64 {
        let token = self.next.fetch_add(1, Ordering::SeqCst);
        let line = Line {
            kind: kind.name(),
            id,
            data,
            token: self.token(token),
        };
        let text = serde_json::to_string(&line).unwrap_or_default();
        state.events.push(Logged {
            token,
            kind,
            line: text.into(),
        });
        token
    }

    /// Once: a task that brings every log up to date when a submission's
    /// status changes, when nudged, at the contest's start, freeze and end,
    /// and every `FALLBACK` anyway; it ends with the server.
    fn start_refresher(self: &Arc<Self>, app: &Arc<App>) {
        if self.refresher.swap(true, Ordering::SeqCst) {
            return;
        }
        let (feeds, app) = (self.clone(), app.clone());
        let mut live = app.live.subscribe();
        let mut shutdown = app.shutdown.subscribe();
        tokio::spawn(async move {
            loop {
                let wait = next_moment(&app.session.schedule(), SystemTime::now()).min(FALLBACK);
                tokio::select! {
                    received = live.recv() => {
                        if matches!(received, Err(broadcast::error::RecvError::Closed)) {
                            return;
                        }
                    }
                    () = feeds.nudge.notified() => {}
                    () = tokio::time::sleep(wait) => {}
                    _ = shutdown.changed() => return,
                }
                tokio::time::sleep(SETTLE).await;
                feeds.update_all(&app);
            }
        });
    }

    fn update_all(&self, app: &App) {
        let _updating = self.updating.lock().unwrap_or_else(|e| e.into_inner());
        let Ok(data) = Data::read(app) else {
            return;
        };
        let logs: Vec<((Version, Audience), Arc<Log>)> = self
            .logs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(key, log)| (*key, log.clone()))
            .collect();
        for ((version, audience), log) in logs {
            self.update(app, &data, version, audience, &log);
        }
    }

    /// Where a connection starts: after `since` (a token this instance
    /// gave in this log), or at the beginning. `None`: the token is not
    /// one of the log's.
    pub(crate) fn start_after(&self, log: &Log, since: Option<&str>) -> Option<usize> {
        let Some(token) = since else {
            return Some(0);
        };
        let n = self.token_number(token)?;
        let state = log.state.lock().unwrap_or_else(|e| e.into_inner());
        let at = state.events.binary_search_by_key(&n, |e| e.token).ok()?;
        Some(at + 1)
    }

    /// The feed from event `from` on, of the `kinds` asked for (all when
    /// empty): what is logged now, and with `follow` each event logged
    /// later, with keep-alive newlines every `keep_alive`, until
    /// `shutdown` (the server's) says stop.
    pub(crate) fn stream(
        log: Arc<Log>,
        from: usize,
        kinds: Vec<Kind>,
        follow: bool,
        (keep_alive, mut shutdown): (Duration, watch::Receiver<bool>),
    ) -> ReceiverStream<Result<Bytes, Infallible>> {
        let (sender, receiver) = mpsc::channel(64);
        let mut grew = log.grew.subscribe();
        tokio::spawn(async move {
            let mut next = from;
            loop {
                grew.borrow_and_update();
                let lines: Vec<Arc<str>> = {
                    let state = log.state.lock().unwrap_or_else(|e| e.into_inner());
                    let lines = state.events[next.min(state.events.len())..]
                        .iter()
                        .filter(|e| kinds.is_empty() || kinds.contains(&e.kind))
                        .map(|e| e.line.clone())
                        .collect();
                    next = state.events.len();
                    lines
                };
                for line in lines {
                    let bytes = Bytes::from(format!("{line}\n"));
                    if sender.send(Ok(bytes)).await.is_err() {
                        return;
                    }
                }
                if !follow || *shutdown.borrow() {
                    return;
                }
                tokio::select! {
                    changed = grew.changed() => if changed.is_err() { return },
                    _ = shutdown.changed() => return,
                    () = tokio::time::sleep(keep_alive) => {
                        if sender.send(Ok(Bytes::from_static(b"\n"))).await.is_err() {
                            return;
                        }
                    }
                }
            }
        });
        ReceiverStream::new(receiver)
    }
}

/// How long until the contest's next start, freeze or end (long if none).
fn next_moment(schedule: &Schedule, now: SystemTime) -> Duration {
    let moments = match *schedule {
        Schedule::OpenEnded => Vec::new(),
        Schedule::Timed { start, end, freeze } => [Some(start), freeze, Some(end)]
            .into_iter()
            .flatten()
            .collect(),
    };
    moments
        .into_iter()
        .filter_map(|at| at.duration_since(now).ok())
        .min()
        .map_or(FALLBACK, |d| d + Duration::from_millis(10))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_stream::StreamExt;

    /// The next chunk that is not a keep-alive newline.
    async fn next_event(stream: &mut ReceiverStream<Result<Bytes, Infallible>>) -> Option<String> {
        loop {
            let chunk = tokio::time::timeout(Duration::from_secs(5), stream.next())
                .await
                .expect("the feed said nothing")?;
            let text = String::from_utf8(chunk.unwrap().to_vec()).unwrap();
            if text != "\n" {
                return Some(text);
            }
        }
    }

    #[tokio::test]
    async fn an_idle_feed_keeps_alive_sends_what_is_logged_and_ends_at_shutdown() {
        let feeds = Feeds::default();
        let log = Arc::new(Log {
            state: Mutex::new(LogState::default()),
            grew: watch::channel(0).0,
        });
        let stop = watch::channel(false).0;
        let keep_alive = (Duration::from_millis(20), stop.subscribe());
        let mut stream = Feeds::stream(log.clone(), 0, Vec::new(), true, keep_alive);
        let first = tokio::time::timeout(Duration::from_secs(5), stream.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(&first[..], b"\n");
        let team = serde_json::json!({"id": "1", "name": "Alice"});
        let token = {
            let mut state = log.state.lock().unwrap();
            feeds.append(&mut state, Kind::Teams, Some("1"), Some(&team))
        };
        log.grew.send_replace(token);
        let line = next_event(&mut stream).await.unwrap();
        let event: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(event["type"], "teams");
        assert_eq!(event["data"], team);
        assert_eq!(event["token"], feeds.token(token));
        assert_eq!(feeds.start_after(&log, Some(&feeds.token(token))), Some(1));
        assert_eq!(feeds.start_after(&log, Some("00000000-1")), None);
        stop.send_replace(true);
        assert_eq!(next_event(&mut stream).await, None);
    }
}
