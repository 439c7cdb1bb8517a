//! Answers the first rows with the first open column, then indexes past the
//! end of its board in the third round (the last, on smaller boards) and
//! panics. RE.

use std::io::{self, BufRead, Write};

fn main() {
    let mut lines = io::stdin().lock().lines().map(|l| l.unwrap());
    let mut out = io::stdout().lock();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let board: Vec<Vec<i64>> = (0..n)
        .map(|_| {
            let line = lines.next().unwrap();
            line.split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect()
        })
        .collect();
    let mut open = vec![true; n];
    for round in 0..n {
        let row: usize = lines.next().unwrap().trim().parse().unwrap();
        // The bug: a 1-based row used as an index from round 3 on.
        let row = if round < 2.min(n - 1) {
            row - 1
        } else {
            row + n
        };
        let col = (0..n).find(|&j| open[j]).unwrap();
        open[col] = false;
        let _cell = board[row][col];
        writeln!(out, "{}", col + 1).unwrap();
        out.flush().unwrap();
    }
    unreachable!("the last round at the latest panics");
}
