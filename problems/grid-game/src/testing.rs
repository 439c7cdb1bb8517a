//! Helpers for the generator and validator tests of this crate and of
//! `grid-game-large-tools`; they drive the built binaries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs a binary on arguments.
pub fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().unwrap()
}

/// The generator's output is a function of its arguments, and the seed matters.
pub fn assert_deterministic<const K: usize>(bin: &str, same: &[[&str; K]], differ: [[&str; K]; 2]) {
    for args in same {
        let (a, b) = (run(bin, args), run(bin, args));
        assert!(a.status.success(), "{args:?}");
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(run(bin, &differ[0]).stdout, run(bin, &differ[1]).stdout);
}

/// The generator fails on each of these argument lists.
pub fn assert_rejects(bin: &str, bad: &[&[&str]]) {
    for args in bad {
        assert!(!run(bin, args).status.success(), "{args:?}");
    }
}

/// Generator arguments wrong under any bounds.
pub const BAD_ARGS: &[&[&str]] = &[
    &["random", "0", "1", "8", "-10", "10", "1"],
    &["random", "5", "0", "8", "-10", "10", "1"],
    &["random", "5", "5", "4", "-10", "10", "1"],
    &["random", "5", "1", "8", "10", "-10", "1"],
    &["bogus", "5", "1", "8", "-10", "10", "1"],
    &["random", "5", "1", "8", "-10", "10"],
];

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
/// more than `more_than`.
pub fn assert_accepts_committed(bin: &str, package: &str, more_than: usize) {
    let mut found = Vec::new();
    inputs(&Path::new(package).join("data"), &mut found);
    assert!(
        found.len() > more_than,
        "expected the committed tests, found {}",
        found.len()
    );
    for path in found {
        let input = std::fs::read(&path).unwrap();
        assert_eq!(validate(bin, &input), 42, "rejected {}", path.display());
    }
}

/// The validator exits with `code` on each input.
pub fn assert_exit(bin: &str, code: i32, inputs: &[&str]) {
    for input in inputs {
        assert_eq!(validate(bin, input.as_bytes()), code, "{input:?}");
    }
}

/// Inputs malformed under any bounds.
pub const MALFORMED: &[&str] = &[
    "",                             // empty
    "1\n1\n5",                      // no final newline
    "0\n",                          // t out of range
    "1\n0\n",                       // n out of range
    "1\n2\n1 2\n3\n",               // missing token
    "1\n2\n1 2 3\n4 5\n",           // extra token
    "1\n2\n1 2\n",                  // missing row
    "1\n1\n5\n6\n",                 // extra line
    "2\n1\n5\n",                    // fewer boards than t
    "1\n1\n5\n\n",                  // blank line at the end
    "1\n2\n1  2\n3 4\n",            // doubled space
    "1\n2\n1 2 \n3 4\n",            // trailing space
    "1\n2\n1\t2\n3 4\n",            // tab
    "1\n1\n-0\n",                   // non-canonical
    "1\n1\n+5\n",                   // non-canonical
    "1\n1\n05\n",                   // leading zero
    "1\n1\nx\n",                    // not a number
    "1 1\n1\n5\n",                  // two tokens on the t line
    "1\r\n1\r\n5\r\n",              // CRLF
    "1\n1\n99999999999999999999\n", // huge
];
