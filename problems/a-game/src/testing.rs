//! Helpers for the generator and validator tests of this crate and of
//! `a-game-large-tools`, and for the solutions' brute-force tests; they drive
//! the built binaries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::{Kind, Layout, Value, board_of, render};

/// Runs a binary on arguments.
pub fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().unwrap()
}

/// The generator's output is a function of its arguments, and the seed matters.
pub fn assert_deterministic(bin: &str, same: &[[&str; 5]], differ: [[&str; 5]; 2]) {
    for args in same {
        let (a, b) = (run(bin, args), run(bin, args));
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(run(bin, &differ[0]).stdout, run(bin, &differ[1]).stdout);
}

/// The layout changes how the 30 values of a board are broken into lines,
/// not the values.
pub fn assert_layout_changes_lines_not_board(bin: &str) {
    let tokens = |layout| {
        let out = run(bin, &["random", "30", "200", layout, "3"]).stdout;
        let text = String::from_utf8(out).unwrap();
        let lines = text.lines().count();
        let toks: Vec<String> = text.split_whitespace().map(String::from).collect();
        (toks, lines)
    };
    let (line, one) = tokens("line");
    let (column, thirty_one) = tokens("column");
    let (wrap, five) = tokens("wrap7");
    assert_eq!((one, thirty_one, five), (2, 31, 6));
    assert!(line == column && line == wrap);
}

/// The generator fails on each of these argument lists.
pub fn assert_rejects(bin: &str, bad: &[&[&str]]) {
    for args in bad {
        assert!(!run(bin, args).status.success(), "{args:?}");
    }
}

/// Generator arguments wrong under any bounds.
pub const BAD_ARGS: &[&[&str]] = &[
    &["random", "1", "200", "line", "1"],
    &["random", "10", "200", "wrap0", "1"],
    &["random", "10", "200", "zigzag", "1"],
    &["bogus", "10", "200", "line", "1"],
    &["random", "10", "200", "line"],
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
/// at least `at_least`.
pub fn assert_accepts_committed(bin: &str, package: &str, at_least: usize) {
    let mut found = Vec::new();
    inputs(&Path::new(package).join("data"), &mut found);
    assert!(
        found.len() >= at_least,
        "expected the committed tests, found {}",
        found.len()
    );
    for path in found {
        let code = validate(bin, &std::fs::read(&path).unwrap());
        assert_eq!(code, 42, "rejected {}", path.display());
    }
}

/// Inputs valid under any bounds.
pub const EDGES: &[&[u8]] = &[b"6\n4 7 2 9\n5 2\n", b"3\n1\n2\n3\n"];

/// The validator rejects each described input.
pub fn assert_rejects_inputs(bin: &str, bad: &[(&str, &[u8])]) {
    for (what, input) in bad {
        assert_eq!(validate(bin, input), 43, "accepted: {what}");
    }
}

/// Inputs malformed under any bounds.
pub const MALFORMED: &[(&str, &[u8])] = &[
    ("N = 1", b"1\n5\n"),
    ("value 0", b"2\n0 5\n"),
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

/// A solution's output on an input; it must succeed.
pub fn solve(bin: &str, input: &str) -> String {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{bin} failed on\n{input}");
    String::from_utf8(out.stdout).unwrap()
}

/// On 1000 random boards of 2 to 14 values, at most `max_vs[round % 3]`,
/// `reference` agrees with the full game tree `minimax`, and on every tenth
/// board `also` agrees too.
pub fn assert_matches_brute<V: Value>(max_vs: [V; 3], reference: &str, minimax: &str, also: &str) {
    let layouts = [
        Layout::Line,
        Layout::Column,
        Layout::Wrap(3),
        Layout::Ragged,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1996);
    for round in 0..1000 {
        let max_v = max_vs[round % 3];
        let kind = match round % 10 {
            9 => Kind::Const,
            7 | 8 => Kind::Spikes,
            _ => Kind::Random,
        };
        let n = rng.random_range(2..=14);
        let b = board_of(&mut rng, kind, n, max_v);
        let input = render(&mut rng, &b, layouts[round % layouts.len()]);
        let expected = solve(minimax, &input);
        assert_eq!(solve(reference, &input), expected, "on\n{input}");
        if round % 10 == 0 {
            assert_eq!(solve(also, &input), expected, "on\n{input}");
        }
    }
}
