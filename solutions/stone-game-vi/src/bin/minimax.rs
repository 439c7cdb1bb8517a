//! Exhaustive minimax: try every stone for the player to move and recurse,
//! without memo. Exact for any input but O(n!); it is the brute force the
//! tests compare the reference with.

use std::io::Read;

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
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let alice: Vec<i64> = it.by_ref().take(n).collect();
    let bob: Vec<i64> = it.take(n).collect();
    let diff = best([&alice, &bob], &mut vec![false; n]);
    println!("{}", diff.signum());
}
