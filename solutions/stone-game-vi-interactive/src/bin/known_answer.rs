//! Knows the answer but does not play it: computes the optimal D (the
//! offline problem's answer, by sorting on a + b) and reports it, but takes
//! the stones left in index order. Wrong: D must be that of the game played,
//! and the referee makes the index order pay.

use std::cmp::Reverse;
use std::io::{BufRead, Write};

fn main() {
    let mut lines = std::io::stdin().lock().lines().map(|l| l.unwrap());
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let mut row = || -> Vec<i64> {
        let line = lines.next().unwrap();
        line.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    };
    let (alice, bob) = (row(), row());
    let mut sums: Vec<i64> = alice.iter().zip(&bob).map(|(a, b)| a + b).collect();
    sums.sort_unstable_by_key(|&s| Reverse(s));
    let optimal: i64 = sums.iter().step_by(2).sum::<i64>() - bob.iter().sum::<i64>();

    let mut taken = vec![false; n];
    let mut next = 0;
    let mut out = std::io::stdout();
    for turn in 0..n {
        if turn % 2 == 0 {
            while taken[next] {
                next += 1;
            }
            taken[next] = true;
            writeln!(out, "{}", next + 1).unwrap();
            out.flush().unwrap();
        } else {
            let stone: usize = lines.next().unwrap().trim().parse().unwrap();
            taken[stone - 1] = true;
        }
    }
    writeln!(out, "{optimal}").unwrap();
    out.flush().unwrap();
}
