//! CAOS3 on boards up to 40x40: Sprague–Grundy values of every sub-rectangle.
//!
//! Choosing a monster turns its row and column (inside the current lava-bounded
//! rectangle) into lava, which leaves up to four independent rectangles, so
//! g(rect) = mex over monsters (x, y) in rect of the XOR of the four pieces.
//!
//! At 40x40 the plain DP (scan every cell of every rectangle) is too slow, so
//! this one drops monster-free rows and columns, visits only monsters, and for
//! each row band and removed row x first XORs the parts above and below x.

use std::io::{self, Read, Write};

/// Cells that hold a monster: `^` with at least two `^` in a row on each side.
fn monsters(grid: &[&[u8]]) -> Vec<Vec<bool>> {
    let (r, c) = (grid.len(), grid[0].len());
    let caret = |i: usize, j: usize| grid[i][j] == b'^';
    (0..r)
        .map(|i| {
            (0..c)
                .map(|j| {
                    // min(L, R, T, B) >= 2 means the prime 2 fits in the cross.
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

/// Grundy value of the whole board.
///
/// Rows and columns without monsters are dropped first: they never change
/// which monsters share a piece, so every Grundy value stays the same.
fn grundy(monster: &[Vec<bool>]) -> u16 {
    let keep_rows: Vec<usize> = (0..monster.len())
        .filter(|&i| monster[i].contains(&true))
        .collect();
    let keep_cols: Vec<usize> = (0..monster[0].len())
        .filter(|&j| monster.iter().any(|row| row[j]))
        .collect();
    let (r, c) = (keep_rows.len(), keep_cols.len());
    if r == 0 {
        return 0;
    }
    // Monster columns of each row, and how many lie left of each column,
    // so the monsters of row x from column c1 on are one slice.
    let cols: Vec<Vec<usize>> = keep_rows
        .iter()
        .map(|&i| (0..c).filter(|&j| monster[i][keep_cols[j]]).collect())
        .collect();
    let before: Vec<Vec<usize>> = cols
        .iter()
        .map(|row| (0..=c).map(|j| row.partition_point(|&y| y < j)).collect())
        .collect();

    // Half-open bounds [r1, r2) x [c1, c2); empty rectangles stay 0.
    let (rs, cs) = (r + 1, c + 1);
    let at = |r1: usize, r2: usize, c1: usize, c2: usize| ((r1 * rs + r2) * cs + c1) * cs + c2;
    let mut g = vec![0u16; rs * rs * cs * cs];
    let mut largest = 0;
    // For one row band and one removed row x: split[c1][c2] is the XOR of the
    // parts above and below x over columns [c1, c2).
    let mut split = vec![0u16; cs * cs];
    // Per column range, a bit set of the options seen, `words` u64s long.
    let mut seen = Vec::new();
    // Every piece is strictly lower than its rectangle, so height order suffices.
    for h in 1..=r {
        // Pieces hold values below 2^k (2^k > largest so far), and so do their
        // XORs; then the mex is at most 2^k. Values pass 128 on 40x40 boards.
        let words = (usize::from(largest) + 1).next_power_of_two().div_ceil(64);
        for r1 in 0..=r - h {
            let r2 = r1 + h;
            seen.clear();
            seen.resize(cs * cs * words, 0u64);
            for x in r1..r2 {
                for c1 in 0..cs {
                    let (up, down) = (at(r1, x, c1, 0), at(x + 1, r2, c1, 0));
                    for c2 in c1..cs {
                        split[c1 * cs + c2] = g[up + c2] ^ g[down + c2];
                    }
                }
                // Monster (x, y) in [c1, c2) leaves left piece [c1, y), right piece [y+1, c2).
                for c1 in 0..c {
                    for &y in &cols[x][before[x][c1]..] {
                        let left = split[c1 * cs + y];
                        let right = &split[(y + 1) * cs + y + 1..(y + 2) * cs];
                        let row = &mut seen[(c1 * cs + y + 1) * words..(c1 + 1) * cs * words];
                        if words == 1 {
                            // The common case, kept free of the word lookup.
                            for (s, &v) in row.iter_mut().zip(right) {
                                *s |= 1 << (left ^ v);
                            }
                        } else {
                            for (s, &v) in row.chunks_exact_mut(words).zip(right) {
                                let v = usize::from(left ^ v);
                                s[v / 64] |= 1 << (v % 64);
                            }
                        }
                    }
                }
            }
            for c1 in 0..c {
                for c2 in c1 + 1..cs {
                    let set = &seen[(c1 * cs + c2) * words..][..words];
                    let mex = match set.iter().position(|&w| w != u64::MAX) {
                        Some(i) => i * 64 + set[i].trailing_ones() as usize,
                        None => words * 64,
                    } as u16;
                    g[at(r1, r2, c1, c2)] = mex;
                    largest = largest.max(mex);
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
