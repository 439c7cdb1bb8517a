//! The validator accepts every committed input and rejects broken ones.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn validate(input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caos3-validator"))
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn validator");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn inputs(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            inputs(&path, found);
        } else if path.extension().is_some_and(|e| e == "in") {
            found.push(path);
        }
    }
}

#[test]
fn accepts_every_committed_input() {
    let mut found = Vec::new();
    inputs(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &mut found,
    );
    assert!(found.len() >= 20, "only {} inputs found", found.len());
    for path in found {
        let (code, message) = validate(&std::fs::read(&path).unwrap());
        assert_eq!(code, Some(42), "{} rejected: {message}", path.display());
    }
}

#[test]
fn rejects_broken_inputs() {
    let bad: &[(&str, &str)] = &[
        ("empty file", ""),
        ("T = 0", "0\n"),
        ("T = 11", &format!("11\n{}", "1 1\n^\n".repeat(11))),
        ("R = 21", &format!("1\n21 1\n{}", "^\n".repeat(21))),
        ("C = 21", &format!("1\n1 21\n{}\n", "^".repeat(21))),
        ("R = 0", "1\n0 1\n"),
        ("fewer cases than T", "2\n1 1\n^\n"),
        ("missing row", "1\n2 2\n^^\n"),
        ("short row", "1\n2 2\n^^\n^\n"),
        ("long row", "1\n2 2\n^^\n^^^\n"),
        ("bad character", "1\n2 2\n^^\n^.\n"),
        ("missing C", "1\n2\n^^\n^^\n"),
        ("extra token", "1\n1 1 1\n^\n"),
        ("extra case", "1\n1 1\n^\n1 1\n#\n"),
        ("trailing blank line", "1\n1 1\n^\n\n"),
        ("no final newline", "1\n1 1\n^"),
        ("double space", "1\n1  1\n^\n"),
        ("leading zero", "1\n01 1\n^\n"),
        ("CRLF", "1\r\n1 1\r\n^\r\n"),
        ("sign", "+1\n1 1\n^\n"),
    ];
    for (what, input) in bad {
        let (code, message) = validate(input.as_bytes());
        assert_eq!(code, Some(43), "accepted: {what}");
        assert!(!message.is_empty(), "no reason given for: {what}");
    }
    // The limits themselves are fine.
    let largest = format!(
        "10\n{}",
        format!("20 20\n{}", format!("{}\n", "#".repeat(20)).repeat(20)).repeat(10)
    );
    assert_eq!(validate(largest.as_bytes()).0, Some(42));
}
