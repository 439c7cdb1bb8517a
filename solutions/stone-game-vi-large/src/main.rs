//! Stone Game VI, many games with values up to 10^9, reference.
//!
//! Taking a stone gains the taker its own value and denies the opponent
//! theirs, so both players take stones in decreasing a + b. Alice gets ranks
//! 0, 2, 4, … and Alice − Bob = Σ_{Alice's} (a + b) − Σ_all b, which is the
//! same however ties are ordered. Sums reach 2·10^15: i64.

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
    let mut sums = Vec::new();
    for _ in 0..t {
        let n = usize::try_from(it.next().unwrap()).unwrap();
        let alice: Vec<i64> = it.by_ref().take(n).collect();
        let mut bob_total = 0;
        sums.clear();
        for a in alice {
            let b = it.next().unwrap();
            bob_total += b;
            sums.push(a + b);
        }
        sums.sort_unstable_by_key(|&s| Reverse(s));
        let alice_gain: i64 = sums.iter().step_by(2).sum();
        writeln!(out, "{}", alice_gain - bob_total).unwrap();
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
