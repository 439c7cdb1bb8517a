//! Bitmask DP over the set of used columns: rows are assigned in order, so
//! dp[S] = least cost of giving rows 0..|S| the columns S. O(2ⁿ·n) time and
//! 2ⁿ·8 bytes: fine up to n ≈ 20, hopeless long before n = 500 (TLE).

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
        let mut dp = vec![i64::MAX; 1 << n];
        dp[0] = 0;
        for mask in 0..(1usize << n) - 1 {
            if dp[mask] == i64::MAX {
                continue;
            }
            let row = mask.count_ones() as usize;
            for (j, &cell) in m[row].iter().enumerate() {
                if mask >> j & 1 == 0 {
                    let to = mask | 1 << j;
                    dp[to] = dp[to].min(dp[mask] + cell);
                }
            }
        }
        out += &format!("{}\n", dp[(1 << n) - 1]);
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
