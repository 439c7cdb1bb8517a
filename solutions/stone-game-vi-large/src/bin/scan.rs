//! The seed's approach 1 with i64 and the exact difference: every round, scan
//! all stones for the largest unused a + b (used ones marked −1). Correct, but
//! O(n^2) per game.

use std::fmt::Write as _;
use std::io::{Read, Write};

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
        let mut sum_score: Vec<i64> = alice.iter().zip(&bob).map(|(a, b)| a + b).collect();
        let (mut alice_score, mut bob_score) = (0, 0);
        for round in 1..=n {
            let mut best = i64::MIN;
            let mut x = 0;
            for (j, &s) in sum_score.iter().enumerate() {
                if s != -1 && best < s {
                    best = s;
                    x = j;
                }
            }
            sum_score[x] = -1;
            if round % 2 == 1 {
                alice_score += alice[x];
            } else {
                bob_score += bob[x];
            }
        }
        writeln!(out, "{}", alice_score - bob_score).unwrap();
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
