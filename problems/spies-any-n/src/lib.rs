//! Generator and validator logic for spies-any-n: the input is one integer n,
//! 1 <= n <= 999.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use spies_revised_tools::{Answer, feasible, find_defect, parse_answer};

pub const MAX_N: u64 = 999;

/// A board size from the generator's arguments:
/// `fixed N` gives N; `random LO HI SEED` gives a seeded uniform N in LO..=HI.
pub fn board_size(args: &[String]) -> Result<u64, String> {
    let num = |s: &String| s.parse::<u64>().map_err(|_| format!("not a number: {s:?}"));
    let n = match args {
        [mode, n] if mode == "fixed" => num(n)?,
        [mode, lo, hi, seed] if mode == "random" => {
            let (lo, hi) = (num(lo)?, num(hi)?);
            if lo > hi {
                return Err(format!("empty range {lo}..={hi}"));
            }
            ChaCha8Rng::seed_from_u64(num(seed)?).random_range(lo..=hi)
        }
        _ => return Err("usage: fixed N | random LO HI SEED".to_string()),
    };
    if !(1..=MAX_N).contains(&n) {
        return Err(format!("n = {n} is outside 1..={MAX_N}"));
    }
    Ok(n)
}

/// The test input for board size n.
pub fn input(n: u64) -> String {
    format!("{n}\n")
}

/// Checks an input strictly: one line holding n (no sign, no leading zero), 1 <= n <= 999.
pub fn validate(input: &[u8]) -> Result<u64, String> {
    let text = std::str::from_utf8(input).map_err(|_| "input is not UTF-8".to_string())?;
    let line = text
        .strip_suffix('\n')
        .ok_or("the input must be one line ending in a newline")?;
    if line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected one unsigned integer, got {line:?}"));
    }
    if line.starts_with('0') || line.len() > 3 {
        return Err(format!(
            "n = {line} is outside 1..={MAX_N} (or has a leading zero)"
        ));
    }
    line.parse().map_err(|_| format!("bad integer {line:?}"))
}
