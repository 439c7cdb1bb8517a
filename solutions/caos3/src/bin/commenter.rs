//! The forum commenter's WA: the four pieces keep the chosen row and column,
//! `win(i1, j1, i, j)` instead of `win(i1, j1, i - 1, j - 1)` and so on.
//!
//! Pieces may then be as large as the rectangle itself (a monster on its
//! border). Filled bottom-up by (height, width), such a piece reads the
//! rectangle's own entry before it is written, i.e. 0.

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
    // Inclusive bounds i1..=i2, j1..=j2.
    let at = |i1: usize, i2: usize, j1: usize, j2: usize| ((i1 * r + i2) * c + j1) * c + j2;
    let mut sg = vec![0u16; r * r * c * c];
    // A mex never exceeds the number of options, i.e. of monsters.
    let count = monster.iter().flatten().filter(|&&m| m).count();
    let mut seen = vec![false; count + 2];
    for h in 0..r {
        for w in 0..c {
            for i1 in 0..r - h {
                for j1 in 0..c - w {
                    let (i2, j2) = (i1 + h, j1 + w);
                    seen.fill(false);
                    for i in i1..=i2 {
                        for j in (j1..=j2).filter(|&j| monster[i][j]) {
                            let game1 = sg[at(i1, i, j1, j)];
                            let game2 = sg[at(i1, i, j, j2)];
                            let game3 = sg[at(i, i2, j1, j)];
                            let game4 = sg[at(i, i2, j, j2)];
                            if let Some(s) =
                                seen.get_mut(usize::from(game1 ^ game2 ^ game3 ^ game4))
                            {
                                *s = true;
                            }
                        }
                    }
                    sg[at(i1, i2, j1, j2)] = seen.iter().position(|&s| !s).unwrap() as u16;
                }
            }
        }
    }
    sg[at(0, r - 1, 0, c - 1)] != 0
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
