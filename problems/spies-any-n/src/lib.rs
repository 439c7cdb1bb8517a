//! Generator and validator logic for spies-any-n: the input is one integer n,
//! 1 <= n <= 999.

use judge_kit::Lines;
use rand::Rng;

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
            judge_kit::generator::rng(num(seed)?).random_range(lo..=hi)
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

/// Checks an input strictly: one line holding n (canonical, as [`Lines`] reads
/// integers), 1 <= n <= 999.
pub fn validate(input: &str) -> Result<u64, String> {
    let mut lines = Lines::new(input);
    let n = lines.int_line(1, MAX_N as i64, "n")?;
    lines.expect_end()?;
    Ok(n as u64)
}
