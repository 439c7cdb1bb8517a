//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Layout, single spaces and a final newline on every line: `T`, then per game
//! `n` / `a_1 … a_n` / `b_1 … b_n`; 1 ≤ T ≤ 10^5, n ≥ 1, Σn ≤ 10^6, values in
//! 1..=10^9.

use std::io::Read;
use std::process::ExitCode;

const MAX_T: u64 = 100_000;
const MAX_TOTAL_N: u64 = 1_000_000;
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

/// Splits a line on single spaces, rejecting doubled, leading or trailing ones.
fn tokens<'a>(line: &'a str, what: &str) -> Result<Vec<&'a str>, String> {
    let toks: Vec<&str> = line.split(' ').collect();
    if toks.iter().any(|t| t.is_empty()) {
        return Err(format!("{what}: stray whitespace"));
    }
    Ok(toks)
}

/// The single integer a line must hold.
fn single(line: Option<&str>, lo: u64, hi: u64, what: &str) -> Result<u64, String> {
    let toks = tokens(line.ok_or_else(|| format!("{what}: missing line"))?, what)?;
    match toks[..] {
        [tok] => int(tok, lo, hi, what),
        _ => Err(format!("{what}: expected one integer")),
    }
}

fn validate(input: &str) -> Result<(), String> {
    let body = input
        .strip_suffix('\n')
        .ok_or("input must end with a newline")?;
    let mut lines = body.split('\n');
    let t = single(lines.next(), 1, MAX_T, "T")?;
    let mut total = 0;
    for game in 1..=t {
        let n = single(lines.next(), 1, MAX_TOTAL_N, &format!("game {game}: n"))?;
        total += n;
        if total > MAX_TOTAL_N {
            return Err(format!(
                "game {game}: more than {MAX_TOTAL_N} stones in all"
            ));
        }
        for who in ["Alice", "Bob"] {
            let what = format!("game {game}, {who}");
            let line = lines
                .next()
                .ok_or_else(|| format!("{what}: missing line"))?;
            let toks = tokens(line, &what)?;
            if toks.len() as u64 != n {
                return Err(format!("{what}: expected {n} values, found {}", toks.len()));
            }
            for tok in toks {
                int(tok, 1, MAX_V, &what)?;
            }
        }
    }
    match lines.next() {
        None => Ok(()),
        Some(_) => Err(format!("extra lines after game {t}")),
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
