//! The checker binary end to end: exit codes, messages and score.txt.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the checker on `output`; returns (exit code, judgemessage, score).
fn check(output: &[u8]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!(
        "spies-revised-checker-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in");
    std::fs::write(&input, "").unwrap();
    let feedback = dir.join("feedback");
    let _ = std::fs::remove_dir_all(&feedback);
    std::fs::create_dir_all(&feedback).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_spies-revised-checker"))
        .args([&input, &input, &feedback])
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawn checker");
    child.stdin.take().unwrap().write_all(output).unwrap();
    let code = child.wait().unwrap().code().unwrap();
    let read = |name| std::fs::read_to_string(feedback.join(name)).unwrap_or_default();
    let result = (code, read("judgemessage.txt"), read("score.txt"));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[test]
fn scores_valid_odd_boards() {
    let (code, _, score) = check(b"11\n2 4 7 1 8 11 5 3 9 6 10\n");
    assert_eq!((code, score.trim()), (42, "1.1"));
    let (code, _, score) = check(b"13\n1 3 12 10 7 2 11 5 8 13 9 4 6\n");
    assert_eq!((code, score.trim()), (42, "1.3"));
    let (code, _, score) = check(b"1\n1\n");
    assert_eq!((code, score.trim()), (42, "0.1"));
}

#[test]
fn rejects_with_reasons() {
    for (output, reason) in [
        (&b"7\n1 3 5 7 2 4 6\n"[..], "rows 1, 2, 3 are collinear"),
        (b"12\n1 3 6 12 10 2 11 5 8 4 9 7\n", "even"),
        (b"1001\n", "not between 1 and 999"),
        (
            b"11\n2 4 7 1 8 11 5 3 9 6\n",
            "expected 11 numbers after 11, got 10",
        ),
        (b"11\n2 4 7 1 8 11 5 3 9 6 10 1\n", "extra output"),
        (b"11\n2 4 7 1 8 11 5 3 9 6 6\n", "column 6 used twice"),
        (b"3\n1 2 3\n", "share a diagonal"),
        (b"-1\n", "not between 1 and 999"),
        (b"", "empty output"),
        (b"spies\n", "not an integer"),
        (
            b"5\n1 2 3 4 123456789012345678901234567890\n",
            "not between 1 and 5",
        ),
    ] {
        let (code, message, score) = check(output);
        assert_eq!(code, 43, "{output:?}");
        assert!(message.contains(reason), "{output:?}: {message}");
        assert!(score.is_empty());
    }
}
