//! "Grid Game, large" (UVa 11553 with n ≤ 500, |M(i,j)| ≤ 10^9), reference.
//!
//! Bob answers every row Alice crosses out, so her order is irrelevant: Bob
//! just plays a fixed row→column matching, and the value of the game is the
//! minimum-cost perfect assignment of the board. Hungarian algorithm with
//! potentials, O(n³) per board, in i64: sums reach 5·10^11 and potentials
//! stay within n·2·10^9 in absolute value.

use std::io::{self, Read, Write};

/// Minimum sum of `a[i][σ(i)]` over permutations σ; `a` is n×n, row-major.
///
/// Hungarian algorithm with potentials in its shortest-augmenting-path form:
/// rows are inserted one at a time, and each insertion runs Dijkstra over the
/// columns on reduced costs `a[i][j] - u[i] - v[j]` (kept ≥ 0) until it reaches
/// a free column. O(n³) worst case.
fn min_assignment(a: &[i64], n: usize) -> i64 {
    const NONE: usize = usize::MAX;
    // Column reduction: v[j] = the column minimum is a feasible start (all
    // reduced costs ≥ 0) that already absorbs additive column structure.
    let mut u = vec![0i64; n];
    let mut v: Vec<i64> = (0..n)
        .map(|j| (0..n).map(|i| a[i * n + j]).min().unwrap())
        .collect();
    let mut row_of = vec![NONE; n]; // column → its matched row
    let mut dist = vec![0i64; n];
    let mut pred = vec![NONE; n]; // column → previous column on the path (NONE: the new row)
    // A permutation of the columns: during a Dijkstra run, cols[..settled] are
    // the settled ones, so the inner loops walk only the unsettled tail.
    let mut cols: Vec<usize> = (0..n).collect();
    for i in 0..n {
        let row = &a[i * n..(i + 1) * n];
        // On ties prefer a free column: it ends the search at once, which keeps
        // boards with many equal numbers at O(n²) per row or better.
        let better = |d: i64, c: usize, best: i64, row_of: &[usize]| {
            d < best || (d == best && row_of[c] == NONE)
        };
        let (mut best, mut best_k) = (i64::MAX, 0);
        for (k, &c) in cols.iter().enumerate() {
            dist[c] = row[c] - u[i] - v[c];
            pred[c] = NONE;
            if better(dist[c], c, best, &row_of) {
                (best, best_k) = (dist[c], k);
            }
        }
        let mut settled = 0;
        let (sink, d) = loop {
            cols.swap(settled, best_k);
            let j = cols[settled];
            settled += 1;
            let d = best;
            let r = row_of[j];
            if r == NONE {
                break (j, d);
            }
            // Edge (r, j) is tight, so reaching column c through row r costs
            // d + a[r][c] - u[r] - v[c]. Relax and find the next minimum in one pass.
            let rrow = &a[r * n..(r + 1) * n];
            let base = d - u[r];
            (best, best_k) = (i64::MAX, settled);
            for (k, &c) in cols.iter().enumerate().skip(settled) {
                let nd = base + rrow[c] - v[c];
                if nd < dist[c] {
                    dist[c] = nd;
                    pred[c] = j;
                }
                if better(dist[c], c, best, &row_of) {
                    (best, best_k) = (dist[c], k);
                }
            }
        };
        // Shift potentials so every settled column's matched edge stays tight
        // and the path from row i becomes tight too.
        u[i] += d;
        for &j in &cols[..settled] {
            if j != sink {
                let shift = d - dist[j];
                v[j] -= shift;
                u[row_of[j]] += shift;
            }
        }
        // Augment: shift the matching along the path back to row i.
        let mut j = sink;
        loop {
            let pj = pred[j];
            if pj == NONE {
                row_of[j] = i;
                break;
            }
            row_of[j] = row_of[pj];
            j = pj;
        }
    }
    (0..n).map(|j| a[row_of[j] * n + j]).sum()
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
