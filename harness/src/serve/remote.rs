//! `judge serve --workers 0`: the server only receives, and `judge
//! worker`s judge its submissions through the store's queue
//! (`store/queue.rs`), so judging scales apart from the web side.
//!
//! ```text
//! submit ─► entries (queued) ─► the server's fair queue ─► dispatch thread
//!      ─► jobs (entry_id, package hash, settled limits) + NOTIFY judge_jobs
//! worker: claim ─► started (entry running) ─► judge ─► record: in the
//!      claim's transaction the entry's judging and submission ─► notify::judged
//!      ─► every server's open pages
//! ```
//!
//! A job is put on the queue at most once per judging: an entry whose job
//! is not done yet (a server restarted meanwhile) is left to that job.

use std::collections::HashMap;
use std::sync::Arc;

use super::judges::Bench;
use crate::store::Store;
use crate::store::engine::{DbError, Sql};
use crate::store::entries::{self, Status};
use crate::store::queue::{self, NewJob};
use crate::store::value::params;

/// Starts the thread that puts the server's submissions on the store's
/// queue, in the fair queue's order; it ends when the queue is closed.
pub(crate) fn dispatch(bench: Arc<Bench>) -> std::io::Result<std::thread::JoinHandle<()>> {
    let mut hashes = HashMap::new();
    for problem in bench.problems.iter() {
        let hash = crate::judging::package::package_hash(&problem.spec.dir)?;
        hashes.insert(problem.spec.id.clone(), hash);
    }
    std::thread::Builder::new()
        .name("dispatch".into())
        .spawn(move || dispatch_loop(&bench, &hashes))
}

fn dispatch_loop(bench: &Bench, hashes: &HashMap<String, String>) {
    let mut store = match entries::open(&bench.store) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("judge serve: the queue's dispatcher: {error}");
            return;
        }
    };
    while let Some(entry) = bench.queue.pop() {
        if bench.queue.take_review(entry).is_some() {
            eprintln!(
                "judge serve: submission {entry}: a review is judged by the server's own \
                 threads (--workers 1 or more), not by the queue's workers"
            );
            continue;
        }
        if let Err(error) = enqueue(bench, &mut store, hashes, entry) {
            // The entry stays queued: the next start puts it on the queue.
            eprintln!("judge serve: queueing submission {entry}: {error}");
        }
    }
}

/// Puts entry `id` on the store's queue, unless a job of it is pending.
fn enqueue(
    bench: &Bench,
    store: &mut Store,
    hashes: &HashMap<String, String>,
    id: i64,
) -> Result<(), DbError> {
    let mut tx = store.db().immediate()?;
    let pending = tx.query_opt(
        "SELECT id FROM jobs WHERE entry_id = ?1 AND state <> 'done'",
        params![id],
    )?;
    let Some(entry) = entries::entry(&mut tx, bench.ids.session, id)? else {
        return Ok(());
    };
    if pending.is_some() || entry.status == Status::Judged {
        return Ok(());
    }
    let (Some(problem), Some(hash)) = (
        bench.problems.iter().find(|p| p.spec.id == entry.problem),
        hashes.get(&entry.problem),
    ) else {
        eprintln!(
            "judge serve: submission {id}: problem `{}` is not served",
            entry.problem
        );
        return Ok(());
    };
    let source = entries::source(&mut tx, id)?;
    // The participant's how-manieth submission still waiting: every
    // participant's first goes before anyone's second, as on one server.
    let turn: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM jobs j JOIN entries e ON e.id = j.entry_id \
             WHERE e.account_id = ?1 AND j.state <> 'done'",
            params![entry.account],
        )?
        .get(0)?;
    let path = format!("#{} {}", entry.id, entry.file_name);
    queue::enqueue(
        &mut tx,
        &NewJob {
            run: bench.ids.run,
            problem: &entry.problem,
            package_hash: hash,
            time_us: problem.spec.limits.time.as_micros() as u64,
            wall_us: problem.spec.limits.wall.as_micros() as u64,
            student: Some(&entry.username),
            path: &path,
            file_name: &entry.file_name,
            language: &entry.language,
            source: &source,
            fail_fast: !problem.is_scored(),
            turn: turn.max(0) as usize,
            entry: Some(id),
        },
    )?;
    queue::announce(&mut tx)?;
    tx.commit()
}
