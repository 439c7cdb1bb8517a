//! The teacher's side of a class, past grading: a grading policy and its
//! total, reports from the store alone, feedback per student, LMS exports,
//! deadlines read from the students' Git repositories, and similarity.

mod policy;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::*;

/// The fixture class needs gcc, g++ and python3 besides rustc. A missing
/// one is said ("skipped: no X"), and fails the test where CI must have it.
pub fn class_tools_missing() -> bool {
    for file in ["x.c", "x.cpp", "x.py", "x.rs"] {
        if let Some(tool) = missing_tool(Path::new(file)) {
            return skipped(tool);
        }
    }
    false
}

/// Says a test is skipped for want of `tool`; on CI (`CI=true`) that fails it.
pub fn skipped(tool: &str) -> bool {
    println!("skipped: no {tool}");
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{tool} is missing on CI, where it is installed"
    );
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
