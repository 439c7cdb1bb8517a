//! Heuristic: each move uses up one monster row and one monster column, so
//! the game lasts min(#monster rows, #monster columns) moves. Wrong: lava
//! stops at earlier lava, so a row can be used again in another piece.

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
        let monster = monsters(&grid);
        let rows = monster.iter().filter(|row| row.contains(&true)).count();
        let cols = (0..c).filter(|&j| monster.iter().any(|row| row[j])).count();
        out.push_str(if rows.min(cols) % 2 == 1 {
            "Asuna\n"
        } else {
            "Kirito\n"
        });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
