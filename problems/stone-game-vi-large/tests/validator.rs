//! The validator accepts every committed input and rejects malformed ones.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn validate(input: &[u8]) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stone-game-vi-large-validator"))
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
    assert_eq!(validate(b"1\n1\n1000000000\n1\n"), 42);
    let n = 1_000_000;
    let row = vec!["9"; n].join(" ");
    assert_eq!(validate(format!("1\n{n}\n{row}\n{row}\n").as_bytes()), 42);
    let games = "1\n1\n1\n".repeat(100_000);
    assert_eq!(validate(format!("100000\n{games}").as_bytes()), 42);
}

#[test]
fn rejects_malformed() {
    let bad: &[(&str, &[u8])] = &[
        ("T = 0", b"0\n"),
        ("T too large", b"100001\n1\n1\n1\n"),
        ("n = 0", b"1\n0\n\n\n"),
        ("value 0", b"1\n2\n1 0\n2 1\n"),
        ("value above 10^9", b"1\n2\n1 3\n1000000001 1\n"),
        ("huge value", b"1\n1\n99999999999999999999999\n1\n"),
        ("negative value", b"1\n2\n1 -3\n2 1\n"),
        ("missing token", b"1\n2\n1 3\n2\n"),
        ("extra token", b"1\n2\n1 3 4\n2 1\n"),
        ("count disagrees with n", b"1\n3\n1 3\n2 1\n"),
        ("fewer games than T", b"2\n2\n1 3\n2 1\n"),
        ("more games than T", b"1\n1\n1\n1\n1\n1\n1\n"),
        ("values on one line", b"1\n2\n1 3 2 1\n"),
        ("no final newline", b"1\n2\n1 3\n2 1"),
        ("double space", b"1\n2\n1  3\n2 1\n"),
        ("trailing space", b"1\n2\n1 3 \n2 1\n"),
        ("leading zero", b"1\n2\n01 3\n2 1\n"),
        ("carriage return", b"1\r\n2\r\n1 3\r\n2 1\r\n"),
        ("not a number", b"1\n2\n1 x\n2 1\n"),
        ("empty input", b""),
    ];
    for (what, input) in bad {
        assert_eq!(validate(input), 43, "accepted: {what}");
    }
    // Σn over the bound, each game on its own legal.
    let row = vec!["1"; 500_001].join(" ");
    let game = format!("500001\n{row}\n{row}\n");
    assert_eq!(
        validate(format!("2\n{game}{game}").as_bytes()),
        43,
        "Σn > 10^6"
    );
}
