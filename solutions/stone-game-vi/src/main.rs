//! Stone Game VI, reference: taking a stone gains the taker its own value and
//! denies the opponent theirs, so both players want the stone with the largest
//! a + b. Alice takes ranks 0, 2, 4, … of that order, and
//! Alice − Bob = Σ_{Alice's} (a + b) − Σ_all b, whatever the order among ties.

use std::cmp::Reverse;
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let alice: Vec<i64> = it.by_ref().take(n).collect();
    let bob: Vec<i64> = it.take(n).collect();

    let mut sums: Vec<i64> = alice.iter().zip(&bob).map(|(a, b)| a + b).collect();
    sums.sort_unstable_by_key(|&s| Reverse(s));
    let alice_gain: i64 = sums.iter().step_by(2).sum();
    let diff = alice_gain - bob.iter().sum::<i64>();
    println!("{}", diff.signum());
}
