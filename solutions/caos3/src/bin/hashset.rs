//! The editorial's DP done plainly: for every sub-rectangle scan all its cells
//! for monsters and collect the options in a hash set, as the snippet's
//! `hash_map` does. Correct, and fast enough for 20x20.

use std::collections::HashSet;
use std::io::{self, Read, Write};

fn monsters(grid: &[&[u8]]) -> Vec<Vec<bool>> {
    let (r, c) = (grid.len(), grid[0].len());
    let caret = |i: usize, j: usize| grid[i][j] == b'^';
    (0..r)
        .map(|i| {
            (0..c)
                .map(|j| {
                    caret(i, j)
                        && i >= 2
                        && j >= 2
                        && i + 2 < r
                        && j + 2 < c
                        && (1..=2).all(|d| {
                            caret(i - d, j) && caret(i + d, j) && caret(i, j - d) && caret(i, j + d)
                        })
                })
                .collect()
        })
        .collect()
}

fn grundy(monster: &[Vec<bool>]) -> u16 {
    let (r, c) = (monster.len(), monster[0].len());
    // Half-open bounds [r1, r2) x [c1, c2); empty rectangles stay 0.
    let (rs, cs) = (r + 1, c + 1);
    let at = |r1: usize, r2: usize, c1: usize, c2: usize| ((r1 * rs + r2) * cs + c1) * cs + c2;
    let mut g = vec![0u16; rs * rs * cs * cs];
    for h in 1..=r {
        for w in 1..=c {
            for r1 in 0..=r - h {
                for c1 in 0..=c - w {
                    let (r2, c2) = (r1 + h, c1 + w);
                    let mut seen = HashSet::new();
                    for x in r1..r2 {
                        for y in c1..c2 {
                            if monster[x][y] {
                                seen.insert(
                                    g[at(r1, x, c1, y)]
                                        ^ g[at(r1, x, y + 1, c2)]
                                        ^ g[at(x + 1, r2, c1, y)]
                                        ^ g[at(x + 1, r2, y + 1, c2)],
                                );
                            }
                        }
                    }
                    let mut mex = 0;
                    while seen.contains(&mex) {
                        mex += 1;
                    }
                    g[at(r1, r2, c1, c2)] = mex;
                }
            }
        }
    }
    g[at(0, r, 0, c)]
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let cases: usize = tokens.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for _ in 0..cases {
        let r: usize = tokens.next().unwrap().parse().unwrap();
        let _c: usize = tokens.next().unwrap().parse().unwrap();
        let grid: Vec<&[u8]> = (0..r).map(|_| tokens.next().unwrap().as_bytes()).collect();
        let winner = if grundy(&monsters(&grid)) != 0 {
            "Asuna"
        } else {
            "Kirito"
        };
        out.push_str(winner);
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
