//! `judge worker --db URL`: takes judging jobs from the store's queue
//! (`store/queue.rs`) and records their results, on as many machines as
//! there are workers. Each judging thread has a connection of its own; a
//! heartbeat thread keeps the leases of the jobs held alive. A job is
//! judged only with the package its hash names, from this worker's own
//! checkout: a job whose hash matches none of its packages is never taken.
//!
//! SIGTERM (or Ctrl-C) stops it gracefully: the running submissions are
//! cut short and their jobs handed back to the queue at once.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::compile::{Builder, Builds};
use crate::errors::{Error, Result};
use crate::judging::{self, Outcome, ServedProblem, Stored};
use crate::lang::Languages;
use crate::owner::Owner;
use crate::runner::{Place, RunPlan};
use crate::sandbox::{Boxes, Sandbox};
use crate::store::queue::{self, Claimed, Finished, WorkerInfo};
use crate::store::{self, JudgedBy, Location, ResultCache, Store, SubmissionRecord};

/// How long a worker waits before asking an empty queue again: on
/// SQLite; on PostgreSQL a new job's `NOTIFY` wakes it sooner.
const IDLE_POLL: Duration = Duration::from_millis(200);
/// The longest an idle worker on PostgreSQL waits for a `NOTIFY` before
/// asking the queue again (a lease that passed announces nothing).
const IDLE_LISTEN: Duration = Duration::from_secs(1);

/// What `judge worker` was asked.
pub(crate) struct WorkerOptions {
    /// The problems judged (empty: all).
    pub(crate) ids: Vec<String>,
    pub(crate) db: PathBuf,
    pub(crate) name: Option<String>,
    /// How long a claim lasts without a heartbeat.
    pub(crate) lease: Duration,
}

/// What judging a claimed job takes: the worker's problems by package
/// hash and what it says of itself. It holds no box: each judging thread
/// brings its own (`judge_job`), so a test judges a job on a fake one.
pub(crate) struct Judging {
    pub(crate) name: String,
    problems: Vec<ServedProblem>,
    /// Package hash → index in `problems`.
    by_hash: HashMap<String, usize>,
    languages: Languages,
    isolation: String,
    scratch: PathBuf,
}

impl Judging {
    /// The worker called `name` judging `problems` (prepared: built, time
    /// limits settled), each with its package's hash, with the language
    /// table `languages`, in boxes whose isolation `isolation` says.
    pub(crate) fn new(
        name: String,
        problems: Vec<(ServedProblem, String)>,
        languages: Languages,
        isolation: String,
        scratch: PathBuf,
    ) -> Judging {
        let mut by_hash = HashMap::new();
        let mut served = Vec::new();
        for (i, (problem, hash)) in problems.into_iter().enumerate() {
            by_hash.insert(hash, i);
            served.push(problem);
        }
        Judging {
            name,
            problems: served,
            by_hash,
            languages,
            isolation,
            scratch,
        }
    }

    /// The package hashes of its problems: the jobs it may claim.
    pub(crate) fn hashes(&self) -> Vec<String> {
        self.by_hash.keys().cloned().collect()
    }
}

/// What every judging thread of the worker shares.
struct Shared {
    judging: Judging,
    location: Location,
    root: PathBuf,
    sandbox: Sandbox,
    lease_ms: i64,
    /// The claims this worker holds: (job id, fence).
    held: Mutex<Vec<(i64, i64)>>,
}

/// What a worker runs on, from the verb: the root (its packages), the
/// sandbox, how many judging threads.
pub(crate) struct Host {
    pub(crate) root: PathBuf,
    pub(crate) sandbox: Sandbox,
    pub(crate) threads: usize,
}

/// The worker's name: `--name`, or the machine's and the process's.
pub(crate) fn name(options: &WorkerOptions) -> String {
    options
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-{}", crate::store::machine(), std::process::id()))
}

/// `judge worker`: registers `judging` in the store and judges its jobs
/// on `host.threads` threads until Ctrl-C or SIGTERM.
pub(crate) fn run(
    host: Host,
    judging: Judging,
    options: &WorkerOptions,
    out: &mut dyn Write,
) -> Result<u8> {
    let location = Location::of(&options.db);
    let mut store = Store::open_at(&location)?;
    let name = judging.name.clone();
    let info = WorkerInfo {
        name: name.clone(),
        machine: crate::store::machine(),
        judge_version: store::judge_version().to_string(),
        isolation: judging.isolation.clone(),
        threads: host.threads,
    };
    queue::register(store.db(), &info).map_err(|e| store.fail(e))?;
    let _ = writeln!(
        out,
        "judge worker {name}: {} threads, {} problems, store {location}",
        host.threads,
        judging.problems.len(),
    );
    let shared = Arc::new(Shared {
        judging,
        location,
        root: host.root,
        sandbox: host.sandbox,
        lease_ms: i64::try_from(options.lease.as_millis()).unwrap_or(i64::MAX),
        held: Mutex::new(Vec::new()),
    });
    let _ = out.flush();
    let threads: Vec<_> = (0..host.threads.max(1))
        .map(|n| {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("worker-{n}"))
                .spawn(move || judge_loop(&shared, n))
                .expect("a judging thread starts")
        })
        .collect();
    heartbeat_loop(&shared, &mut store, options.lease / 3);
    for thread in threads {
        let _ = thread.join();
    }
    queue::stopped(store.db(), &name).map_err(|e| store.fail(e))?;
    let _ = writeln!(out, "judge worker {name}: stopped");
    Ok(crate::exit_codes::INTERRUPTED)
}

/// Renews the leases every `every` until the worker stops.
fn heartbeat_loop(shared: &Shared, store: &mut Store, every: Duration) {
    let every = every.max(Duration::from_millis(100));
    while !shared.sandbox.is_cancelled() {
        let held = shared
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let name = &shared.judging.name;
        if let Err(error) = queue::heartbeat(store.db(), name, &held, shared.lease_ms) {
            eprintln!("worker {name}: heartbeat: {}", store.fail(error));
        }
        sleep_unless_cancelled(&shared.sandbox, every);
    }
}

fn sleep_unless_cancelled(sandbox: &Sandbox, time: Duration) {
    let step = Duration::from_millis(50);
    let mut slept = Duration::ZERO;
    while slept < time && !sandbox.is_cancelled() {
        std::thread::sleep(step);
        slept += step;
    }
}

fn judge_loop(shared: &Shared, n: usize) {
    let name = &shared.judging.name;
    let mut store = match Store::open_at(&shared.location) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("worker {name} thread {n}: {error}");
            return;
        }
    };
    let mut builder = Builder::new(
        &shared.root,
        shared.judging.languages.clone(),
        shared.sandbox.clone(),
    );
    let hashes = shared.judging.hashes();
    let listening = shared.location.is_postgres() && queue::listen(store.db()).is_ok();
    while !shared.sandbox.is_cancelled() {
        let job = match queue::claim(store.db(), name, &hashes, shared.lease_ms) {
            Ok(Some(job)) => job,
            Ok(None) if listening => {
                if let Err(error) = queue::wait_for_jobs(store.db(), IDLE_LISTEN) {
                    eprintln!("worker {name} thread {n}: {}", store.fail(error));
                    sleep_unless_cancelled(&shared.sandbox, IDLE_POLL * 5);
                }
                continue;
            }
            Ok(None) => {
                sleep_unless_cancelled(&shared.sandbox, IDLE_POLL);
                continue;
            }
            Err(error) => {
                eprintln!("worker {name} thread {n}: {}", store.fail(error));
                sleep_unless_cancelled(&shared.sandbox, IDLE_POLL * 5);
                continue;
            }
        };
        hold(shared, &job, true);
        let judged = judge_job(
            &shared.judging,
            &mut store,
            &mut builder,
            &shared.sandbox,
            &job,
        );
        if let Err(error) = judged {
            // Left running: once its lease passes another worker takes it.
            eprintln!("worker {name} thread {n}: job {}: {error}", job.id);
        }
        hold(shared, &job, false);
    }
}

/// Adds (or removes) a claim to those the heartbeat renews.
fn hold(shared: &Shared, job: &Claimed, held: bool) {
    let mut claims = shared.held.lock().unwrap_or_else(|e| e.into_inner());
    claims.retain(|claim| *claim != (job.id, job.fence));
    if held {
        claims.push((job.id, job.fence));
    }
}

/// Judges the claimed `job`, built by `builder`, in a box from `boxes`,
/// and records its result (or hands it back when the worker stops).
pub(crate) fn judge_job(
    judging: &Judging,
    store: &mut Store,
    builder: &mut dyn Builds,
    boxes: &dyn Boxes,
    job: &Claimed,
) -> Result<()> {
    let served = judging
        .by_hash
        .get(&job.package_hash)
        .map(|&i| &judging.problems[i])
        .filter(|p| p.spec.id == job.problem)
        .ok_or_else(|| Error::Usage(format!("no package with hash {}", job.package_hash)))?;
    // The queuing machine's settled limits, so that every worker judges
    // alike whatever its own settling said.
    let mut spec = served.spec.clone();
    spec.limits.time = Duration::from_micros(job.time_us.max(0) as u64);
    spec.limits.wall = Duration::from_micros(job.wall_us.max(0) as u64);
    if let Some(entry) = job.entry {
        // A `judge serve` submission: its page says it is being judged.
        crate::store::entries::started(store.db(), entry).map_err(|e| store.fail(e))?;
    }
    let folder = judging
        .scratch
        .join(format!("job-{}-{}", job.id, job.fence));
    let submission = Stored {
        owner: Owner::Submission { id: job.id },
        name: job.path.clone(),
        language: &job.language,
        file_name: &job.file_name,
        source: &job.source,
    };
    let plan = judging::plan(served, &spec, &submission, builder, &folder, job.fail_fast).map_err(
        |source| Error::Report {
            what: format!("write {}", folder.display()),
            source,
        },
    )?;
    let cache = ResultCache::prepare(store, &plan, &judging.isolation, false)?;
    let outcome = judging::run(
        &plan,
        Some(&cache),
        Place::Pool(boxes),
        None,
        &folder,
        || boxes.is_cancelled(),
    );
    let _ = std::fs::remove_dir_all(&folder);
    let report = match outcome {
        Outcome::Judged(report) => report,
        // Stopping, or out of descriptors: not a result; the job goes back
        // to the queue.
        Outcome::Stopped | Outcome::OutOfDescriptors => {
            queue::hand_back(store.db(), job).map_err(|e| store.fail(e))?;
            return Ok(());
        }
    };
    let judged_by = JudgedBy {
        worker: judging.name.clone(),
        isolation: judging.isolation.clone(),
        judge_version: store::judge_version().to_string(),
    };
    let finished = match job.entry {
        Some(entry) => crate::store::entries::record_remote(
            store.db(),
            &judging.name,
            job,
            entry,
            &report,
            judged_by,
        )
        .map_err(|e| store.fail(e))?,
        None => finish_file(store, judging, job, &cache, &plan, &report, judged_by)?,
    };
    if finished == Finished::Refused {
        eprintln!(
            "worker {}: the result of job {} was refused: its lease passed and it was \
             claimed again (claim {} is stale)",
            judging.name, job.id, job.fence
        );
    }
    Ok(())
}

/// Records a class's file judged by `job`.
fn finish_file(
    store: &mut Store,
    judging: &Judging,
    job: &Claimed,
    cache: &ResultCache,
    plan: &RunPlan,
    report: &crate::runner::TaskReport,
    judged_by: JudgedBy,
) -> Result<Finished> {
    let record = SubmissionRecord {
        student: job.student.clone(),
        problem: job.problem.clone(),
        path: Some(job.path.clone()),
        content_hash: Some(blake3::hash(&job.source).to_hex().to_string()),
        language: Some(job.language.clone()),
        build_hash: cache.build_hash(0),
        tests: cache.recorded(0, &plan.tasks[0], report),
        report: Some(report),
        judged_by: Some(judged_by),
        handin: None,
    };
    queue::finish(store.db(), &judging.name, job, &record).map_err(|e| store.fail(e))
}
