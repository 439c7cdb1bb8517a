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
fn grundy(monster: &[Vec<bool>]) -> u16 {
    let (r, c) = (monster.len(), monster[0].len());
    // The mex of a rectangle is at most its number of monsters, so a bit set
    // one word longer than that suffices; larger XORs cannot matter.
    let count = monster.iter().flatten().filter(|&&m| m).count();
    let mut seen = vec![0u64; count / 64 + 1];
    let bits = seen.len() * 64;
    // Half-open bounds [r1, r2) x [c1, c2); empty rectangles stay 0.
    let (rs, cs) = (r + 1, c + 1);
    let at = |r1: usize, r2: usize, c1: usize, c2: usize| ((r1 * rs + r2) * cs + c1) * cs + c2;
    let mut g = vec![0u16; rs * rs * cs * cs];
    // Every piece is strictly lower than its rectangle, so height order suffices.
    for h in 1..=r {
        for r1 in 0..=r - h {
            let r2 = r1 + h;
            for c1 in 0..c {
                for c2 in c1 + 1..=c {
                    seen.fill(0);
                    for x in r1..r2 {
                        for y in (c1..c2).filter(|&y| monster[x][y]) {
                            let v = usize::from(
                                g[at(r1, x, c1, y)]
                                    ^ g[at(r1, x, y + 1, c2)]
                                    ^ g[at(x + 1, r2, c1, y)]
                                    ^ g[at(x + 1, r2, y + 1, c2)],
                            );
                            if v < bits {
                                seen[v / 64] |= 1 << (v % 64);
                            }
                        }
                    }
                    let word = seen
                        .iter()
                        .position(|&w| w != u64::MAX)
                        .expect("mex <= count < bits");
                    g[at(r1, r2, c1, c2)] =
                        (word * 64 + seen[word].trailing_ones() as usize) as u16;
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
