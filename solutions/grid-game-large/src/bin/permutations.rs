//! The seed's pseudocode: try every permutation of the columns (next
//! permutation in lexicographic order), sum row i at column perm[i], keep the
//! minimum. n!·n per board: the independent brute force for small n, TLE here.

use std::io::{self, Read, Write};

/// Rearranges `p` into the next permutation in lexicographic order; false
/// after the last one.
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap();
    p.swap(i - 1, j);
    p[i..].reverse();
    true
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
        let mut col_order: Vec<usize> = (0..n).collect();
        let mut best = i64::MAX;
        loop {
            let total: i64 = (0..n).map(|i| m[i][col_order[i]]).sum();
            best = best.min(total);
            if !next_permutation(&mut col_order) {
                break;
            }
        }
        out += &format!("{best}\n");
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
