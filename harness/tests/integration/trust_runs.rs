//! Trust, round three: nothing a run creates outlives it, runs at the same
//! time have no channel, each worker runs programs as a uid of its own, and
//! the system calls that reach past the sandbox are refused. Each test
//! grades the hostile programs named after what they attempt on the
//! `hostile` problem (`submissions/hostile/<VERDICT>-<what>/`); against a
//! judge with the hole they get AC where WA is expected, or RE where AC is.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::hostile::*;
use crate::support::{Background, have};

/// The files of the folder, each `copies` times.
fn copies(folder: &str, copies: usize) -> Vec<(PathBuf, String)> {
    submissions(&[folder])
        .into_iter()
        .flat_map(|pair| std::iter::repeat_n(pair, copies))
        .collect()
}

fn grade_expecting(expected: &[(PathBuf, String)], jobs: usize) {
    if expected.is_empty() {
        return;
    }
    let files: Vec<PathBuf> = expected.iter().map(|(f, _)| f.clone()).collect();
    let judged = grade_with_jobs(&files, jobs);
    let mut problems = leftovers_of(&files);
    problems.extend(wrong_verdicts(&judged, expected));
    assert_no_problems(&problems, &judged);
}

#[test]
fn a_socket_held_only_in_flight_is_gone_for_the_next_run() {
    // One worker: every run after the first would find the socket the run
    // before it left in the worker's network namespace.
    grade_expecting(&copies("WA-socket-cycle", 4), 1);
}

#[test]
fn runs_at_the_same_time_cannot_meet_through_file_locks() {
    grade_expecting(&copies("WA-lock-channel", 2), 2);
}

#[test]
fn system_calls_past_the_sandbox_are_refused() {
    grade_expecting(&copies("AC-syscalls-refused", 1), 1);
}

/// Processes of uid 65534, as other judges' runs (or the host's own
/// `nobody` daemons) would be; each killed when dropped.
fn crowd_of_nobody(count: usize) -> Vec<Background> {
    use std::os::unix::process::CommandExt;
    (0..count)
        .map(|_| {
            Background::start(
                Command::new("/bin/sleep")
                    .arg("120")
                    .uid(65534)
                    .gid(65534)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            )
        })
        .collect()
}

#[test]
fn a_runs_process_limit_is_its_workers_alone() {
    // Running processes as another uid needs root.
    if !have(&["root"]) {
        return;
    }
    // More processes of uid 65534 than a run's process limit (512): a
    // judge whose runs all share that uid could not start one more.
    let _crowd = crowd_of_nobody(520);
    grade_expecting(&copies("AC-fork-once", 2), 2);
}
