//! The input validator accepts the committed (empty) inputs and rejects anything else.

use std::io::Write;
use std::process::{Command, Stdio};

fn validate(input: &[u8]) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spies-revised-validator"))
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn validator");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write");
    child.wait().expect("wait").code().expect("exit code")
}

#[test]
fn accepts_committed_inputs() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut count = 0;
    for group in ["sample", "secret"] {
        for entry in std::fs::read_dir(format!("{data}/{group}")).expect("data folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "in") {
                assert_eq!(validate(&std::fs::read(&path).unwrap()), 42, "{path:?}");
                count += 1;
            }
        }
    }
    assert!(count >= 2);
}

#[test]
fn rejects_non_empty_inputs() {
    for bad in [&b"\n"[..], b" ", b"999\n", b"11"] {
        assert_eq!(validate(bad), 43, "{bad:?}");
    }
}
