//! A Game (IOI'96 / USACO game1), reference.
//!
//! The total is fixed, so the player to move on board a[i..=j] scores
//! f(i, j) = sum(i..=j) − min(f(i+1, j), f(i, j−1)): whatever the opponent
//! gets on the rest, the mover gets the remainder. Player 2 scores
//! total − f(0, N−1).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    // The numbers may span several lines: read tokens, not lines.
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<u32> = it.take(n).collect();

    let mut prefix = vec![0; n + 1];
    for (i, &v) in a.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    // f[i][j] for i ≤ j, filled by increasing length.
    let mut f = vec![vec![0u32; n]; n];
    for i in 0..n {
        f[i][i] = a[i];
    }
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            f[i][j] = prefix[j + 1] - prefix[i] - f[i + 1][j].min(f[i][j - 1]);
        }
    }
    let first = f[0][n - 1];
    println!("{} {}", first, prefix[n] - first);
}
