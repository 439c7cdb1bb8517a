//! Hostile submissions: programs that attack the judge rather than solve the
//! problem, in `submissions/hostile/<VERDICT>-<what>/hostile_*` (each file
//! says what it attempts). Each must get its folder's verdict on the
//! `hostile` fixture problem, and the sandbox must contain it:
//!
//! - the judge stays in control: it finishes, with its report, within
//!   `JUDGE_DEADLINE`, and exits 0 or 1 (never killed by a signal);
//! - no process outlives the judge (`leftover_processes`);
//! - nothing is written outside the run folder (`marker_files`);
//! - no connection reaches the host's loopback;
//! - the judge's own peak memory stays small under output floods;
//! - the same submission graded 20 times gets the same verdict 20 times.
//!
//! Some of these need the isolation layer (namespaces, cgroups): they state
//! the final requirement and fail where the machine's sandbox falls short.
//! The programs are C, C++ and Rust; a test whose compiler is missing prints
//! "skipped: no <tool>" and checks the rest.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::*;

/// Every file a hostile program drops outside its run folder starts with this.
pub(crate) const MARKER: &str = "gj-hostile-marker";

/// A judge call here taking longer than this has lost control (the slowest
/// fresh build, `#include "/dev/random"`, takes about 10 s).
pub(crate) const JUDGE_DEADLINE: Duration = Duration::from_secs(180);

/// The port `hostile_connect_out.c` tries besides 22 and 80.
const LISTEN_PORT: u16 = 47811;

/// The wall-clock backstop of the `hostile` problem (time 1 s: max(2 × 1 s,
/// 1 s + 1 s)) and how far past it a run may be reported before the judge
/// counts as having lost control of it.
const WALL_BACKSTOP_MS: u64 = 2000;
const WALL_SLACK_MS: u64 = 2000;

/// The judge's peak memory allowed while it drains an output flood.
const JUDGE_PEAK_LIMIT_KIB: u64 = 100 << 10;

pub(crate) fn folder(name: &str) -> PathBuf {
    fixtures().join("submissions/hostile").join(name)
}

/// The runnable submissions in the named folders, each with the verdict
/// its folder is named after.
pub(crate) fn submissions(folders: &[&str]) -> Vec<(PathBuf, String)> {
    folders
        .iter()
        .flat_map(|name| {
            let verdict = name.split('-').next().unwrap().to_string();
            runnable_files(&folder(name))
                .into_iter()
                .map(move |file| (file, verdict.clone()))
        })
        .collect()
}

pub(crate) fn stem(file: &Path) -> String {
    file.file_stem().unwrap().to_string_lossy().into_owned()
}

/// One finished judge call.
pub(crate) struct Judged {
    pub(crate) status: ExitStatus,
    /// The judge's ru_maxrss: its own peak, or that of a descendant it
    /// reaped if larger (compilers: warm the build cache first to measure
    /// the judge alone).
    pub(crate) peak_rss_kib: u64,
    /// Its stdout and stderr, for messages.
    pub(crate) output: String,
    /// (submission, verdict) in report order.
    pub(crate) verdicts: Vec<(String, String)>,
    /// Runs reported as lasting well past the wall-clock backstop.
    pub(crate) overruns: Vec<String>,
    /// The JSON report.
    pub(crate) json: serde_json::Value,
}

/// Grades `files` (repeats allowed) on the `hostile` problem with `-j 2`,
/// as a plain child process so that its rusage can be read. Panics if the
/// judge hangs, dies by a signal, or writes no report for every file.
pub(crate) fn grade(files: &[PathBuf]) -> Judged {
    grade_with_jobs(files, 2)
}

pub(crate) fn grade_with_jobs(files: &[PathBuf], jobs: usize) -> Judged {
    grade_with_env(files, jobs, &[])
}

/// `grade_with_jobs` with variables added to the judge's environment.
pub(crate) fn grade_with_env(files: &[PathBuf], jobs: usize, env: &[(&str, &str)]) -> Judged {
    let report = tempfile::NamedTempFile::new().unwrap();
    let log = tempfile::tempfile().unwrap();
    // Reaped by `wait_with_rusage`: std's `wait` gives no rusage.
    #[expect(clippy::zombie_processes, reason = "reaped with wait4")]
    let child = Command::new(judge_binary())
        .envs(env.iter().copied())
        .args(["--color", "never", "--root"])
        .arg(fixtures())
        .args(["-j", &jobs.to_string(), "grade", "hostile"])
        .args(files)
        .arg("--json")
        .arg(report.path())
        .current_dir(fixtures())
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log.try_clone().unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let (status, peak_rss_kib) = match wait_with_rusage(pid, JUDGE_DEADLINE) {
        Some(done) => done,
        None => {
            let stray: Vec<(i32, String)> = files
                .iter()
                .flat_map(|f| leftover_processes(&stem(f)))
                .collect();
            kill_processes(&stray);
            panic!(
                "the judge did not finish within {JUDGE_DEADLINE:?} (killed it); \
                 processes of the submissions still alive then: {stray:?}"
            );
        }
    };
    let output = read_log(log);
    assert!(
        status.signal().is_none() && status.code().is_some_and(|c| c <= 1),
        "the judge must finish normally (exit 0 or 1), got {status:?}\n{output}"
    );
    let json = read_json(report.path());
    assert_eq!(json["interrupted"], false, "{output}");
    let verdicts: Vec<(String, String)> = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["submission"].as_str().unwrap().to_string(),
                s["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(verdicts.len(), files.len(), "one report per file\n{output}");
    let mut overruns = Vec::new();
    for submission in json["submissions"].as_array().unwrap() {
        for test in submission["tests"].as_array().unwrap() {
            // Time spent waiting for a CPU another program held is the
            // machine's, not a lapse of control.
            let wall = test["wall_ms"]
                .as_u64()
                .unwrap()
                .saturating_sub(test["waited_ms"].as_u64().unwrap_or(0));
            if wall > WALL_BACKSTOP_MS + WALL_SLACK_MS {
                overruns.push(format!(
                    "{} on {}: ran {wall} ms, past the {WALL_BACKSTOP_MS} ms backstop",
                    submission["submission"], test["test"]
                ));
            }
        }
    }
    Judged {
        status,
        peak_rss_kib,
        output,
        verdicts,
        overruns,
        json,
    }
}

pub(crate) fn read_log(mut log: std::fs::File) -> String {
    use std::io::{Read, Seek};
    let mut text = String::new();
    log.rewind().unwrap();
    log.read_to_string(&mut text).unwrap();
    text
}

/// Waits for our child `pid` and returns its status and ru_maxrss (KiB), or
/// kills it and returns `None` once `deadline` has passed.
fn wait_with_rusage(pid: i32, deadline: Duration) -> Option<(ExitStatus, u64)> {
    let start = Instant::now();
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut killed = false;
    loop {
        let flags = if killed { 0 } else { libc::WNOHANG };
        // SAFETY: `status` and `usage` are valid and writable for the call;
        // `pid` is our own child, which nothing else reaps (its `Child`
        // handle is never waited on).
        let rc = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if rc == pid {
            break;
        }
        assert!(
            rc == 0 || std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted,
            "wait4: {}",
            std::io::Error::last_os_error()
        );
        if !killed && start.elapsed() > deadline {
            // SAFETY: kill on our own unreaped child; no memory involved.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        } else if !killed {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    (!killed).then(|| (ExitStatus::from_raw(status), usage.ru_maxrss.max(0) as u64))
}

/// Live processes of the fixture whose file stem is `stem`: their executable
/// is a build of it (the same file, however it is mounted, or a path that
/// names it) or their command line names it. Judges are not counted (their
/// command line names the files they grade), nor zombies (already dead).
pub(crate) fn leftover_processes(stem: &str) -> Vec<(i32, String)> {
    fixture_processes(stem)
        .into_iter()
        // A run of a judge still running (another test grading the same
        // fixture at the same time) is not a leftover.
        .filter(|(pid, _)| !ancestors(*pid).any(is_judge_process))
        .collect()
}

/// Live processes of the fixture whose file stem is `stem`, whether a judge
/// still runs them or not.
pub(crate) fn fixture_processes(stem: &str) -> Vec<(i32, String)> {
    // The fixtures' own cache, or the suite's shared one.
    let caches = [fixtures().join("target/judge-cache"), shared_build_cache()];
    let builds: Vec<(u64, u64)> = caches
        .iter()
        .filter_map(|cache| std::fs::read_dir(cache).ok())
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{stem}-"))
        })
        .filter_map(|e| std::fs::metadata(e.path().join("program/main")).ok())
        .map(|m| (m.dev(), m.ino()))
        .collect();
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    let Ok(proc) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in proc.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if pid == me {
            continue;
        }
        let dir = entry.path();
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .unwrap_or("?");
        if state == "Z" || state == "X" {
            continue;
        }
        let exe = std::fs::read_link(dir.join("exe"))
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let exe_id = std::fs::metadata(dir.join("exe"))
            .ok()
            .map(|m| (m.dev(), m.ino()));
        let cmdline = std::fs::read(dir.join("cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        if is_judge_process(pid) {
            continue;
        }
        let ours = exe_id.is_some_and(|id| builds.contains(&id))
            || exe.contains(stem)
            || cmdline.contains(stem);
        if ours {
            found.push((
                pid,
                format!("pid {pid} ({state}) exe {exe:?} cmdline {cmdline:?}"),
            ));
        }
    }
    found
}

/// The parent, grandparent, ... of `pid`, up to but not including init.
fn ancestors(pid: i32) -> impl Iterator<Item = i32> {
    std::iter::successors(Some(pid), |&p| {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
        let after = &stat[stat.rfind(')')? + 1..];
        let parent: i32 = after.split_whitespace().nth(1)?.parse().ok()?;
        (parent > 1).then_some(parent)
    })
    .skip(1)
}

/// Whether `pid` runs a `judge` binary: this test's, or another checkout's
/// on the same machine, whose runs are its own tests' business (killing
/// them here would fail those tests). A run's program is never called
/// `judge`: builds are `main`, interpreters are the system's.
fn is_judge_process(pid: i32) -> bool {
    std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| {
        let exe = exe.to_string_lossy();
        let exe = exe.trim_end_matches(" (deleted)");
        Path::new(exe)
            .file_name()
            .is_some_and(|name| name == "judge")
    })
}

/// Kills processes a test found left over (all started by this test's
/// judge), so that a failing test does not leave them running.
pub(crate) fn kill_processes(processes: &[(i32, String)]) {
    for (pid, _) in processes {
        // SAFETY: kill has no memory effects; the pid was just seen running
        // a build of one of our fixtures.
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
}

/// Leftovers of every graded file, killed once found; one line each.
pub(crate) fn leftovers_of(files: &[PathBuf]) -> Vec<String> {
    let mut stems: Vec<String> = files.iter().map(|f| stem(f)).collect();
    stems.sort();
    stems.dedup();
    let found: Vec<(i32, String)> = stems.iter().flat_map(|s| leftover_processes(s)).collect();
    kill_processes(&found);
    found
        .into_iter()
        .map(|(_, what)| format!("left running after the judge exited: {what}"))
        .collect()
}

/// Where a hostile program may try to drop a marker: the temp folders, the
/// home folder, and the problem's data folder with all its ancestors (which
/// include the fixtures root, the judge's working directory here).
fn marker_places() -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = ["/tmp", "/var/tmp", "/dev/shm", "/root"]
        .iter()
        .map(PathBuf::from)
        .collect();
    if let Some(home) = std::env::var_os("HOME") {
        places.push(home.into());
    }
    let secret = fixtures().join("problems/hostile/data/secret");
    places.extend(secret.ancestors().map(Path::to_path_buf));
    places.sort();
    places.dedup();
    places
}

/// Files named `name*` in the marker places.
pub(crate) fn marker_files(name: &str) -> Vec<PathBuf> {
    marker_places()
        .iter()
        .filter_map(|place| std::fs::read_dir(place).ok())
        .flat_map(|entries| entries.flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(name))
        .map(|e| e.path())
        .collect()
}

pub(crate) fn remove_markers(name: &str) -> Vec<PathBuf> {
    let found = marker_files(name);
    for file in &found {
        let _ = std::fs::remove_file(file);
    }
    found
}

/// Verdicts that differ from the expected ones, and runs that overran the
/// backstop, one line each. Reports come in the order the files were given.
pub(crate) fn wrong_verdicts(judged: &Judged, expected: &[(PathBuf, String)]) -> Vec<String> {
    let mut problems = judged.overruns.clone();
    let wrong =
        judged
            .verdicts
            .iter()
            .zip(expected)
            .filter_map(|((file, got), (want_file, want))| {
                let want_file = want_file.display().to_string();
                if *file != want_file {
                    Some(format!("report order: expected {want_file}, got {file}"))
                } else if got != want {
                    Some(format!("{file}: expected {want}, got {got}"))
                } else {
                    None
                }
            });
    problems.extend(wrong);
    problems
}

pub(crate) fn assert_no_problems(problems: &[String], judged: &Judged) {
    assert!(
        problems.is_empty(),
        "{}\n--- judge output ({:?}) ---\n{}",
        problems.join("\n"),
        judged.status,
        judged.output
    );
}

/// Grades the named folders and checks verdicts and leftover processes.
pub(crate) fn grade_and_check(folders: &[&str]) -> Option<(Judged, Vec<String>)> {
    let expected = submissions(folders);
    if expected.is_empty() {
        return None;
    }
    let files: Vec<PathBuf> = expected.iter().map(|(f, _)| f.clone()).collect();
    let judged = grade(&files);
    let mut problems = leftovers_of(&files);
    problems.extend(wrong_verdicts(&judged, &expected));
    Some((judged, problems))
}

#[test]
fn resource_and_compiler_bombs_get_their_verdicts_and_leave_nothing() {
    let Some((judged, problems)) = grade_and_check(&[
        "RE-fork-bomb",
        "RE-thread-bomb",
        "MLE-malloc-bomb",
        "MLE-vec-bomb",
        "RE-stack-overflow",
        "TLE-busy-loop",
        "TLE-sleep-forever",
        "CE-include-dev-random",
        "CE-template-explosion",
        "CE-huge-binary",
    ]) else {
        return;
    };
    assert_no_problems(&problems, &judged);
}

/// Needs the run's processes killed as a whole (cgroup or PID namespace),
/// not just its process group.
#[test]
fn a_process_that_leaves_the_group_does_not_outlive_the_run() {
    let Some((judged, problems)) = grade_and_check(&["TLE-setsid-busy"]) else {
        return;
    };
    assert_no_problems(&problems, &judged);
}

/// Needs the run's processes killed as a whole (cgroup or PID namespace);
/// a private /tmp hides the marker, which is fine: it must stop growing.
#[test]
fn a_double_forking_daemon_does_not_outlive_the_run() {
    let daemon_marker = format!("{MARKER}-daemon");
    remove_markers(&daemon_marker);
    let Some((judged, mut problems)) = grade_and_check(&["AC-daemon"]) else {
        return;
    };
    let size = || {
        marker_files(&daemon_marker)
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum::<u64>()
    };
    // `grade_and_check` has already killed what it found; growth now means
    // a writer it could not find.
    let before = size();
    std::thread::sleep(Duration::from_millis(400));
    let after = size();
    if after != before {
        problems.push(format!(
            "/tmp/{daemon_marker} still grows ({before} -> {after} bytes): the daemon lives on"
        ));
    }
    remove_markers(&daemon_marker);
    assert_no_problems(&problems, &judged);
}

/// Needs a private view of the filesystem: stdin must not be the .in file
/// itself (its path sits next to the .ans), and the data folder must not be
/// visible from the run.
#[test]
fn answers_are_out_of_reach() {
    let Some((judged, problems)) = grade_and_check(&["WA-read-answer"]) else {
        return;
    };
    assert_no_problems(&problems, &judged);
}

/// Needs a private, or read-only, view of the filesystem outside the run
/// folder (and an unprivileged user).
#[test]
fn writes_outside_the_run_folder_are_contained_or_denied() {
    let marker = format!("{MARKER}-write-outside");
    let stale = remove_markers(&marker);
    if !stale.is_empty() {
        println!("removed markers of an earlier run: {stale:?}");
    }
    let Some((judged, mut problems)) = grade_and_check(&["AC-write-outside"]) else {
        return;
    };
    for file in remove_markers(&marker) {
        problems.push(format!(
            "written outside the run folder: {}",
            file.display()
        ));
    }
    assert_no_problems(&problems, &judged);
}

/// Needs a network namespace.
#[test]
fn the_network_is_out_of_reach() {
    let listener = std::net::TcpListener::bind(("127.0.0.1", LISTEN_PORT));
    if let Err(e) = &listener {
        println!("cannot listen on 127.0.0.1:{LISTEN_PORT} ({e}): checking the verdict only");
    }
    let Some((judged, mut problems)) = grade_and_check(&["AC-connect-denied"]) else {
        return;
    };
    if let Ok(listener) = listener {
        listener.set_nonblocking(true).unwrap();
        match listener.accept() {
            Ok((_, peer)) => problems.push(format!(
                "a submission connected to 127.0.0.1:{LISTEN_PORT} from {peer}"
            )),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("accept: {e}"),
        }
    }
    assert_no_problems(&problems, &judged);
}

/// Needs a PID namespace or a uid of the run's own: the program fires
/// `kill(-1, SIGKILL)` only where that cannot reach the judge (it checks
/// first, and prints a wrong answer instead of firing, so that an
/// unconfined run cannot take the machine down). AC then means "fired, and
/// the judge finished with its report".
#[test]
fn kill_minus_one_leaves_the_judge_standing() {
    let Some((judged, problems)) = grade_and_check(&["AC-kill-all"]) else {
        return;
    };
    assert_no_problems(&problems, &judged);
}

#[test]
fn output_floods_keep_the_judge_small() {
    let expected = submissions(&["OLE-stdout-flood", "OLE-stderr-flood"]);
    if expected.is_empty() {
        return;
    }
    let files: Vec<PathBuf> = expected.iter().map(|(f, _)| f.clone()).collect();
    // The first call builds (a compiler's peak would count as the judge's).
    grade(&files);
    let judged = grade(&files);
    println!("the judge's peak memory: {} KiB", judged.peak_rss_kib);
    let mut problems = leftovers_of(&files);
    problems.extend(wrong_verdicts(&judged, &expected));
    if judged.peak_rss_kib > JUDGE_PEAK_LIMIT_KIB {
        problems.push(format!(
            "the judge's peak memory was {} KiB, over {JUDGE_PEAK_LIMIT_KIB} KiB, while \
             draining a 10 GB flood",
            judged.peak_rss_kib
        ));
    }
    assert_no_problems(&problems, &judged);
}

#[test]
fn the_same_submission_graded_twenty_times_gets_the_same_verdict() {
    let expected: Vec<(PathBuf, String)> = submissions(&["WA-close-stdout", "AC-read-past-eof"])
        .into_iter()
        .flat_map(|pair| std::iter::repeat_n(pair, 20))
        .collect();
    if expected.is_empty() {
        return;
    }
    let files: Vec<PathBuf> = expected.iter().map(|(f, _)| f.clone()).collect();
    let judged = grade(&files);
    let mut problems = leftovers_of(&files);
    problems.extend(wrong_verdicts(&judged, &expected));
    assert_no_problems(&problems, &judged);
}
