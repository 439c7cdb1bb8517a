//! UVa 11553 "Grid Game", reference.
//!
//! Bob answers every row Alice crosses out, so her order is irrelevant: Bob
//! just plays a fixed row→column matching, and the value of the game is the
//! minimum-cost perfect assignment of the board. Hungarian algorithm with
//! potentials, O(n³) per board (the same solver as `grid-game-large`).

use std::io::{self, Read, Write};

/// Minimum sum of `a[i][σ(i)]` over permutations σ; `a` is n×n, row-major.
fn min_assignment(a: &[i64], n: usize) -> i64 {
    // 1-based potentials u (rows), v (columns); p[j] = row matched to column j,
    // with column 0 a virtual column holding the row being inserted.
    let inf = i64::MAX / 4;
    let (mut u, mut v) = (vec![0i64; n + 1], vec![0i64; n + 1]);
    let (mut p, mut way) = (vec![0usize; n + 1], vec![0usize; n + 1]);
    let mut minv = vec![inf; n + 1];
    let mut used = vec![false; n + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        minv.fill(inf);
        used.fill(false);
        // Dijkstra-like growth of the alternating tree until a free column is hit.
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let row = &a[(i0 - 1) * n..i0 * n];
            let (mut delta, mut j1) = (inf, 0);
            for j in 1..=n {
                if !used[j] {
                    let cur = row[j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        // Flip the augmenting path back to the virtual column.
        while j0 != 0 {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        }
    }
    (1..=n).map(|j| a[(p[j] - 1) * n + j - 1]).sum()
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || -> i64 { tokens.next().unwrap().parse().unwrap() };
    let t = next();
    let mut out = String::new();
    for _ in 0..t {
        let n = next() as usize;
        let a: Vec<i64> = (0..n * n).map(|_| next()).collect();
        out += &format!("{}\n", min_assignment(&a, n));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
