//! `judge grade --class --queue` and `judge worker`: the class goes on
//! the store's queue, a worker's judging thread (here a plain thread on
//! the same fake box, through the worker's own `judge_job`) judges each
//! job, and the queuing verb prints the gradebook; `judge workers` lists
//! the worker.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::class::{args, by_language, class};
use super::{Bench, assert_shows, row};
use crate::cli::{ClassArgs, ReportArgs, StoreArgs};
use crate::commands::class::grade_class;
use crate::commands::fake::FakeBox;
use crate::commands::queued::workers;
use crate::compile::fake::FakeBuilder;
use crate::exit_codes;
use crate::store::queue::{self, WorkerInfo};
use crate::store::{Location, Store};
use crate::worker::{Judging, judge_job};

/// How long the worker's thread judges at most.
const PATIENCE: Duration = Duration::from_secs(20);

/// Cancels the box when dropped before the class was judged (the worker
/// thread gave up or panicked), so that the queuing verb stops waiting.
struct CancelUnlessDone {
    boxes: Arc<FakeBox>,
    done: bool,
}

impl Drop for CancelUnlessDone {
    fn drop(&mut self) {
        if !self.done {
            self.boxes.cancelled.store(true, Ordering::SeqCst);
        }
    }
}

/// A worker's judging thread: registers as `judging.name`, then claims
/// and judges jobs until every job of their run is done (at most for
/// `PATIENCE`), and says it holds no claim. Returns whether it saw them
/// done.
fn worker_thread(
    judging: Judging,
    db: PathBuf,
    boxes: Arc<FakeBox>,
) -> std::thread::JoinHandle<bool> {
    std::thread::spawn(move || {
        let mut guard = CancelUnlessDone {
            boxes: boxes.clone(),
            done: false,
        };
        let mut store = Store::open_at(&Location::of(&db)).unwrap();
        let info = WorkerInfo {
            name: judging.name.clone(),
            machine: "test".into(),
            judge_version: "test".into(),
            isolation: "a fake box".into(),
            threads: 1,
        };
        queue::register(store.db(), &info).unwrap();
        let mut builder = FakeBuilder::new(boxes.clone());
        builder.compile_errors = vec!["double.cpp".into()];
        let hashes = judging.hashes();
        let started = Instant::now();
        while !guard.done && started.elapsed() < PATIENCE {
            match queue::claim(store.db(), &judging.name, &hashes, 60_000).unwrap() {
                Some(job) => {
                    judge_job(&judging, &mut store, &mut builder, &boxes, &job).unwrap();
                    let (done, total) = queue::progress(store.db(), job.run).unwrap();
                    guard.done = done == total;
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        // As the worker's heartbeat says: it holds no claim now.
        queue::heartbeat(store.db(), &judging.name, &[], 60_000).unwrap();
        guard.done
    })
}

fn store_at(db: &Path) -> StoreArgs {
    StoreArgs {
        db: Some(db.to_path_buf()),
        fresh: false,
    }
}

#[test]
fn a_queued_class_is_judged_by_a_workers_jobs() {
    let mut bench = Bench::new(class, by_language).compile_errors(&["double.cpp"]);
    let db = bench.root.path().join("queue.db");
    let judging = crate::commands::working::judging(&mut bench.ctx, &[], &db, "w1".into()).unwrap();
    let worker = worker_thread(judging, db.clone(), bench.boxes.clone());

    let queued = ClassArgs {
        queue: true,
        ..args(&bench)
    };
    let none = ReportArgs::default();
    let code = grade_class(&mut bench.ctx, &queued, &[], false, &none, &store_at(&db));
    let all_done = worker.join().unwrap();
    let text = bench.text();
    assert!(all_done, "{text}");
    assert_eq!(code.unwrap(), exit_codes::OK, "{text}");
    assert_shows(&text, "queued 3 submissions as run 1 in ");
    assert_eq!(row(&text, "ada"), ["ada", "AC", "1"]);
    assert_eq!(row(&text, "bob"), ["bob", "WA", "0"]);
    assert_eq!(row(&text, "cat"), ["cat", "CE", "0"]);
    assert_eq!(row(&text, "dan"), ["dan", "-", "0"]);
    assert_shows(
        &text,
        "graded 3 submissions by the workers; stored as run 1",
    );
    assert_eq!(bench.boxes.runs(), 6, "ada's and bob's tests");

    let before = text.len();
    assert_eq!(workers(&mut bench.ctx, &db).unwrap(), exit_codes::OK);
    let listed = bench.text()[before..].to_string();
    assert_eq!(row(&listed, "w1")[..5], ["w1", "running", "1", "0", "3"]);
}

#[test]
fn workers_of_a_store_nobody_joined_is_said() {
    let mut bench = Bench::new(class, by_language);
    let db = bench.root.path().join("queue.db");
    let error = workers(&mut bench.ctx, &db).unwrap_err();
    assert_shows(&error.to_string(), "no result store at");
    Store::open_at(&Location::of(&db)).unwrap();
    assert_eq!(workers(&mut bench.ctx, &db).unwrap(), exit_codes::OK);
    assert_eq!(
        bench.text(),
        format!("no worker has joined {} yet\n", db.display())
    );
}
