//! Reads the board, then answers Alice's first row with a word instead of a
//! column. WA: the referee names the move and what it expected.

use std::io::{self, BufRead, Write};

fn main() {
    let mut lines = io::stdin().lock().lines().map(|l| l.unwrap());
    let mut out = io::stdout().lock();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    for _ in 0..=n {
        lines.next().unwrap();
    }
    writeln!(out, "left").unwrap();
    out.flush().unwrap();
    // Wait for the referee to hang up rather than exit first: the verdict
    // must come from the garbage, not from an early exit.
    for _ in lines {}
}
