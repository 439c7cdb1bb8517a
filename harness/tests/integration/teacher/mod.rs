//! The teacher's side of a class, past grading: a grading policy and its
//! total, reports from the store alone, feedback per student, LMS exports,
//! deadlines read from the students' Git repositories, and similarity.

mod deadline;
mod exports;
mod policy;
mod similarity;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::*;

/// The fixture class needs gcc, g++ and python3 besides rustc. A missing
/// one is said ("skipped: no X"), and fails the test where
/// `JUDGE_TEST_REQUIRE` lists it.
pub fn class_tools_missing() -> bool {
    !have(&["gcc", "g++", "python3", "rustc"])
}

/// Says a test is skipped for want of `tool` (a failure where
/// `JUDGE_TEST_REQUIRE` lists it).
pub fn skipped(tool: &str) -> bool {
    skip(tool, "");
    true
}

pub fn class_dir() -> PathBuf {
    fixtures().join("class")
}

/// `judge` at the fixtures' root, with no shard variables.
pub fn judge_in(root: &Path) -> assert_cmd::Command {
    let mut cmd = judge_at(root);
    for name in [
        "JOB_COMPLETION_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
    ] {
        cmd.env_remove(name);
    }
    cmd.timeout(Duration::from_secs(600));
    cmd
}

/// `judge grade --class CLASS sum guess --db DB` plus `extra`.
pub fn grade(class: &Path, db: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    judge_in(&fixtures())
        .args(["grade", "--class"])
        .arg(class)
        .args(["sum", "guess", "--db"])
        .arg(db)
        .args(extra)
        .assert()
}

pub fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

pub fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find_map(which)
}

/// Headless Chromium's DOM of `page` after its scripts ran, and its log;
/// killed (by its own handle, so its PID is still its own) after 60 s.
pub fn headless_dom(browser: &Path, page: &Path) -> (String, String) {
    use wait_timeout::ChildExt;
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=3000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", page.display()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).ok();
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    if child
        .wait_timeout(Duration::from_secs(60))
        .unwrap()
        .is_none()
    {
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("chromium took over 60 s on {}", page.display());
    }
    (out.join().unwrap(), err.join().unwrap())
}
