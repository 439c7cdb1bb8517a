//! Sends the first monster of the map as its move, but never flushes: the
//! move sits in its buffer while it waits for the referee's reply, which
//! never comes. TLE (the judge's wall-clock backstop ends the wait).

use std::io::{self, BufRead, BufWriter, Write};

fn main() {
    let mut lines = io::stdin().lock().lines().map(|l| l.unwrap());
    let mut out = BufWriter::new(io::stdout().lock());
    let first = lines.next().unwrap();
    let mut sides = first
        .split_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let (r, c) = (sides.next().unwrap(), sides.next().unwrap());
    let grid: Vec<Vec<u8>> = (0..r).map(|_| lines.next().unwrap().into_bytes()).collect();
    let caret = |i: usize, j: usize| grid[i][j] == b'^';
    let monster = |i: usize, j: usize| {
        (2..r.saturating_sub(2)).contains(&i)
            && (2..c.saturating_sub(2)).contains(&j)
            && caret(i, j)
            && (1..=2)
                .all(|d| caret(i - d, j) && caret(i + d, j) && caret(i, j - d) && caret(i, j + d))
    };
    let (x, y) = (0..r)
        .flat_map(|i| (0..c).map(move |j| (i, j)))
        .find(|&(i, j)| monster(i, j))
        .unwrap_or((0, 0));
    // The bug: no `out.flush()` before waiting for the reply.
    writeln!(out, "{} {}", x + 1, y + 1).unwrap();
    for _ in lines {}
}
