//! The input validator accepts every committed input and rejects malformed ones; the
//! generator is deterministic and agrees with the committed inputs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn validate(input: &[u8]) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spies-any-n-validator"))
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

fn inputs(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("data folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            inputs(&path, out);
        } else if path.extension().is_some_and(|e| e == "in") {
            out.push(path);
        }
    }
}

#[test]
fn accepts_committed_inputs() {
    let mut all = Vec::new();
    inputs(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data")),
        &mut all,
    );
    assert!(all.len() >= 40, "found {} inputs", all.len());
    for path in all {
        assert_eq!(validate(&std::fs::read(&path).unwrap()), 42, "{path:?}");
    }
}

#[test]
fn rejects_bad_inputs() {
    for bad in [
        &b""[..],
        b"\n",
        b"0\n",
        b"1000\n",
        b"-1\n",
        b"+5\n",
        b"007\n",
        b"5",
        b"5\n\n",
        b" 5\n",
        b"5 \n",
        b"5 6\n",
        b"five\n",
        b"99999999999999999999999\n",
    ] {
        assert_eq!(validate(bad), 43, "{:?}", String::from_utf8_lossy(bad));
    }
    assert_eq!(validate(b"999\n"), 42);
    assert_eq!(validate(b"1\n"), 42);
}

#[test]
fn generator_is_deterministic() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_spies-any-n-generator"))
            .args(args)
            .output()
            .expect("run generator");
        assert!(out.status.success(), "{args:?}");
        out.stdout
    };
    for args in [
        &["random", "40", "300", "3"][..],
        &["random", "1", "999", "42"],
        &["fixed", "999"],
    ] {
        let first = run(args);
        assert_eq!(first, run(args), "{args:?}");
        assert_eq!(validate(&first), 42, "{args:?}");
    }
    assert_eq!(run(&["fixed", "904"]), b"904\n");
}
