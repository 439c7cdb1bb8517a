//! The editorial's snippet as printed: `sg[xl][yl][xr][yr]` over rows x and
//! columns y, with its bugs kept. The right-hand pieces end at column `yl + w`
//! (w is the row extent; it should be `yl + h`), and `x - 1`, `y - 1` may be -1.
//! Every index is shifted by one and the table is big enough for `yl + w`, so
//! the bugs read never-written entries (0) instead of crashing.

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

fn first_player_wins(monster: &[Vec<bool>]) -> bool {
    let (r, c) = (monster.len(), monster[0].len());
    // Indices run from -1 up to yl + w <= r + c - 2; store them shifted by one.
    let n = r + c + 1;
    let mut sg = vec![0u16; n * n * n * n];
    let at = |a: isize, b: isize, x: isize, y: isize| {
        let i = |v: isize| (v + 1) as usize;
        ((i(a) * n + i(b)) * n + i(x)) * n + i(y)
    };
    let (r, c) = (r as isize, c as isize);
    for w in 0..r {
        for xl in 0..r - w {
            for h in 0..c {
                for yl in 0..c - h {
                    let mut seen_values = HashSet::new();
                    for x in xl..=xl + w {
                        for y in yl..=yl + h {
                            if monster[x as usize][y as usize] {
                                seen_values.insert(
                                    sg[at(xl, yl, x - 1, y - 1)]
                                        ^ sg[at(xl, y + 1, x - 1, yl + w)]
                                        ^ sg[at(x + 1, yl, xl + w, y - 1)]
                                        ^ sg[at(x + 1, y + 1, xl + w, yl + w)],
                                );
                            }
                        }
                    }
                    let mut s = 0;
                    while seen_values.contains(&s) {
                        s += 1;
                    }
                    sg[at(xl, yl, xl + w, yl + h)] = s;
                }
            }
        }
    }
    sg[at(0, 0, r - 1, c - 1)] != 0
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
        let winner = if first_player_wins(&monsters(&grid)) {
            "Asuna"
        } else {
            "Kirito"
        };
        out.push_str(winner);
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
