//! Exhaustive minimax per game: try every stone for the player to move and
//! recurse, without memo. Exact but O(n!); the brute force the tests compare
//! the reference with.

use std::fmt::Write as _;
use std::io::{Read, Write};

/// Best (mover's score − other's score) from here; `vals[0]` belongs to the
/// player to move.
fn best(vals: [&[i64]; 2], used: &mut [bool]) -> i64 {
    let mut result = None;
    for i in 0..used.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let score = vals[0][i] - best([vals[1], vals[0]], used);
        used[i] = false;
        result = Some(result.map_or(score, |r: i64| r.max(score)));
    }
    result.unwrap_or(0)
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = usize::try_from(it.next().unwrap()).unwrap();
        let alice: Vec<i64> = it.by_ref().take(n).collect();
        let bob: Vec<i64> = it.by_ref().take(n).collect();
        writeln!(out, "{}", best([&alice, &bob], &mut vec![false; n])).unwrap();
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
