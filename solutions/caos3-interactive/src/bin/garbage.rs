//! Reads the map, then sends a word where its first move belongs. WA: the
//! referee names the move and what it expected.

use std::io::{self, BufRead, Write};

fn main() {
    let mut lines = io::stdin().lock().lines().map(|l| l.unwrap());
    let first = lines.next().unwrap();
    let r: usize = first.split_whitespace().next().unwrap().parse().unwrap();
    for _ in 0..r {
        lines.next().unwrap();
    }
    let mut out = io::stdout().lock();
    writeln!(out, "volcano!").unwrap();
    out.flush().unwrap();
    // Wait for the referee to hang up rather than exit first: the verdict
    // must come from the garbage, not from an early exit.
    for _ in lines {}
}
