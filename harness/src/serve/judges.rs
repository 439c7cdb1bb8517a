//! The server's judging threads: a few long-lived std threads (the judge
//! core stays synchronous, not tokio's) fed by the fair queue, each with
//! a box of its own. Each takes a submission from the store, judges it by
//! the one path of `judging/` with a reporter that turns runner events
//! into live status, and records its result in the store.
//!
//! ```text
//! queue.pop ─► entries::claim ─► judging::plan ─► judging::run
//!      (LiveStatus ─► Live) ─► entries::record (one transaction)
//!      ─► Live (verdict) ─► entries::announce (PostgreSQL: the other
//!      servers' pages)
//! ```

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ServeError;
use super::live::{Live, LiveEvent};
use super::queue::Queue;
use crate::compile::{Builder, Builds};
use crate::judging::{self, Outcome, ServedProblem, Stored};
use crate::lang::Languages;
use crate::owner::Owner;
use crate::report::Reporter;
use crate::runner::{Event, Place};
use crate::sandbox::Sandbox;
use crate::store::Store;
use crate::store::entries;
use crate::store::sessions::SessionIds;
use crate::verdict::Verdict;

/// What every judge thread shares.
pub(crate) struct Bench {
    pub(crate) problems: Arc<Vec<ServedProblem>>,
    pub(crate) root: PathBuf,
    pub(crate) languages: Languages,
    pub(crate) store: PathBuf,
    pub(crate) ids: SessionIds,
    pub(crate) queue: Arc<Queue>,
    pub(crate) live: Arc<Live>,
    /// Source files and run folders live here.
    pub(crate) scratch: PathBuf,
}

/// Starts `threads` judge threads, each with a box of `sandbox`; they end
/// when the queue is closed.
pub(crate) fn start(
    bench: Arc<Bench>,
    sandbox: &Sandbox,
    threads: usize,
) -> Vec<std::thread::JoinHandle<()>> {
    (0..threads.max(1))
        .map(|n| {
            let bench = bench.clone();
            let sandbox = sandbox.clone();
            std::thread::Builder::new()
                .name(format!("judge-{n}"))
                .spawn(move || judge_loop(&bench, sandbox, n))
                .expect("a judge thread starts")
        })
        .collect()
}

fn judge_loop(bench: &Bench, sandbox: Sandbox, n: usize) {
    let mut store = match entries::open_for_judging(&bench.store) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("judge thread {n}: {error}");
            return;
        }
    };
    let mut builder = Builder::new(&bench.root, bench.languages.clone(), sandbox);
    let folder = bench.scratch.join(format!("judge-{n}"));
    while let Some(entry) = bench.queue.pop() {
        match judge_entry(bench, &mut store, &mut builder, &folder, entry) {
            Ok(Judged::Recorded) => {}
            Ok(Judged::Retry { account }) => {
                // Out of descriptors (a flood of connections, say): the
                // entry is queued again and judged once some are free.
                eprintln!(
                    "judge thread {n}: submission {entry}: no file descriptors left; \
                     judged again in {} s",
                    RETRY_AFTER.as_secs()
                );
                std::thread::sleep(RETRY_AFTER);
                bench.queue.push(entry, account);
            }
            // The entry stays `running` in the store: the next start
            // judges it again.
            Err(error) => eprintln!("judge thread {n}: submission {entry}: {error}"),
        }
    }
}

/// How long a judging that found no descriptors left waits to try again.
const RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

/// What became of a judging.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Judged {
    /// Recorded (or not this thread's to judge, or stopped by SIGTERM).
    Recorded,
    /// The judge ran out of file descriptors: nothing is recorded, the
    /// entry is queued again in the store; push it back for `account`.
    Retry { account: i64 },
}

/// Judges submission `entry` (if it is still queued, or for a review)
/// with `builder`, in the builder's box and the thread's `folder` (kept
/// for all its submissions), and records its verdict; one that ran out of
/// file descriptors is given back to the queue instead.
pub(crate) fn judge_entry(
    bench: &Bench,
    store: &mut Store,
    builder: &mut dyn Builds,
    folder: &Path,
    entry: i64,
) -> Result<Judged, ServeError> {
    if let Some((review, run)) = bench.queue.take_review(entry) {
        return judge_for_review(bench, store, (builder, folder), entry, (review, run));
    }
    let Some(claimed) = entries::claim(store.db(), bench.ids.session, entry)? else {
        return Ok(Judged::Recorded);
    };
    let publish = |status: String, verdict: Option<String>| {
        bench.live.publish(LiveEvent {
            entry: claimed.entry.id,
            account: claimed.entry.account,
            submitted_at: claimed.entry.submitted_at,
            problem: claimed.entry.problem.clone(),
            status,
            verdict,
        });
    };
    publish("compiling".into(), None);
    let report = match judge_claimed(bench, (builder, folder), &claimed, Some(&publish))? {
        Outcome::Judged(report) => report,
        // Stopped by SIGTERM: not a result; judged again after a restart.
        Outcome::Stopped => return Ok(Judged::Recorded),
        Outcome::OutOfDescriptors => {
            entries::unclaim(store.db(), &claimed)?;
            return Ok(Judged::Retry {
                account: claimed.entry.account,
            });
        }
    };
    entries::record(store.db(), bench.ids.run, &claimed, &report)?;
    if let Err(error) = entries::announce(store.db(), bench.ids.session, claimed.entry.id) {
        // The verdict is stored; the other servers' pages show it on reload.
        eprintln!("judge serve: announcing a verdict: {error}");
    }
    publish(
        report.verdict.short().into(),
        Some(report.verdict.short().into()),
    );
    Ok(Judged::Recorded)
}

/// Judges `entry` again for a review: a judging beside the one in force,
/// its report under the review's run; nobody but the jury's review page
/// learns of it.
fn judge_for_review(
    bench: &Bench,
    store: &mut Store,
    judge: (&mut dyn Builds, &Path),
    entry: i64,
    (review, run): (i64, i64),
) -> Result<Judged, ServeError> {
    let claimed = crate::store::reviews::claim(store.db(), bench.ids.session, review, entry)?;
    let Some(claimed) = claimed else {
        return Ok(Judged::Recorded);
    };
    match judge_claimed(bench, judge, &claimed, None)? {
        Outcome::Judged(report) => {
            crate::store::reviews::record(store.db(), run, &claimed, &report)?;
            Ok(Judged::Recorded)
        }
        Outcome::Stopped => Ok(Judged::Recorded),
        Outcome::OutOfDescriptors => {
            // Its judging is forgotten and it is judged for the review later.
            bench
                .queue
                .push_review(entry, claimed.entry.account, review, run);
            Ok(Judged::Recorded)
        }
    }
}

/// Judges a claimed entry in the builder's box, its live status told by
/// `publish` when given.
fn judge_claimed(
    bench: &Bench,
    (builder, own): (&mut dyn Builds, &Path),
    claimed: &entries::Claimed,
    publish: Option<&dyn Fn(String, Option<String>)>,
) -> Result<Outcome, ServeError> {
    let Some(problem) = bench
        .problems
        .iter()
        .find(|p| p.spec.id == claimed.entry.problem)
    else {
        return Err(ServeError::Usage(format!(
            "problem `{}` is not served",
            claimed.entry.problem
        )));
    };
    // The source in a folder of its own, removed after; the run folder
    // kept by the thread.
    let folder = own.join("source");
    let run_folder = own.join("run");
    let submission = Stored {
        owner: Owner::Submission {
            id: claimed.entry.id,
        },
        name: format!("#{} {}", claimed.entry.id, claimed.entry.file_name),
        language: &claimed.entry.language,
        file_name: &claimed.entry.file_name,
        source: &claimed.source,
    };
    let stop_at_first_failure = !problem.is_scored();
    let planned = std::fs::create_dir_all(&run_folder).and_then(|()| {
        judging::plan(
            problem,
            &problem.spec,
            &submission,
            builder,
            &folder,
            stop_at_first_failure,
        )
    });
    let plan = match planned {
        Ok(plan) => plan,
        Err(error) if judging::says_out_of_descriptors(&error.to_string()) => {
            return Ok(Outcome::OutOfDescriptors);
        }
        Err(source) => {
            return Err(ServeError::Io {
                what: format!("write {}", folder.display()),
                source,
            });
        }
    };
    let mut live = publish.map(|publish| LiveStatus {
        total: plan.tasks[0].tests.len(),
        done: 0,
        stop_at_first_failure: plan.stops_at_first_failure(0),
        failed: false,
        publish,
    });
    // The thread's one box judges every submission it takes.
    let worker = builder.worker();
    Ok(judging::run(
        &plan,
        None,
        Place::Here(worker, &run_folder),
        live.as_mut().map(|l| l as &mut dyn Reporter),
        &folder,
        || worker.is_cancelled(),
    ))
}

/// Runner events as live status: "test k of n" as each test starts.
/// Once a test fails on a problem judged to its first failure, no further
/// test is announced: none will run (the tests run one at a time here).
struct LiveStatus<'a> {
    total: usize,
    done: usize,
    stop_at_first_failure: bool,
    failed: bool,
    publish: &'a dyn Fn(String, Option<String>),
}

impl Reporter for LiveStatus<'_> {
    fn report_event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { total_tests } if *total_tests > 0 => {
                (self.publish)(format!("test 1 of {}", self.total), None);
            }
            Event::TestFinished { report, .. } => {
                self.done += 1;
                self.failed |= report.verdict != Verdict::Accepted;
                if self.done < self.total && !(self.stop_at_first_failure && self.failed) {
                    (self.publish)(format!("test {} of {}", self.done + 1, self.total), None);
                }
            }
            _ => {}
        }
        Ok(())
    }
}
