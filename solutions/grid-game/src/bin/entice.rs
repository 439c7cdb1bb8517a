//! The seed's "Alice entices Bob" idea made precise: assume Bob greedily takes
//! the smallest open number of each row Alice names (leftmost on ties), and
//! let Alice choose the row order that makes this greedy Bob pay the most
//! (every order tried, n!·n²). WA: a perfect Bob is not greedy, so the answer
//! is too high whenever enticing works (the seed's 3×3 board: -1, not -9).

use std::io::{self, Read, Write};

/// Best total Alice can force against a greedy Bob with `rows`/`cols` open.
fn entice(m: &[Vec<i64>], rows: u32, cols: u32) -> i64 {
    if rows == 0 {
        return 0;
    }
    let n = m.len();
    let open = || (0..n).filter(move |j| cols >> j & 1 == 1);
    (0..n)
        .filter(|i| rows >> i & 1 == 1)
        .map(|i| {
            let j = open().min_by_key(|&j| m[i][j]).unwrap();
            m[i][j] + entice(m, rows & !(1 << i), cols & !(1 << j))
        })
        .max()
        .unwrap()
}

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
        let all = (1u32 << n) - 1;
        out += &format!("{}\n", entice(&m, all, all));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
