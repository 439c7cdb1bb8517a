//! Stone Game VI (LeetCode 1686), played as Alice against the referee.
//! Reference.
//!
//! Alice − Bob = Σ_{Alice's}(a + b) − Σ_all b: taking a stone gains the
//! taker its own value and denies the opponent theirs, so each stone is
//! worth a + b to whoever takes it, and from any position the best move is a
//! stone left with the largest a + b, whatever was taken before.

use std::cmp::Reverse;
use std::io::{BufRead, Write};

/// Whitespace-separated tokens of stdin, read a line at a time so that we
/// never wait for more than the referee has sent.
struct Tokens {
    pending: Vec<String>,
}

impl Tokens {
    fn next(&mut self) -> String {
        while self.pending.is_empty() {
            let mut line = String::new();
            if std::io::stdin().lock().read_line(&mut line).unwrap() == 0 {
                panic!("the referee closed the game");
            }
            self.pending = line.split_whitespace().rev().map(String::from).collect();
        }
        self.pending.pop().unwrap()
    }
}

fn main() {
    let mut tokens = Tokens {
        pending: Vec::new(),
    };
    let n: usize = tokens.next().parse().unwrap();
    let alice: Vec<i64> = (0..n).map(|_| tokens.next().parse().unwrap()).collect();
    let bob: Vec<i64> = (0..n).map(|_| tokens.next().parse().unwrap()).collect();

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| Reverse(alice[i] + bob[i]));
    let mut next = 0;
    let mut taken = vec![false; n];
    let mut diff = 0;
    let mut out = std::io::stdout();
    for turn in 0..n {
        if turn % 2 == 0 {
            while taken[order[next]] {
                next += 1;
            }
            let stone = order[next];
            taken[stone] = true;
            diff += alice[stone];
            writeln!(out, "{}", stone + 1).unwrap();
            out.flush().unwrap();
        } else {
            let stone = tokens.next().parse::<usize>().unwrap() - 1;
            taken[stone] = true;
            diff -= bob[stone];
        }
    }
    writeln!(out, "{diff}").unwrap();
    out.flush().unwrap();
}
