//! The shard path on a real scheduler: `tests/slurm/grade-array.sh`
//! starts a single-node Slurm in a temporary folder, submits the job array
//! of docs/scale-out.md for the fixture class, merges the shards and
//! compares the gradebook with the single-machine one. Skipped (said so)
//! where Slurm cannot run: not root, or not installable; that is a failure
//! where `JUDGE_TEST_REQUIRE` lists `slurm` (CI's does when it is root,
//! where the script installs Slurm).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::*;

/// The most the script may take (an install, the node, three tasks).
const DEADLINE: Duration = Duration::from_secs(300);

#[test]
fn a_slurm_job_array_of_shards_merges_into_the_single_machine_gradebook() {
    if !have(&["gcc", "g++", "python3", "rustc"]) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/grade-array.sh");
    let mut command = Command::new("bash");
    command
        .arg(&script)
        .arg(judge_binary())
        .arg(fixtures())
        .arg(fixtures().join("class"))
        .arg(work.path())
        .args(["sum", "guess"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group: on the deadline the script and every daemon
    // it started are killed together.
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            let group = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let status = status.unwrap_or_else(|| panic!("the Slurm script outlived {DEADLINE:?}: {said}"));
    if status.code() == Some(77) {
        // The script could not install or start Slurm (not root, no
        // package): a skip, a failure where JUDGE_TEST_REQUIRE lists slurm.
        skip("slurm", said.trim());
        return;
    }
    assert!(status.success(), "the Slurm script failed: {said}");
    assert!(
        said.contains("merged into the single-machine gradebook"),
        "{said}"
    );
}
