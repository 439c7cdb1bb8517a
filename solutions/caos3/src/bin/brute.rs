//! Exhaustive game search that simulates the lava itself, with no Grundy
//! theory: a position is the set of lava cells, a move erupts a monster not
//! yet under lava, and a position is won iff some move leads to a lost one.
//! Exact, so it is the independent check on small boards; exponential in the
//! number of monsters, so hopeless on big ones.

use std::collections::HashMap;
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

/// Positions remembered at most; the table is cleared when full so memory
/// stays bounded however long the search runs.
const MEMO_CAP: usize = 1 << 17;

struct Search {
    rows: usize,
    cols: usize,
    monsters: Vec<(usize, usize)>,
    /// Lava cells, one bit mask per row (C <= 40 fits in a u64).
    memo: HashMap<Box<[u64]>, bool>,
}

impl Search {
    /// Lava after erupting (i, j): it spreads along the row and the column
    /// over any cell (walls too) and stops before a cell that already holds lava.
    fn erupt(&self, lava: &[u64], i: usize, j: usize) -> Box<[u64]> {
        let mut next: Box<[u64]> = lava.into();
        let hot = |ii: usize, jj: usize| lava[ii] >> jj & 1 == 1;
        next[i] |= 1 << j;
        for jj in (0..j).rev().take_while(|&jj| !hot(i, jj)) {
            next[i] |= 1 << jj;
        }
        for jj in (j + 1..self.cols).take_while(|&jj| !hot(i, jj)) {
            next[i] |= 1 << jj;
        }
        for ii in (0..i).rev().take_while(|&ii| !hot(ii, j)) {
            next[ii] |= 1 << j;
        }
        for ii in (i + 1..self.rows).take_while(|&ii| !hot(ii, j)) {
            next[ii] |= 1 << j;
        }
        next
    }

    /// Whether the player to move wins.
    fn wins(&mut self, lava: &[u64]) -> bool {
        if let Some(&known) = self.memo.get(lava) {
            return known;
        }
        let mut win = false;
        for k in 0..self.monsters.len() {
            let (i, j) = self.monsters[k];
            if lava[i] >> j & 1 == 0 && !self.wins(&self.erupt(lava, i, j)) {
                win = true;
                break;
            }
        }
        if self.memo.len() >= MEMO_CAP {
            self.memo.clear();
        }
        self.memo.insert(lava.into(), win);
        win
    }
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
        let mut search = Search {
            rows: r,
            cols: c,
            monsters: (0..r)
                .flat_map(|i| (0..c).map(move |j| (i, j)))
                .filter(|&(i, j)| monster[i][j])
                .collect(),
            memo: HashMap::new(),
        };
        let winner = if search.wins(&vec![0; r]) {
            "Asuna"
        } else {
            "Kirito"
        };
        out.push_str(winner);
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
