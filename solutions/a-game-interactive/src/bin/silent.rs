//! Plays the larger end but writes through a buffer it never flushes, then
//! waits for the referee's answer: the referee never sees the move and both
//! wait forever (TLE, by the judge's wall-clock backstop).

use std::io::{BufRead, BufWriter, Write};

fn main() {
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout());
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    line.clear();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    let a: Vec<u32> = line
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let end = if a[0] >= a[a.len() - 1] { "L" } else { "R" };
    writeln!(out, "{end}").unwrap();
    // The move sits in the buffer; the answer never comes.
    line.clear();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    writeln!(out, "{line}").unwrap();
}
