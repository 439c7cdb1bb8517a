//! Strict input validator (Kattis protocol: exit 42 valid, 43 invalid).
//!
//! Expected layout, single spaces and a final newline on every line:
//! `n` / `a_1 … a_n` / `b_1 … b_n`, with 1 ≤ n ≤ 10^5 and values in 1..=100.

use judge_kit::Lines;

const MAX_N: i64 = 100_000;
const MAX_V: i64 = 100;

fn validate(input: &str) -> Result<(), String> {
    let mut lines = Lines::new(input);
    let n = lines.int_line(1, MAX_N, "n")?;
    for who in ["Alice's values", "Bob's values"] {
        lines.ints_in(n as usize, 1, MAX_V, who)?;
    }
    lines.expect_end()
}

fn main() {
    judge_kit::validator::check(validate)
}
