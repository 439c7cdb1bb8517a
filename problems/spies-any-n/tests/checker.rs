//! The checker binary end to end: the input n must match, -1 only for impossible n.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the checker for input `n` on `output`; returns (exit code, judgemessage).
fn check(n: u64, output: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!(
        "spies-any-n-checker-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let feedback = dir.join("feedback");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&feedback).unwrap();
    let input = dir.join("in");
    std::fs::write(&input, format!("{n}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_spies-any-n-checker"))
        .args([&input, &input, &feedback])
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawn checker");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(output.as_bytes())
        .unwrap();
    let code = child.wait().unwrap().code().unwrap();
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default();
    assert!(!feedback.join("score.txt").exists());
    let _ = std::fs::remove_dir_all(&dir);
    (code, message)
}

#[test]
fn accepts_valid_answers() {
    assert_eq!(check(11, "11\n2 4 7 1 8 11 5 3 9 6 10\n").0, 42);
    assert_eq!(check(12, "12\n1 3 6 12 10 2 11 5 8 4 9 7\n").0, 42);
    assert_eq!(check(1, "1\n1\n").0, 42);
    for n in [2, 3, 5, 6, 7] {
        assert_eq!(check(n, "-1\n").0, 42, "n = {n}");
    }
}

#[test]
fn rejects_wrong_answers() {
    for (n, output, reason) in [
        (4, "-1\n", "a board of size 4 exists"),
        (999, "-1\n", "a board of size 999 exists"),
        (7, "7\n1 3 5 7 2 4 6\n", "expected -1"),
        (13, "11\n2 4 7 1 8 11 5 3 9 6 10\n", "size 11, but n = 13"),
        (
            23,
            "23\n1 3 6 2 7 16 20 13 8 5 22 19 17 23 21 9 11 14 10 4 18 12 15\n",
            "rows 2, 8, 14 are collinear",
        ),
        (
            11,
            "11\n4 7 1 6 2 10 8 3 5 9 11\n",
            "rows 1, 4, 7 are collinear",
        ),
        (4, "4\n2 4 1 3 -1\n", "extra output"),
        (4, "4\n2 4 1\n", "expected 4 numbers after 4, got 3"),
        (4, "-1 4\n", "extra output after -1"),
        (4, "", "empty output"),
        (4, "4\n2 4 1 x\n", "row 4"),
    ] {
        let (code, message) = check(n, output);
        assert_eq!(code, 43, "{output:?}");
        assert!(message.contains(reason), "{output:?}: {message}");
    }
}
