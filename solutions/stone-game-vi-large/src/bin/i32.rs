//! The reference algorithm written with i32, as a port of the original
//! (values ≤ 100) would be. With values up to 10^9, a + b and the totals
//! wrap around (the judge builds without overflow checks).

use std::cmp::Reverse;
use std::fmt::Write as _;
use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i32>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = usize::try_from(it.next().unwrap()).unwrap();
        let alice: Vec<i32> = it.by_ref().take(n).collect();
        let bob: Vec<i32> = it.by_ref().take(n).collect();
        let mut sums: Vec<i32> = alice.iter().zip(&bob).map(|(a, b)| a + b).collect();
        sums.sort_unstable_by_key(|&s| Reverse(s));
        let alice_gain: i32 = sums.iter().step_by(2).sum();
        writeln!(out, "{}", alice_gain - bob.iter().sum::<i32>()).unwrap();
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
