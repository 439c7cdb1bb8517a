//! The batch heuristic "odd min(#monster rows, #monster columns) means the
//! first player wins", played: leave the referee an even minimum when
//! possible. Wrong: lava stops at earlier lava, so a row can be used again
//! in another piece. WA on maps built to trap it.

use std::io::{self, BufRead, Write};

/// Cells that hold a monster: `^` with at least two `^` in a row on each side.
fn monsters(grid: &[Vec<u8>]) -> Vec<Vec<bool>> {
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

/// The tokens of stdin, a line at a time; `None` once the referee hangs up.
fn tokens() -> impl Iterator<Item = String> {
    io::stdin()
        .lock()
        .lines()
        .map_while(Result::ok)
        .flat_map(|line| {
            line.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        })
}

/// The volcano's cell, then lava along its row and column until the edge or
/// earlier lava.
fn erupt(lava: &mut [Vec<bool>], x: usize, y: usize) {
    let (r, c) = (lava.len() as i64, lava[0].len() as i64);
    lava[x][y] = true;
    for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (mut i, mut j) = (x as i64 + dx, y as i64 + dy);
        while i >= 0 && i < r && j >= 0 && j < c && !lava[i as usize][j as usize] {
            lava[i as usize][j as usize] = true;
            i += dx;
            j += dy;
        }
    }
}

/// Living monsters, in reading order.
fn live(monster: &[Vec<bool>], lava: &[Vec<bool>]) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    for x in 0..monster.len() {
        for y in 0..monster[0].len() {
            if monster[x][y] && !lava[x][y] {
                cells.push((x, y));
            }
        }
    }
    cells
}

/// The heuristic: the player to move loses when the smaller of the numbers
/// of rows and columns holding monsters is even.
fn looks_lost(monsters: &[(usize, usize)]) -> bool {
    let mut rows: Vec<usize> = monsters.iter().map(|m| m.0).collect();
    let mut cols: Vec<usize> = monsters.iter().map(|m| m.1).collect();
    rows.sort_unstable();
    rows.dedup();
    cols.sort_unstable();
    cols.dedup();
    rows.len().min(cols.len()) % 2 == 0
}

fn main() {
    let mut input = tokens();
    let mut out = io::stdout().lock();
    let r: usize = input.next().unwrap().parse().unwrap();
    let _c: usize = input.next().unwrap().parse().unwrap();
    let grid: Vec<Vec<u8>> = (0..r).map(|_| input.next().unwrap().into_bytes()).collect();
    let monster = monsters(&grid);
    let mut lava = vec![vec![false; grid[0].len()]; r];
    loop {
        let moves = live(&monster, &lava);
        let Some(&first) = moves.first() else {
            return; // no move: lost
        };
        let (x, y) = moves
            .iter()
            .copied()
            .find(|&(x, y)| {
                let mut after = lava.clone();
                erupt(&mut after, x, y);
                looks_lost(&live(&monster, &after))
            })
            .unwrap_or(first);
        erupt(&mut lava, x, y);
        writeln!(out, "{} {}", x + 1, y + 1).unwrap();
        out.flush().unwrap();
        let (Some(rx), Some(ry)) = (input.next(), input.next()) else {
            return; // the referee hung up: it judged the game over
        };
        let (rx, ry): (usize, usize) = (rx.parse().unwrap(), ry.parse().unwrap());
        if rx == 0 {
            return; // the referee has no move: we made the last one
        }
        erupt(&mut lava, rx - 1, ry - 1);
    }
}
