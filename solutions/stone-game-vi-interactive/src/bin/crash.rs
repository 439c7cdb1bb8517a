//! Takes the heaviest stone, then reads the referee's answer expecting
//! `index value` on the line; the value is not there and the unwrap panics:
//! a crash in the middle of the game (RE).

use std::io::{BufRead, Write};

fn main() {
    let mut lines = std::io::stdin().lock().lines().map(|l| l.unwrap());
    let _n = lines.next().unwrap();
    let parse = |line: String| -> Vec<u32> {
        line.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    };
    let alice = parse(lines.next().unwrap());
    let bob = parse(lines.next().unwrap());
    let heaviest = (0..alice.len()).max_by_key(|&i| alice[i] + bob[i]).unwrap();
    let mut out = std::io::stdout();
    writeln!(out, "{}", heaviest + 1).unwrap();
    out.flush().unwrap();
    let answer = lines.next().unwrap();
    let mut words = answer.split_whitespace();
    let index: usize = words.next().unwrap().parse().unwrap();
    let value: u32 = words.next().unwrap().parse().unwrap();
    writeln!(out, "{index} {value}").unwrap();
}
