//! The validator accepts every committed input and rejects malformed ones.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn validate(input: &[u8]) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grid-game-large-validator"))
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
        found.len() > 20,
        "expected the committed tests, found {}",
        found.len()
    );
    for path in found {
        let input = std::fs::read(&path).unwrap();
        assert_eq!(validate(&input), 42, "rejected {}", path.display());
    }
}

#[test]
fn accepts_edge_inputs() {
    for input in [
        "1\n1\n0\n",
        "1\n1\n-1000000000\n",
        "2\n1\n1000000000\n2\n-1000000000 1000000000\n1000000000 -1000000000\n",
    ] {
        assert_eq!(validate(input.as_bytes()), 42, "{input:?}");
    }
}

#[test]
fn rejects_malformed_inputs() {
    for input in [
        "",                                        // empty
        "1\n1\n5",                                 // no final newline
        "0\n",                                     // t out of range
        "6\n1\n0\n1\n0\n1\n0\n1\n0\n1\n0\n1\n0\n", // t out of range
        "1\n0\n",                                  // n out of range
        "1\n501\n0\n",                             // n out of range
        "1\n1\n1000000001\n",                      // value out of range
        "1\n1\n-1000000001\n",                     // value out of range
        "1\n2\n1 2\n3\n",                          // missing token
        "1\n2\n1 2 3\n4 5\n",                      // extra token
        "1\n2\n1 2\n",                             // missing row
        "1\n1\n5\n6\n",                            // extra line
        "2\n1\n5\n",                               // fewer boards than t
        "1\n1\n5\n\n",                             // blank line at the end
        "1\n2\n1  2\n3 4\n",                       // doubled space
        "1\n2\n1 2 \n3 4\n",                       // trailing space
        "1\n2\n1\t2\n3 4\n",                       // tab
        "1\n1\n-0\n",                              // non-canonical
        "1\n1\n+5\n",                              // non-canonical
        "1\n1\n05\n",                              // leading zero
        "1\n1\nx\n",                               // not a number
        "1 1\n1\n5\n",                             // two tokens on the t line
        "1\r\n1\r\n5\r\n",                         // CRLF
        "1\n1\n99999999999999999999\n",            // huge
    ] {
        assert_eq!(validate(input.as_bytes()), 43, "{input:?}");
    }
}
