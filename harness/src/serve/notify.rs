//! Live updates across servers: several `judge serve` processes may share
//! one PostgreSQL store, each judging what was submitted to it. A verdict
//! recorded by one is announced with `NOTIFY` (`store::entries::announce`);
//! every server `LISTEN`s and tells its own open pages, as its own judge
//! threads would. On SQLite (one server) there is nothing to announce.

use std::sync::Arc;
use std::time::Duration;

use super::live::{Live, LiveEvent};
use crate::sandbox::Sandbox;
use crate::store::engine::{Db, Sql};
use crate::store::entries::{self, VERDICTS_CHANNEL, origin};
use crate::store::{Location, Store};

/// Follows the other servers' verdicts on a thread of its own until the
/// server stops; nothing on SQLite.
pub(crate) fn follow(
    location: &Location,
    session: i64,
    live: Arc<Live>,
    sandbox: Sandbox,
) -> Option<std::thread::JoinHandle<()>> {
    if !location.is_postgres() {
        return None;
    }
    let location = location.clone();
    std::thread::Builder::new()
        .name("verdicts".into())
        .spawn(move || {
            if let Err(error) = listen(&location, session, &live, &sandbox) {
                eprintln!("judge serve: the other servers' verdicts: {error}");
            }
        })
        .ok()
}

fn listen(
    location: &Location,
    session: i64,
    live: &Live,
    sandbox: &Sandbox,
) -> Result<(), crate::errors::Error> {
    let mut store = Store::open_at(location)?;
    let db = store.db();
    db.batch(&format!("LISTEN {VERDICTS_CHANNEL}"))
        .map_err(|e| crate::errors::Error::Usage(e.to_string()))?;
    while !sandbox.is_cancelled() {
        let Db::Postgres(pg) = &mut *db else {
            return Ok(());
        };
        let heard = pg
            .notifications(Duration::from_millis(500))
            .map_err(|e| crate::errors::Error::Usage(e.to_string()))?;
        for (_, payload) in heard {
            let mut parts = payload.split(':');
            let (Some(Ok(from)), Some(Ok(entry)), Some(origin_of)) = (
                parts.next().map(str::parse::<i64>),
                parts.next().map(str::parse::<i64>),
                parts.next(),
            ) else {
                continue;
            };
            if from != session || origin_of == origin() {
                continue;
            }
            let Ok(Some(entry)) = entries::entry(db, session, entry) else {
                continue;
            };
            let Some(verdict) = entry.verdict else {
                continue;
            };
            live.publish(LiveEvent {
                entry: entry.id,
                account: entry.account,
                submitted_at: entry.submitted_at,
                problem: entry.problem,
                status: verdict.short().into(),
                verdict: Some(verdict.short().into()),
            });
        }
    }
    Ok(())
}
