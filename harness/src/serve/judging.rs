//! The one bridge from the server to the judge core. Everything the
//! server knows of judging goes through here: the session's problems
//! loaded and their judging programs built once, a few long-lived judge
//! threads fed by the fair queue, each submission's source built into a
//! task and run through `pipeline::Run` with a reporter that turns runner
//! events into live status, and the result recorded in the store.
//!
//! ```text
//! queue.pop ─► entries::claim ─► source file ─► Builder ─► Judges::task
//!      ─► pipeline::Run::execute (LiveStatus reporter ─► Live)
//!      ─► entries::record (one transaction) ─► Live (verdict)
//!      ─► notify::judged (PostgreSQL: the other servers' pages)
//! ```
//!
//! The judge core stays synchronous: these are std threads, not tokio's.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ServeError;
use super::live::{Live, LiveEvent};
use super::queue::Queue;
use crate::cli::ReportArgs;
use crate::commands::Context;
use crate::compile::{Builder, Builds};
use crate::lang::Languages;
use crate::owner::Owner;
use crate::pipeline::{Reporter, Run};
use crate::plan::Judges;
use crate::runner::{Event, Place, RunPlan, TaskReport};
use crate::sandbox::Sandbox;
use crate::spec::{ProblemSpec, ProgramRef};
use crate::store::Store;
use crate::store::entries;
use crate::store::sessions::SessionIds;
use crate::verdict::Verdict;

/// A problem of the session, ready to judge.
pub(crate) struct ServedProblem {
    pub(crate) spec: ProblemSpec,
    pub(crate) judges: Judges,
}

impl ServedProblem {
    /// Scored problems run every test (their score needs them all).
    pub(crate) fn is_scored(&self) -> bool {
        self.spec.package.as_ref().is_some_and(|p| p.scoring)
            || self.spec.solutions.iter().any(|s| s.score.is_some())
    }
}

/// The session's problems (all when `ids` is empty), read but not built:
/// enough for the pages. A broken package named by the session is an
/// error; when every problem is served, broken ones are left out and
/// their errors returned.
pub(crate) fn read(
    ctx: &Context,
    ids: &[String],
) -> Result<(Vec<ProblemSpec>, Vec<crate::errors::SpecError>), ServeError> {
    let (problems, broken) = ctx.load_problems(ids)?;
    if !ids.is_empty() {
        if let Some(error) = broken.into_iter().next() {
            return Err(error.into());
        }
        return Ok((problems, Vec::new()));
    }
    Ok((problems, broken))
}

/// Makes the problems ready to judge: every workspace program built, a
/// package's time limit settled, the judging programs built. Slow the
/// first time (compilers), so the server is already listening.
pub(crate) fn build(
    ctx: &mut Context,
    problems: Vec<ProblemSpec>,
    store: &std::path::Path,
) -> Result<Vec<ServedProblem>, ServeError> {
    // A package's settled time limit is kept in the server's store.
    let store = crate::cli::StoreArgs {
        db: Some(store.to_path_buf()),
        fresh: false,
    };
    let programs: Vec<_> = problems.iter().flat_map(ProblemSpec::programs).collect();
    ctx.builder
        .build_workspace(&programs)
        .map_err(crate::errors::Error::from)?;
    let mut served = Vec::new();
    for spec in problems {
        let spec = ctx.settled(&mut Run::new("serve", &ReportArgs::default()), spec, &store)?;
        let judges = Judges::build(&mut *ctx.builder, &spec);
        served.push(ServedProblem { spec, judges });
    }
    Ok(served)
}

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
    let mut store = match entries::open(&bench.store) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("judge thread {n}: {error}");
            return;
        }
    };
    let mut builder = Builder::new(&bench.root, bench.languages.clone(), sandbox);
    while let Some(entry) = bench.queue.pop() {
        match judge_entry(bench, &mut store, &mut builder, entry) {
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

/// Whether `text` (an error's or a report's words) says the judge ran out
/// of file descriptors (EMFILE, ENFILE): the judge's trouble, never the
/// submission's, so not a verdict.
fn says_out_of_descriptors(text: &str) -> bool {
    [libc::EMFILE, libc::ENFILE]
        .iter()
        .any(|&code| text.contains(&io::Error::from_raw_os_error(code).to_string()))
}

/// Whether a judging's report is a judge error that came of running out
/// of file descriptors.
fn out_of_descriptors(report: &TaskReport) -> bool {
    report.verdict == Verdict::JudgeError
        && (report
            .message
            .as_deref()
            .is_some_and(says_out_of_descriptors)
            || report
                .tests
                .iter()
                .filter(|t| t.verdict == Verdict::JudgeError)
                .any(|t| t.detail.as_deref().is_some_and(says_out_of_descriptors)))
}

/// Judges submission `entry` (if it is still queued) with `builder`, in
/// the builder's box, and records its verdict; one that ran out of file
/// descriptors is given back to the queue instead.
pub(crate) fn judge_entry(
    bench: &Bench,
    store: &mut Store,
    builder: &mut dyn Builds,
    entry: i64,
) -> Result<Judged, ServeError> {
    let Some(claimed) = entries::claim(store.db(), bench.ids.session, entry)? else {
        return Ok(Judged::Recorded);
    };
    let retry = |store: &mut Store| -> Result<Judged, ServeError> {
        entries::unclaim(store.db(), &claimed)?;
        Ok(Judged::Retry {
            account: claimed.entry.account,
        })
    };
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
    let folder = bench.scratch.join(format!("entry-{}", claimed.entry.id));
    let entry = &claimed.entry;
    let source = match write_source(
        &folder,
        &entry.language,
        &entry.file_name,
        &claimed.source,
        &bench.languages,
    ) {
        Ok(source) => source,
        Err(error) if says_out_of_descriptors(&error.to_string()) => return retry(store),
        Err(error) => return Err(error),
    };
    let name = format!("#{} {}", claimed.entry.id, claimed.entry.file_name);
    let task = problem.judges.task(
        &problem.spec,
        &ProgramRef::Submitted(source),
        |program| builder.build(program),
        Owner::Submission {
            id: claimed.entry.id,
        },
        name,
    );
    let total = task.tests.len();
    let plan = RunPlan {
        tasks: vec![task],
        stop_at_first_failure: !problem.is_scored(),
        jobs: 1,
    };
    let mut run = Run::new("serve", &ReportArgs::default());
    run.subscribe(LiveStatus {
        total,
        done: 0,
        stop_at_first_failure: plan.stops_at_first_failure(0),
        failed: false,
        publish: &publish,
    });
    // The thread's one box judges every submission it takes.
    let mut reports = run.execute(&plan, None, Place::Here(builder.worker()), &folder);
    let _ = std::fs::remove_dir_all(&folder);
    if builder.worker().is_cancelled() {
        // Stopped by SIGTERM: not a result; judged again after a restart.
        return Ok(Judged::Recorded);
    }
    let report: TaskReport = reports.pop().ok_or_else(|| {
        ServeError::Usage(format!("no report for submission {}", claimed.entry.id))
    })?;
    if out_of_descriptors(&report) {
        return retry(store);
    }
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

/// The submission's source in a folder of its own, under a name the
/// language table builds (the participant's file name is never a path:
/// only its letters, digits and `_` are kept, for Java's class name).
pub(crate) fn write_source(
    folder: &Path,
    language: &str,
    file_name: &str,
    source: &[u8],
    languages: &Languages,
) -> Result<PathBuf, ServeError> {
    let failed = |source: io::Error| ServeError::Io {
        what: format!("write {}", folder.display()),
        source,
    };
    std::fs::create_dir_all(folder).map_err(failed)?;
    let extension = languages
        .get(language)
        .and_then(|l| l.extensions.first().cloned())
        .ok_or_else(|| ServeError::Usage(format!("no language `{language}`")))?;
    let path = folder.join(format!("{}.{extension}", safe_stem(file_name)));
    std::fs::write(&path, source).map_err(failed)?;
    Ok(path)
}

/// A file stem made of ASCII letters, digits and `_`, starting with a
/// letter (`Main` when nothing is left).
pub(crate) fn safe_stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
    let kept: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(64)
        .collect();
    if kept.starts_with(|c: char| c.is_ascii_alphabetic()) {
        kept
    } else {
        "Main".into()
    }
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

#[cfg(test)]
mod tests {
    use super::{safe_stem, says_out_of_descriptors};

    #[test]
    fn running_out_of_descriptors_is_told_from_other_failures() {
        let emfile = std::io::Error::from_raw_os_error(libc::EMFILE);
        assert!(says_out_of_descriptors(&format!(
            "failed to spawn the program: {emfile}"
        )));
        let other = std::io::Error::from_raw_os_error(libc::ENOENT);
        assert!(!says_out_of_descriptors(&format!("failed: {other}")));
    }

    #[test]
    fn a_file_name_never_becomes_a_path() {
        assert_eq!(safe_stem("../../etc/passwd"), "passwd");
        assert_eq!(safe_stem("Main.java"), "Main");
        assert_eq!(safe_stem("1.py"), "Main");
        assert_eq!(safe_stem("sol\u{202e}ution.cpp"), "solution");
    }
}
