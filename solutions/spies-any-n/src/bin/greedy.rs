//! Wrong: greedy without backtracking. Each row takes its leftmost column that keeps the
//! board valid; if some row has none, it concludes that no board exists and prints -1.
//! Fails already at n = 4 (rows 1-2 take columns 1 and 3, row 3 then has no column).

use std::io::{self, Read};

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

fn fits(cols: &[i64], c: i64) -> bool {
    let r = cols.len() as i64;
    let mut dirs = Vec::with_capacity(cols.len());
    for (i, &ci) in cols.iter().enumerate() {
        let (dr, dc) = (r - i as i64, c - ci);
        if dc == 0 || dr == dc.abs() {
            return false;
        }
        let g = gcd(dr, dc);
        dirs.push((dr / g, dc / g));
    }
    dirs.sort_unstable();
    dirs.windows(2).all(|w| w[0] != w[1])
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let n: i64 = input.trim().parse().expect("n");
    let mut cols = Vec::new();
    for _ in 0..n {
        match (1..=n).find(|&c| fits(&cols, c)) {
            Some(c) => cols.push(c),
            None => {
                println!("-1");
                return;
            }
        }
    }
    let cols: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
    println!("{n}\n{}", cols.join(" "));
}
