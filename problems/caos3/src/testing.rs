//! Helpers for the generator and validator tests of this crate and of
//! `caos3-large-tools`, and for the solutions' brute-force tests; they drive
//! the built binaries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Board, crosses, format, monster_count, random};

/// The generator's output on arguments; it must succeed.
pub fn generate(bin: &str, args: &[&str]) -> Vec<u8> {
    let output = Command::new(bin)
        .args(args)
        .output()
        .expect("spawn generator");
    assert!(output.status.success(), "generator failed on {args:?}");
    output.stdout
}

/// The generator fails on each of these argument lists.
pub fn assert_rejects_args(bin: &str, bad: &[&[&str]]) {
    for args in bad {
        let status = Command::new(bin).args(*args).output().unwrap().status;
        assert!(!status.success(), "accepted {args:?}");
    }
}

/// The validator's exit code and message on an input.
pub fn validate(bin: &str, input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(bin)
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
    assert!(found.len() >= at_least, "only {} inputs found", found.len());
    for path in found {
        let (code, message) = validate(bin, &std::fs::read(&path).unwrap());
        assert_eq!(code, Some(42), "{} rejected: {message}", path.display());
    }
}

/// The validator rejects each input, saying why.
pub fn assert_rejects_inputs<S: AsRef<str>>(bin: &str, bad: &[(&str, S)]) {
    for (what, input) in bad {
        let (code, message) = validate(bin, input.as_ref().as_bytes());
        assert_eq!(code, Some(43), "accepted: {what}");
        assert!(!message.is_empty(), "no reason given for: {what}");
    }
}

/// Inputs broken under any limits.
pub const BROKEN: &[(&str, &str)] = &[
    ("empty file", ""),
    ("T = 0", "0\n"),
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

/// A solution's output on an input; it must succeed.
pub fn run(bin: &str, input: &str) -> String {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn solution");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{bin} failed on\n{input}");
    String::from_utf8(output.stdout).unwrap()
}

/// The exhaustive search `brute` agrees with `reference` on 1000 random small
/// boards made by the generator's board makers, and the boards are varied
/// enough for that to mean something.
pub fn assert_brute_agrees(reference: &str, brute: &str) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut asuna, mut busy) = (0, 0);
    for batch in 0..100 {
        let boards: Vec<Board> = (0..10)
            .map(|_| {
                // Sides below 5 hold no monster; keep a few such boards.
                let (r, c) = (rng.random_range(4..=10), rng.random_range(4..=10));
                if batch % 4 == 3 {
                    let count = rng.random_range(1..=4);
                    crosses(&mut rng, r, c, count)
                } else {
                    let percent = rng.random_range(75..=100);
                    random(&mut rng, r, c, percent)
                }
            })
            .collect();
        busy += boards.iter().filter(|b| monster_count(b) >= 3).count();
        let input = format(&boards);
        let expected = run(reference, &input);
        assert_eq!(run(brute, &input), expected, "on\n{input}");
        asuna += expected.matches("Asuna").count();
    }
    // Both winners and real games must be well represented, or the
    // comparison proves little.
    assert!(
        (300..=700).contains(&asuna),
        "{asuna} of 1000 boards won by Asuna"
    );
    assert!(
        busy >= 300,
        "only {busy} of 1000 boards have 3 or more monsters"
    );
}
