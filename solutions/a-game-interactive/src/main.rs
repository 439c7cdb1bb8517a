//! A Game (IOI'96), played as player 1 against the referee. Reference.
//!
//! The total is fixed, so the player to move on row a[i..j] scores
//! f(i, j) = sum(i..j) − min(f(i+1, j), f(i, j−1)): whatever the opponent
//! makes of the rest, the mover gets the remainder. Each turn take the end
//! that leaves the opponent the smaller f, whatever the referee did before.

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
    let a: Vec<u32> = (0..n).map(|_| tokens.next().parse().unwrap()).collect();

    let mut prefix = vec![0; n + 1];
    for i in 0..n {
        prefix[i + 1] = prefix[i] + a[i];
    }
    // f[i][j]: the mover's best score on a[i..j]; f[i][i] = 0.
    let mut f = vec![vec![0u32; n + 1]; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len;
            f[i][j] = prefix[j] - prefix[i] - f[i + 1][j].min(f[i][j - 1]);
        }
    }

    let (mut i, mut j) = (0, n);
    let mut sums = [0, 0];
    let mut out = std::io::stdout();
    for _ in 0..n / 2 {
        if f[i + 1][j] <= f[i][j - 1] {
            sums[0] += a[i];
            i += 1;
            writeln!(out, "L").unwrap();
        } else {
            sums[0] += a[j - 1];
            j -= 1;
            writeln!(out, "R").unwrap();
        }
        out.flush().unwrap();
        if tokens.next() == "L" {
            sums[1] += a[i];
            i += 1;
        } else {
            sums[1] += a[j - 1];
            j -= 1;
        }
    }
    writeln!(out, "{} {}", sums[0], sums[1]).unwrap();
    out.flush().unwrap();
}
