//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Layout, single spaces and a final newline on every line: `t` (1..=5), then
//! per board a line `n` (1..=500) and n lines of n integers in -10^9..=10^9.

use std::io::Read;
use std::process::ExitCode;

const MAX_T: i64 = 5;
const MAX_N: i64 = 500;
const MAX_ABS: i64 = 1_000_000_000;

/// Parses a canonical decimal integer (optional `-`, no leading zeros, no
/// `-0`) in `lo..=hi`.
fn int(tok: &str, lo: i64, hi: i64, what: &str) -> Result<i64, String> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    let canonical = !digits.is_empty()
        && digits.len() <= 18
        && digits.bytes().all(|c| c.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && tok != "-0";
    let v: i64 = canonical
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
/// trailing spaces, tabs are not separators).
fn tokens<'a>(line: &'a str, what: &str) -> Result<Vec<&'a str>, String> {
    let toks: Vec<&str> = line.split(' ').collect();
    if toks.iter().any(|t| t.is_empty()) {
        return Err(format!("{what}: stray whitespace"));
    }
    Ok(toks)
}

/// The next line, which must hold exactly one integer in `lo..=hi`.
fn single<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    lo: i64,
    hi: i64,
    what: &str,
) -> Result<i64, String> {
    let (no, line) = lines
        .next()
        .ok_or_else(|| format!("missing the line with {what}"))?;
    let toks = tokens(line, &format!("line {no}"))?;
    if toks.len() != 1 {
        return Err(format!("line {no}: expected {what} alone"));
    }
    int(toks[0], lo, hi, &format!("line {no}: {what}"))
}

fn validate(input: &str) -> Result<(), String> {
    let body = input
        .strip_suffix('\n')
        .ok_or("input must end with a newline")?;
    let mut lines = body.split('\n').enumerate().map(|(i, l)| (i + 1, l));
    let t = single(&mut lines, 1, MAX_T, "t")?;
    for case in 1..=t {
        let n = single(&mut lines, 1, MAX_N, &format!("n of board {case}"))?;
        for _ in 0..n {
            let (no, line) = lines
                .next()
                .ok_or_else(|| format!("board {case}: fewer than {n} rows"))?;
            let what = format!("line {no}");
            let toks = tokens(line, &what)?;
            if toks.len() as i64 != n {
                return Err(format!(
                    "{what}: expected {n} numbers, found {}",
                    toks.len()
                ));
            }
            for tok in toks {
                int(tok, -MAX_ABS, MAX_ABS, &what)?;
            }
        }
    }
    if let Some((no, _)) = lines.next() {
        return Err(format!("line {no}: unexpected data after {t} boards"));
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
