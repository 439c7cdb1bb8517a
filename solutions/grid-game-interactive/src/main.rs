//! Grid Game, played as Bob: the least total Alice can be held to is the
//! minimum-cost perfect matching of rows to columns (Hungarian method,
//! O(n³)). Bob fixes one such matching and answers every row with its
//! partner column, whatever order Alice strikes the rows out in.

use std::io::{self, BufRead, Write};

/// Whitespace-separated tokens of stdin, read a line at a time (never past
/// what the referee has sent, or the game would deadlock).
struct Scanner {
    stdin: io::StdinLock<'static>,
    pending: Vec<String>,
}

impl Scanner {
    fn next(&mut self) -> i64 {
        while self.pending.is_empty() {
            let mut line = String::new();
            if self.stdin.read_line(&mut line).unwrap() == 0 {
                panic!("the referee closed the game");
            }
            self.pending = line.split_whitespace().rev().map(String::from).collect();
        }
        self.pending.pop().unwrap().parse().unwrap()
    }
}

/// `partner[i]`: the column of row i in a minimum-cost perfect matching.
fn min_matching(cost: &[Vec<i64>]) -> Vec<usize> {
    let n = cost.len();
    // 1-based rows and columns; column 0 is a virtual one holding the row
    // being inserted. owner[j]: row on column j (0 = none).
    let (mut u, mut v) = (vec![0i64; n + 1], vec![0i64; n + 1]);
    let mut owner = vec![0usize; n + 1];
    let mut prev = vec![0usize; n + 1];
    for row in 1..=n {
        owner[0] = row;
        let mut slack = vec![i64::MAX; n + 1];
        let mut used = vec![false; n + 1];
        let mut col = 0;
        while owner[col] != 0 {
            used[col] = true;
            let i = owner[col];
            let (mut delta, mut next) = (i64::MAX, 0);
            for j in 1..=n {
                if !used[j] {
                    let reduced = cost[i - 1][j - 1] - u[i] - v[j];
                    if reduced < slack[j] {
                        slack[j] = reduced;
                        prev[j] = col;
                    }
                    if slack[j] < delta {
                        delta = slack[j];
                        next = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[owner[j]] += delta;
                    v[j] -= delta;
                } else {
                    slack[j] -= delta;
                }
            }
            col = next;
        }
        while col != 0 {
            let p = prev[col];
            owner[col] = owner[p];
            col = p;
        }
    }
    let mut partner = vec![0; n];
    for j in 1..=n {
        partner[owner[j] - 1] = j - 1;
    }
    partner
}

fn main() {
    let mut input = Scanner {
        stdin: io::stdin().lock(),
        pending: Vec::new(),
    };
    let mut out = io::stdout().lock();
    let n = input.next() as usize;
    let board: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..n).map(|_| input.next()).collect())
        .collect();
    let partner = min_matching(&board);
    let mut total = 0;
    for _ in 0..n {
        let row = input.next() as usize - 1;
        let col = partner[row];
        total += board[row][col];
        writeln!(out, "{}", col + 1).unwrap();
        out.flush().unwrap();
    }
    writeln!(out, "{total}").unwrap();
    out.flush().unwrap();
}
