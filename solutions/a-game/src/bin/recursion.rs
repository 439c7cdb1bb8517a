//! The seed's recurrence as plain recursion, without its memo table:
//! D(i, j) = max(a[i] + min(D(i+2, j), D(i+1, j−1)),
//!               a[j] + min(D(i+1, j−1), D(i, j−2))).
//! Correct, but four calls per two removed numbers make it O(2^N).

use std::io::Read;

/// Best score of the player to move on the board a[i..j] (half-open).
fn d(a: &[u32], i: usize, j: usize) -> u32 {
    match j - i {
        0 => 0,
        1 => a[i],
        _ => {
            let left = a[i] + d(a, i + 2, j).min(d(a, i + 1, j - 1));
            let right = a[j - 1] + d(a, i + 1, j - 1).min(d(a, i, j - 2));
            left.max(right)
        }
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<u32> = it.take(n).collect();
    let total: u32 = a.iter().sum();
    let first = d(&a, 0, n);
    println!("{} {}", first, total - first);
}
