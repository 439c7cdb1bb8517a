//! The reference with arrays sized for the original limits (R, C <= 20), as a
//! C++ submission would declare `sg[21][21][21][21]`. Fine on CAOS3; on a
//! larger board the indices run off the arrays and it panics.

use std::io::{self, Read, Write};

const N: usize = 20;

/// Cells that hold a monster: `^` with at least two `^` in a row on each side.
#[expect(
    clippy::needless_range_loop,
    reason = "indexing like the C arrays is the point: past 20 it must fail, not clip"
)]
fn monsters(grid: &[&[u8]]) -> [[bool; N]; N] {
    let (r, c) = (grid.len(), grid[0].len());
    let caret = |i: usize, j: usize| grid[i][j] == b'^';
    let mut monster = [[false; N]; N];
    for i in 2..r.saturating_sub(2) {
        for j in 2..c.saturating_sub(2) {
            monster[i][j] = caret(i, j)
                && (1..=2).all(|d| {
                    caret(i - d, j) && caret(i + d, j) && caret(i, j - d) && caret(i, j + d)
                });
        }
    }
    monster
}

/// Grundy value of the board's top-left r x c part.
fn grundy(monster: &[[bool; N]; N], r: usize, c: usize) -> u16 {
    // g[r1][r2][c1][c2] over half-open bounds; empty rectangles stay 0.
    let mut g = vec![[[[0u16; N + 1]; N + 1]; N + 1]; N + 1];
    for h in 1..=r {
        for r1 in 0..=r - h {
            let r2 = r1 + h;
            for c1 in 0..c {
                for c2 in c1 + 1..=c {
                    // A mex is at most the number of monsters, (N - 4)^2 = 256.
                    let mut seen = [0u64; 5];
                    for x in r1..r2 {
                        for y in (c1..c2).filter(|&y| monster[x][y]) {
                            let v = usize::from(
                                g[r1][x][c1][y]
                                    ^ g[r1][x][y + 1][c2]
                                    ^ g[x + 1][r2][c1][y]
                                    ^ g[x + 1][r2][y + 1][c2],
                            );
                            if v < 320 {
                                seen[v / 64] |= 1 << (v % 64);
                            }
                        }
                    }
                    let word = seen.iter().position(|&w| w != u64::MAX).unwrap();
                    g[r1][r2][c1][c2] = (word * 64 + seen[word].trailing_ones() as usize) as u16;
                }
            }
        }
    }
    g[0][r][0][c]
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let cases: usize = tokens.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for _ in 0..cases {
        let r: usize = tokens.next().unwrap().parse().unwrap();
        let c: usize = tokens.next().unwrap().parse().unwrap();
        let grid: Vec<&[u8]> = (0..r).map(|_| tokens.next().unwrap().as_bytes()).collect();
        let winner = if grundy(&monsters(&grid), r, c) != 0 {
            "Asuna"
        } else {
            "Kirito"
        };
        out.push_str(winner);
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
