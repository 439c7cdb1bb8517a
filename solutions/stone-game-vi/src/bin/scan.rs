//! The seed's approach 1: every round, scan all stones for the largest unused
//! a + b (marking used ones with −1). Correct, but O(n^2).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i32>().unwrap());
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let alice: Vec<i32> = it.by_ref().take(n).collect();
    let bob: Vec<i32> = it.take(n).collect();

    let mut sum_score: Vec<i32> = alice.iter().zip(&bob).map(|(a, b)| a + b).collect();
    let (mut alice_score, mut bob_score) = (0, 0);
    for round in 1..=n {
        let mut best = i32::MIN;
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
    let verdict: i32 = match alice_score.cmp(&bob_score) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
    };
    println!("{verdict}");
}
