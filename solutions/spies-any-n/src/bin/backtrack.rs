//! Brute force: exhaustive backtracking, row by row, columns in increasing order. Prints
//! the lexicographically first valid board, or -1 once the whole tree is exhausted.
//! Instant up to n ≈ 20; the tree explodes beyond (the seed's DFS needed minutes at 27).

use std::io::{self, Read};

struct Dfs {
    n: usize,
    cols: Vec<usize>,
    used_col: Vec<bool>,
    used_diag: Vec<bool>,
    used_anti: Vec<bool>,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Dfs {
    /// Whether a spy at (r, c) is on a line with two earlier spies: two earlier spies in
    /// the same reduced direction from (r, c).
    fn collinear(&self, r: usize, c: usize) -> bool {
        let mut dirs: Vec<(i64, i64)> = (0..r)
            .map(|i| {
                let (dr, dc) = ((r - i) as i64, c as i64 - self.cols[i] as i64);
                let g = gcd(dr, dc);
                (dr / g, dc / g)
            })
            .collect();
        dirs.sort_unstable();
        dirs.windows(2).any(|w| w[0] == w[1])
    }

    fn search(&mut self, r: usize) -> bool {
        if r == self.n {
            return true;
        }
        for c in 0..self.n {
            let (d, a) = (r + self.n - c, r + c);
            if self.used_col[c] || self.used_diag[d] || self.used_anti[a] || self.collinear(r, c) {
                continue;
            }
            self.cols.push(c);
            self.used_col[c] = true;
            self.used_diag[d] = true;
            self.used_anti[a] = true;
            if self.search(r + 1) {
                return true;
            }
            self.cols.pop();
            self.used_col[c] = false;
            self.used_diag[d] = false;
            self.used_anti[a] = false;
        }
        false
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let n: usize = input.trim().parse().expect("n");
    let mut dfs = Dfs {
        n,
        cols: Vec::with_capacity(n),
        used_col: vec![false; n],
        used_diag: vec![false; 2 * n],
        used_anti: vec![false; 2 * n],
    };
    if dfs.search(0) {
        let cols: Vec<String> = dfs.cols.iter().map(|c| (c + 1).to_string()).collect();
        println!("{n}\n{}", cols.join(" "));
    } else {
        println!("-1");
    }
}
