//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Expected layout, single spaces and a final newline on every line:
//! `n` / `a_1 … a_n` / `b_1 … b_n`, with 1 ≤ n ≤ 10^5 and values in 1..=100.

use std::io::Read;
use std::process::ExitCode;

const MAX_N: u64 = 100_000;
const MAX_V: u64 = 100;

/// Parses a canonical decimal integer (no sign, no leading zeros) in `lo..=hi`.
fn int(tok: &str, lo: u64, hi: u64, what: &str) -> Result<u64, String> {
    let canonical = !tok.is_empty()
        && tok.bytes().all(|c| c.is_ascii_digit())
        && (tok == "0" || !tok.starts_with('0'));
    let v: u64 = canonical
        .then(|| tok.parse().ok())
        .flatten()
        .ok_or_else(|| format!("{what}: `{tok}` is not a plain integer"))?;
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{what}: {v} is outside {lo}..={hi}"))
    }
}

/// Splits a line on single spaces, rejecting empty tokens (doubled, leading or
/// trailing spaces).
fn tokens<'a>(line: &'a str, what: &str) -> Result<Vec<&'a str>, String> {
    let toks: Vec<&str> = line.split(' ').collect();
    if toks.iter().any(|t| t.is_empty()) {
        return Err(format!("{what}: stray whitespace"));
    }
    Ok(toks)
}

fn validate(input: &str) -> Result<(), String> {
    let body = input
        .strip_suffix('\n')
        .ok_or("input must end with a newline")?;
    let lines: Vec<&str> = body.split('\n').collect();
    if lines.len() != 3 {
        return Err(format!("expected 3 lines, found {}", lines.len()));
    }
    let first = tokens(lines[0], "line 1")?;
    if first.len() != 1 {
        return Err("line 1 must hold n alone".into());
    }
    let n = int(first[0], 1, MAX_N, "n")?;
    for (idx, who) in [(1, "Alice"), (2, "Bob")] {
        let toks = tokens(lines[idx], who)?;
        if toks.len() as u64 != n {
            return Err(format!("{who}: expected {n} values, found {}", toks.len()));
        }
        for tok in toks {
            int(tok, 1, MAX_V, who)?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("input is not valid UTF-8");
        return ExitCode::from(43);
    }
    match validate(&input) {
        Ok(()) => ExitCode::from(42),
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(43)
        }
    }
}
