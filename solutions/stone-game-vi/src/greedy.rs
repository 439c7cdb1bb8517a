//! Shared driver for the one-rule greedies: on each turn the player to move
//! takes the free stone with the largest key (their own rule), lowest index on
//! ties. These are the plausible-but-wrong strategies of the problem.

use std::cmp::Reverse;
use std::io::Read;

/// Reads the game, plays it with `alice_key` / `bob_key` deciding each pick,
/// and prints 1, -1 or 0.
pub fn play(alice_key: fn(i64, i64) -> i64, bob_key: fn(i64, i64) -> i64) {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let alice: Vec<i64> = it.by_ref().take(n).collect();
    let bob: Vec<i64> = it.take(n).collect();

    // Each player's preference order; a cursor skips stones already taken.
    let order = |key: fn(i64, i64) -> i64| {
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by_key(|&i| (Reverse(key(alice[i], bob[i])), i));
        idx
    };
    let prefs = [order(alice_key), order(bob_key)];
    let mut cursor = [0, 0];
    let mut taken = vec![false; n];
    let mut score = [0i64, 0];
    for turn in 0..n {
        let p = turn % 2;
        while taken[prefs[p][cursor[p]]] {
            cursor[p] += 1;
        }
        let i = prefs[p][cursor[p]];
        taken[i] = true;
        score[p] += if p == 0 { alice[i] } else { bob[i] };
    }
    println!("{}", (score[0] - score[1]).signum());
}
