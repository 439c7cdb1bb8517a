//! The seed's "complete search": play out every game, Alice maximising over
//! the rows left and Bob minimising over the columns left, no memo.
//! (n!)² complete games, about 1.6·10⁹ at n = 8 per board (TLE).

use std::io::{self, Read, Write};

/// Value of the game with `rows`/`cols` (bitmasks) still open, Alice to move.
fn alice(m: &[Vec<i32>], rows: u32, cols: u32) -> i32 {
    if rows == 0 {
        return 0;
    }
    let mut best = i32::MIN;
    for i in 0..m.len() {
        if rows >> i & 1 == 1 {
            best = best.max(bob(m, i, rows & !(1 << i), cols));
        }
    }
    best
}

/// Bob's reply to Alice crossing out row `i`.
fn bob(m: &[Vec<i32>], i: usize, rows: u32, cols: u32) -> i32 {
    let mut best = i32::MAX;
    for j in 0..m.len() {
        if cols >> j & 1 == 1 {
            best = best.min(m[i][j] + alice(m, rows, cols & !(1 << j)));
        }
    }
    best
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || -> i32 { tokens.next().unwrap().parse().unwrap() };
    let t = next();
    let mut out = String::new();
    for _ in 0..t {
        let n = next() as usize;
        let m: Vec<Vec<i32>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
        let all = (1u32 << n) - 1;
        out += &format!("{}\n", alice(&m, all, all));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
