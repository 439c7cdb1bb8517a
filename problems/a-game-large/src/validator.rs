//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Line 1 holds N alone (2 ≤ N ≤ 20000); the N values (1..=10^9) follow on one or
//! more non-empty lines, as the original allows. Tokens are separated by
//! single spaces and every line ends with a newline.

use std::io::Read;
use std::process::ExitCode;

const MIN_N: u64 = 2;
const MAX_N: u64 = 20_000;
const MAX_V: u64 = 1_000_000_000;

/// Parses a canonical decimal integer (no sign, no leading zeros) in `lo..=hi`.
fn int(tok: &str, lo: u64, hi: u64, what: &str) -> Result<u64, String> {
    let canonical = !tok.is_empty()
        && tok.len() <= 19
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

/// Splits a line on single spaces, rejecting empty lines and doubled, leading
/// or trailing spaces.
fn tokens<'a>(line: &'a str, what: &str) -> Result<Vec<&'a str>, String> {
    let toks: Vec<&str> = line.split(' ').collect();
    if toks.iter().any(|t| t.is_empty()) {
        return Err(format!("{what}: empty line or stray whitespace"));
    }
    Ok(toks)
}

fn validate(input: &str) -> Result<(), String> {
    let body = input
        .strip_suffix('\n')
        .ok_or("input must end with a newline")?;
    let mut lines = body.split('\n');
    let first = tokens(lines.next().unwrap_or_default(), "line 1")?;
    let [n] = first[..] else {
        return Err("line 1 must hold N alone".into());
    };
    let n = int(n, MIN_N, MAX_N, "N")?;
    let mut count = 0;
    for (idx, line) in lines.enumerate() {
        let what = format!("line {}", idx + 2);
        for tok in tokens(line, &what)? {
            count += 1;
            if count > n {
                return Err(format!("{what}: more than N = {n} values"));
            }
            int(tok, 1, MAX_V, &what)?;
        }
    }
    if count == n {
        Ok(())
    } else {
        Err(format!("expected {n} values, found {count}"))
    }
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
