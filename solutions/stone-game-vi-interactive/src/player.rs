//! Shared driver for the one-rule players: on each of its turns Alice takes
//! the stone left with the largest `key(a, b)` (lowest index on a tie), then
//! reports the D of the game played. These are the plausible but wrong
//! strategies of the problem.

use std::cmp::Reverse;
use std::io::{BufRead, Write};

/// The next whitespace-separated token of stdin, read a line at a time.
fn token(pending: &mut Vec<String>) -> String {
    while pending.is_empty() {
        let mut line = String::new();
        if std::io::stdin().lock().read_line(&mut line).unwrap() == 0 {
            panic!("the referee closed the game");
        }
        *pending = line.split_whitespace().rev().map(String::from).collect();
    }
    pending.pop().unwrap()
}

pub fn play(key: fn(i64, i64) -> i64) {
    let mut pending = Vec::new();
    let n: usize = token(&mut pending).parse().unwrap();
    let alice: Vec<i64> = (0..n)
        .map(|_| token(&mut pending).parse().unwrap())
        .collect();
    let bob: Vec<i64> = (0..n)
        .map(|_| token(&mut pending).parse().unwrap())
        .collect();

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (Reverse(key(alice[i], bob[i])), i));
    let mut next = 0;
    let mut taken = vec![false; n];
    let mut diff = 0;
    let mut out = std::io::stdout();
    for turn in 0..n {
        let stone = if turn % 2 == 0 {
            while taken[order[next]] {
                next += 1;
            }
            let stone = order[next];
            diff += alice[stone];
            writeln!(out, "{}", stone + 1).unwrap();
            out.flush().unwrap();
            stone
        } else {
            let stone = token(&mut pending).parse::<usize>().unwrap() - 1;
            diff -= bob[stone];
            stone
        };
        taken[stone] = true;
    }
    writeln!(out, "{diff}").unwrap();
    out.flush().unwrap();
}
