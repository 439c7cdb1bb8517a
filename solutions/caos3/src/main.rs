//! CAOS3 reference: Sprague–Grundy values of every sub-rectangle, by height.
//!
//! Choosing a monster turns its row and column (inside the current lava-bounded
//! rectangle) into lava, which leaves up to four independent rectangles, so
//! g(rect) = mex over monsters (x, y) in rect of the XOR of the four pieces.

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
fn grundy(monster: &[Vec<bool>]) -> u32 {
    let (r, c) = (monster.len(), monster[0].len());
    // Half-open bounds [r1, r2) x [c1, c2); empty rectangles stay 0.
    let (rs, cs) = (r + 1, c + 1);
    let at = |r1: usize, r2: usize, c1: usize, c2: usize| ((r1 * rs + r2) * cs + c1) * cs + c2;
    let mut g = vec![0u8; rs * rs * cs * cs];
    // Every piece is strictly lower than its rectangle, so height order suffices.
    for h in 1..=r {
        for r1 in 0..=r - h {
            let r2 = r1 + h;
            for c1 in 0..c {
                for c2 in c1 + 1..=c {
                    let mut seen = 0u64;
                    for x in r1..r2 {
                        for y in (c1..c2).filter(|&y| monster[x][y]) {
                            let v = g[at(r1, x, c1, y)]
                                ^ g[at(r1, x, y + 1, c2)]
                                ^ g[at(x + 1, r2, c1, y)]
                                ^ g[at(x + 1, r2, y + 1, c2)];
                            seen |= 1 << v;
                        }
                    }
                    // Values stay below 15 on 20x20 boards (and below 64 at 40x40).
                    let mex = seen.trailing_ones();
                    assert!(mex < 64, "Grundy value does not fit the 64-bit mask");
                    g[at(r1, r2, c1, c2)] = mex as u8;
                }
            }
        }
    }
    u32::from(g[at(0, r, 0, c)])
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
