//! The seed's first guess: Alice crosses out rows top to bottom and Bob takes
//! the smallest number still open in that row (leftmost on ties). O(n²), WA:
//! on the seed's 3×3 board it plays -3, -3, 1 = -5 where the value is -9.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || -> i64 { tokens.next().unwrap().parse().unwrap() };
    let t = next();
    let mut out = String::new();
    for _ in 0..t {
        let n = next() as usize;
        let m: Vec<Vec<i64>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
        let mut open = vec![true; n];
        let mut total = 0;
        for row in &m {
            let j = (0..n).filter(|&j| open[j]).min_by_key(|&j| row[j]).unwrap();
            open[j] = false;
            total += row[j];
        }
        out += &format!("{total}\n");
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
