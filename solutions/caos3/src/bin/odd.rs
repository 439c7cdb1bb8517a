//! Heuristic: every move kills one monster, so an odd number of monsters
//! means Asuna makes the last move. Wrong: a volcano's lava kills the other
//! monsters in its row and column too.

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
        let _c: usize = tokens.next().unwrap().parse().unwrap();
        let grid: Vec<&[u8]> = (0..r).map(|_| tokens.next().unwrap().as_bytes()).collect();
        let count: usize = monsters(&grid)
            .iter()
            .map(|row| row.iter().filter(|&&m| m).count())
            .sum();
        out.push_str(if count % 2 == 1 {
            "Asuna\n"
        } else {
            "Kirito\n"
        });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
