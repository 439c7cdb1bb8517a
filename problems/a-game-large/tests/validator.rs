//! The validator accepts every committed input and rejects malformed ones.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn validate(input: &[u8]) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_a-game-large-validator"))
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

#[test]
fn accepts_committed_inputs() {
    let mut found = Vec::new();
    inputs(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &mut found,
    );
    assert!(
        found.len() >= 20,
        "expected the committed tests, found {}",
        found.len()
    );
    for path in found {
        let code = validate(&std::fs::read(&path).unwrap());
        assert_eq!(code, 42, "rejected {}", path.display());
    }
}

#[test]
fn accepts_edges() {
    assert_eq!(validate(b"2\n1 1000000000\n"), 42);
    assert_eq!(validate(b"6\n4 7 2 9\n5 2\n"), 42);
    assert_eq!(validate(b"3\n1\n2\n3\n"), 42);
    let row = vec!["1000000000"; 20_000].join(" ");
    assert_eq!(validate(format!("20000\n{row}\n").as_bytes()), 42);
}

#[test]
fn rejects_malformed() {
    let bad: &[(&str, &[u8])] = &[
        ("N = 1", b"1\n5\n"),
        ("N = 20001", b"20001\n1\n"),
        ("value 0", b"2\n0 5\n"),
        ("value above 10^9", b"2\n1000000001 5\n"),
        ("huge value", b"2\n99999999999999999999999 5\n"),
        ("negative value", b"2\n-1 5\n"),
        ("missing value", b"3\n1 2\n"),
        ("extra value", b"2\n1 2 3\n"),
        ("extra value on its own line", b"2\n1 2\n3\n"),
        ("N shares its line", b"2 1 2\n"),
        ("no values at all", b"2\n"),
        ("empty line", b"2\n1\n\n2\n"),
        ("no final newline", b"2\n1 2"),
        ("double space", b"2\n1  2\n"),
        ("trailing space", b"2\n1 2 \n"),
        ("tab", b"2\n1\t2\n"),
        ("leading zero", b"2\n01 2\n"),
        ("carriage return", b"2\r\n1 2\r\n"),
        ("not a number", b"2\n1 x\n"),
        ("empty input", b""),
    ];
    for (what, input) in bad {
        assert_eq!(validate(input), 43, "accepted: {what}");
    }
}
