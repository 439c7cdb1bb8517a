//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Layout, single spaces and a final newline on every line: `T`, then per game
//! `n` / `a_1 … a_n` / `b_1 … b_n`; 1 ≤ T ≤ 10^5, n ≥ 1, Σn ≤ 10^6, values in
//! 1..=10^9.

use judge_kit::Lines;

const MAX_T: i64 = 100_000;
const MAX_TOTAL_N: i64 = 1_000_000;
const MAX_V: i64 = 1_000_000_000;

fn validate(input: &str) -> Result<(), String> {
    let mut lines = Lines::new(input);
    let t = lines.int_line(1, MAX_T, "T")?;
    let mut total = 0;
    for game in 1..=t {
        let n = lines.int_line(1, MAX_TOTAL_N, &format!("n of game {game}"))?;
        total += n;
        if total > MAX_TOTAL_N {
            return Err(format!(
                "line {}: more than {MAX_TOTAL_N} stones in all",
                lines.line()
            ));
        }
        for who in ["Alice", "Bob"] {
            lines.ints_in(
                n as usize,
                1,
                MAX_V,
                &format!("{who}'s values in game {game}"),
            )?;
        }
    }
    lines.expect_end()
}

fn main() {
    judge_kit::validator::check(validate)
}
