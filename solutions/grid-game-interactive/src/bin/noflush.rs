//! Answers each row with the first open column but never flushes: the
//! answer sits in its buffer while it waits for the next row, which never
//! comes. TLE (the judge's wall-clock backstop ends the wait).

use std::io::{self, BufRead, BufWriter, Write};

fn main() {
    let mut lines = io::stdin().lock().lines().map(|l| l.unwrap());
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    for _ in 0..n {
        lines.next().unwrap();
    }
    let mut open = vec![true; n];
    for _ in 0..n {
        lines.next().unwrap();
        let col = (0..n).find(|&j| open[j]).unwrap();
        open[col] = false;
        // The bug: no `out.flush()` here.
        writeln!(out, "{}", col + 1).unwrap();
    }
    writeln!(out, "0").unwrap();
    // Like any program that reads to the end before exiting; the referee is
    // still waiting for the first answer, so the end never comes.
    for _ in lines {}
}
