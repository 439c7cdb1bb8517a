//! A Game with N ≤ 20000 and values up to 10^9, reference.
//!
//! The player to move on a[i..=j] scores f(i, j) = sum(i..=j) −
//! min(f(i+1, j), f(i, j−1)). Boards of length `len` only need those of
//! length `len − 1`, so one row indexed by the left end suffices: updating
//! `f[i]` in increasing `i` still sees the old `f[i + 1]`. O(N^2) time, O(N)
//! memory; scores reach 2·10^13, hence i64.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    // The numbers may span several lines: read tokens, not lines.
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let a: Vec<i64> = it.take(n).collect();

    let mut prefix = vec![0; n + 1];
    for (i, &v) in a.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    // f[i] = best score of the mover on the board of the current length starting at i.
    let mut f = a;
    for len in 2..=n {
        for i in 0..=n - len {
            f[i] = prefix[i + len] - prefix[i] - f[i].min(f[i + 1]);
        }
    }
    println!("{} {}", f[0], prefix[n] - f[0]);
}
