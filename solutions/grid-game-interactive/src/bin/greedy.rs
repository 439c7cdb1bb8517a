//! Bob answers each row with its smallest open number (leftmost on ties):
//! locally best, but it burns columns that later rows need. WA: the referee
//! strikes out rows whose smallest number is a trap.

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
    let mut total = 0;
    for _ in 0..n {
        let row: usize = lines.next().unwrap().trim().parse::<usize>().unwrap() - 1;
        let col = (0..n)
            .filter(|&j| open[j])
            .min_by_key(|&j| board[row][j])
            .unwrap();
        open[col] = false;
        total += board[row][col];
        writeln!(out, "{}", col + 1).unwrap();
        out.flush().unwrap();
    }
    writeln!(out, "{total}").unwrap();
    out.flush().unwrap();
}
