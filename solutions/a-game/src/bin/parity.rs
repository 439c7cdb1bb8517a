//! The IOI'96 Scientific Committee's strategy: with N even, player 1 can
//! always take every odd-indexed or every even-indexed number, so he takes
//! the richer class and reports `Sel Sum-Sel`. That guarantees a win (or
//! tie) but not the best score, and for odd N the classes are not even
//! reachable: wrong for this problem.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<u32> = it.take(n).collect();
    let odd: u32 = a.iter().step_by(2).sum();
    let even: u32 = a.iter().skip(1).step_by(2).sum();
    let sel = odd.max(even);
    println!("{} {}", sel, odd + even - sel);
}
