//! Helpers for the generator and validator tests of this crate and of
//! `stone-game-vi-large-tools`, and for both tiers' brute-force solution
//! tests; they drive the built binaries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs a binary on arguments.
pub fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().unwrap()
}

/// The generator's output is a function of its arguments, and the seed matters.
pub fn assert_deterministic<const K: usize>(bin: &str, same: &[[&str; K]], differ: [&[&str]; 2]) {
    for args in same {
        let (a, b) = (run(bin, args), run(bin, args));
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(run(bin, differ[0]).stdout, run(bin, differ[1]).stdout);
}

/// The generator fails on each of these argument lists.
pub fn assert_rejects_args(bin: &str, bad: &[&[&str]]) {
    for args in bad {
        assert!(!run(bin, args).status.success(), "{args:?}");
    }
}

/// The validator's exit code on an input.
pub fn validate(bin: &str, input: &[u8]) -> i32 {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait().unwrap().code().unwrap()
}

fn inputs(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            inputs(&path, found);
        } else if path.extension().is_some_and(|e| e == "in") {
            found.push(path);
        }
    }
}

/// The validator accepts every `.in` under `package/data`, of which there are
/// at least `at_least`.
pub fn assert_accepts_committed(bin: &str, package: &str, at_least: usize) {
    let mut found = Vec::new();
    inputs(&Path::new(package).join("data"), &mut found);
    assert!(
        found.len() >= at_least,
        "expected the committed tests, found {}",
        found.len()
    );
    for path in found {
        let code = validate(bin, &std::fs::read(&path).unwrap());
        assert_eq!(code, 42, "rejected {}", path.display());
    }
}

/// The validator rejects each input.
pub fn assert_rejects_inputs(bin: &str, bad: &[(&str, &[u8])]) {
    for (what, input) in bad {
        assert_eq!(validate(bin, input), 43, "accepted: {what}");
    }
}

/// A solution's output on an input; it must succeed.
pub fn solve(bin: &str, input: &str) -> String {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{bin} failed on\n{input}");
    String::from_utf8(out.stdout).unwrap()
}
