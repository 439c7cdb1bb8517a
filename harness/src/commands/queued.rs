//! `judge grade --class DIR --db URL --queue`: the class goes on the
//! store's judging queue instead of being judged here; `judge worker`s on
//! any number of machines judge it, this command waits for them and then
//! prints the gradebook, as `grade --class` does. And `judge workers`,
//! the list of workers with their load and last heartbeat.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, SystemTime};

use super::Context;
use super::class::{GradebookOutput, io};
use crate::class::Roster;
use crate::errors::{Error, Result};
use crate::judging::package::package_hash;
use crate::report::gradebook::Handin;
use crate::spec::ProblemSpec;
use crate::store::queue::{self, NewJob};
use crate::store::write::{self, RunMeta, SubmissionRecord};
use crate::store::{self, Location, Store};
use crate::verdict::Verdict;

/// How often the queue is asked how far the workers are.
const POLL: Duration = Duration::from_millis(250);

/// What `grade --class --queue` grades.
pub(super) struct QueuedClass<'a> {
    pub(super) problems: &'a [ProblemSpec],
    pub(super) roster: Roster,
    pub(super) source: String,
    pub(super) fail_fast: bool,
    /// `--deadline`, `--late` and the grading policy, as the run keeps them.
    pub(super) deadline: Option<String>,
    pub(super) late_rule: Option<String>,
    pub(super) policy: Option<String>,
    /// When each (student, problem) was handed in, against the deadline.
    pub(super) handins: BTreeMap<(String, String), Handin>,
}

pub(super) fn grade_queued(
    ctx: &mut Context,
    class: QueuedClass<'_>,
    location: &Location,
    output: GradebookOutput<'_>,
) -> Result<u8> {
    let mut store = Store::open_at(location)?;
    let (run, total) = enqueue_class(ctx, &mut store, &class)?;
    writeln!(
        ctx.out,
        "queued {total} submissions as run {run} in {location}; waiting for `judge worker`s"
    )
    .map_err(io("the output"))?;
    let _ = ctx.out.flush();
    let mut shown = usize::MAX;
    loop {
        let (done, total) = queue::progress(store.db(), run).map_err(|e| store.fail(e))?;
        if done != shown {
            eprintln!("judged {done} of {total}");
            shown = done;
        }
        if done == total {
            break;
        }
        if ctx.boxes.is_cancelled() {
            writeln!(
                ctx.out,
                "{} {done} of {total} judged; the rest stay queued for the workers (run {run})",
                ctx.styles.bad("interrupted:")
            )
            .map_err(io("the output"))?;
            return Ok(crate::exit_codes::INTERRUPTED);
        }
        std::thread::sleep(POLL);
    }
    close_class(&mut store, run, &class).map_err(|e| store.fail(e))?;
    let graded =
        format!("graded {total} submissions by the workers; stored as run {run} in {location}");
    let book = output.show(ctx, &store, run, &[graded])?;
    let judged = book
        .submissions()
        .all(|(_, _, s)| s.report.verdict != Verdict::JudgeError);
    Ok(ctx.exit_code(judged))
}

/// Records the run (unfinished until every job is done) and a job per
/// file, in one transaction; returns the run and how many jobs.
fn enqueue_class(
    ctx: &Context,
    store: &mut Store,
    class: &QueuedClass<'_>,
) -> Result<(i64, usize)> {
    let mut hashes = Vec::new();
    for problem in class.problems {
        let hash = package_hash(&problem.dir).map_err(|source| Error::Report {
            what: problem.dir.display().to_string(),
            source,
        })?;
        hashes.push(hash);
    }
    let mut jobs = Vec::new();
    let mut turns = std::collections::HashMap::<&str, usize>::new();
    for entry in &class.roster.entries {
        let Some(p) = class.problems.iter().position(|p| p.id == entry.problem) else {
            continue;
        };
        let Some(file) = &entry.file else {
            continue;
        };
        let source = crate::untrusted::read(
            file,
            crate::untrusted::Links::Refuse,
            crate::untrusted::SOURCE_LIMIT,
        )
        .map_err(|error| Error::Usage(format!("{}: {error}", entry.shown)))?;
        let language = ctx
            .builder
            .languages()
            .for_file(file)
            .map(|(key, _)| key.to_string())
            .ok_or_else(|| Error::Usage(format!("{}: no language builds it", entry.shown)))?;
        let turn = turns.entry(entry.student.as_str()).or_default();
        jobs.push((p, entry, source, language, *turn));
        *turn += 1;
    }
    let meta = RunMeta {
        started_at: SystemTime::now(),
        command: "grade".into(),
        judge_version: store::judge_version().to_string(),
        isolation: "judge worker (each submission records its own)".into(),
        machine: crate::store::machine(),
        partition: None,
        source: Some(class.source.clone()),
        interrupted: true,
        deadline: class.deadline.clone(),
        late_rule: class.late_rule.clone(),
        policy: class.policy.clone(),
    };
    let problems: Vec<_> = class.problems.iter().map(super::problem_info).collect();
    let db = store.db();
    let recorded = (|| {
        let mut tx = db.transaction()?;
        let run = write::insert_run(&mut tx, &meta)?;
        write::insert_problems(&mut tx, run, &problems)?;
        for (p, entry, source, language, turn) in &jobs {
            let problem = &class.problems[*p];
            let file_name = entry
                .file
                .as_ref()
                .and_then(|f| f.file_name())
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            queue::enqueue(
                &mut tx,
                &NewJob {
                    run,
                    problem: &problem.id,
                    package_hash: &hashes[*p],
                    time_us: problem.limits.time.as_micros() as u64,
                    wall_us: problem.limits.wall.as_micros() as u64,
                    student: Some(&entry.student),
                    path: &entry.shown,
                    file_name: &file_name,
                    language,
                    source,
                    fail_fast: class.fail_fast,
                    turn: *turn,
                    entry: None,
                },
            )?;
        }
        queue::announce(&mut tx)?;
        tx.commit()?;
        Ok(run)
    })();
    let run = recorded.map_err(|e| store.fail(e))?;
    Ok((run, jobs.len()))
}

/// Once every job is done: the students' missing submissions, when each
/// file was handed in and the files not graded are recorded and the run
/// is finished.
fn close_class(
    store: &mut Store,
    run: i64,
    class: &QueuedClass<'_>,
) -> std::result::Result<(), store::DbError> {
    let mut tx = store.db().transaction()?;
    for entry in &class.roster.entries {
        if entry.file.is_some() || !class.problems.iter().any(|p| p.id == entry.problem) {
            continue;
        }
        write::insert_submission(
            &mut tx,
            run,
            &SubmissionRecord::missing(&entry.student, &entry.problem),
        )?;
    }
    for ((student, problem), handin) in &class.handins {
        write::set_handin(&mut tx, run, student, problem, handin)?;
    }
    write::insert_unmatched(&mut tx, run, &class.roster.unmatched)?;
    write::close_run(&mut tx, run)?;
    tx.commit()
}

/// `judge workers`: every worker of the store, its load and when it was
/// last heard from.
pub(super) fn workers(ctx: &mut Context, db: &std::path::Path) -> Result<u8> {
    let location = Location::of(db);
    if !location.exists() {
        return Err(Error::Usage(format!("no result store at {location}")));
    }
    let mut store = Store::open_at(&location)?;
    let rows = queue::workers(store.db()).map_err(|e| store.fail(e))?;
    if rows.is_empty() {
        writeln!(ctx.out, "no worker has joined {location} yet").map_err(io("the output"))?;
        return Ok(0);
    }
    writeln!(
        ctx.out,
        "{:<24} {:<8} {:>7} {:>7} {:>7} {:>8}  {:<16} isolation",
        "worker", "state", "threads", "running", "judged", "heard", "machine"
    )
    .map_err(io("the output"))?;
    for row in rows {
        let heard = format!("{:.1}s ago", row.silent_ms.max(0) as f64 / 1000.0);
        writeln!(
            ctx.out,
            "{:<24} {:<8} {:>7} {:>7} {:>7} {:>8}  {:<16} {}",
            crate::escape::name(&row.info.name),
            row.state,
            row.info.threads,
            row.running,
            row.judged,
            heard,
            crate::escape::name(&row.info.machine),
            crate::escape::name(&row.info.isolation),
        )
        .map_err(io("the output"))?;
        if row.refused > 0 {
            writeln!(ctx.out, "  {} stale results refused", row.refused)
                .map_err(io("the output"))?;
        }
    }
    Ok(0)
}
