//! Plays stone 1 but writes through a buffer it never flushes, then waits
//! for the referee's answer: the referee never sees the move and both wait
//! forever (TLE, by the judge's wall-clock backstop).

use std::io::{BufRead, BufWriter, Write};

fn main() {
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout());
    let mut lines = std::io::stdin().lock().lines();
    for _ in 0..3 {
        lines.next();
    }
    writeln!(out, "1").unwrap();
    // The move sits in the buffer; the answer never comes.
    let answer = lines.next();
    writeln!(out, "{answer:?}").unwrap();
}
