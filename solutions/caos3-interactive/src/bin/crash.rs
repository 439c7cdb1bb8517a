//! The reference strategy with a move log sized for two moves: it writes
//! its second move into the log before sending it and panics there, while
//! the referee waits for that move. RE (unless its first move already wins).

use std::io::{self, BufRead, Write};

/// Whitespace-separated tokens of stdin, read a line at a time (never past
/// what the referee has sent, or the game would deadlock).
struct Scanner {
    stdin: io::StdinLock<'static>,
    pending: Vec<String>,
}

impl Scanner {
    fn next(&mut self) -> String {
        while self.pending.is_empty() {
            let mut line = String::new();
            if self.stdin.read_line(&mut line).unwrap() == 0 {
                panic!("the referee closed the game");
            }
            self.pending = line.split_whitespace().rev().map(String::from).collect();
        }
        self.pending.pop().unwrap()
    }
}

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

/// Grundy values of all half-open sub-rectangles [r1, r2) x [c1, c2).
struct Table {
    rs: usize,
    cs: usize,
    g: Vec<u16>,
}

impl Table {
    fn at(&self, r1: usize, r2: usize, c1: usize, c2: usize) -> usize {
        ((r1 * self.rs + r2) * self.cs + c1) * self.cs + c2
    }

    fn get(&self, r1: usize, r2: usize, c1: usize, c2: usize) -> u16 {
        self.g[self.at(r1, r2, c1, c2)]
    }

    /// The XOR of the four pieces left by (x, y) inside the rectangle.
    fn split(&self, (r1, r2, c1, c2): Rect, x: usize, y: usize) -> u16 {
        self.get(r1, x, c1, y)
            ^ self.get(r1, x, y + 1, c2)
            ^ self.get(x + 1, r2, c1, y)
            ^ self.get(x + 1, r2, y + 1, c2)
    }

    fn new(monster: &[Vec<bool>]) -> Table {
        let (r, c) = (monster.len(), monster[0].len());
        let mut t = Table {
            rs: r + 1,
            cs: c + 1,
            g: vec![0; (r + 1) * (r + 1) * (c + 1) * (c + 1)],
        };
        // The mex is at most the number of monsters.
        let count = monster.iter().flatten().filter(|&&m| m).count();
        let mut seen = vec![false; count + 2];
        // Pieces are lower than their rectangle, so height order suffices.
        for h in 1..=r {
            for r1 in 0..=r - h {
                for c1 in 0..c {
                    for c2 in c1 + 1..=c {
                        let rect = (r1, r1 + h, c1, c2);
                        seen.iter_mut().for_each(|s| *s = false);
                        for (x, row) in monster.iter().enumerate().take(r1 + h).skip(r1) {
                            for y in (c1..c2).filter(|&y| row[y]) {
                                let v = t.split(rect, x, y) as usize;
                                if v < seen.len() {
                                    seen[v] = true;
                                }
                            }
                        }
                        let mex = seen.iter().position(|&s| !s).unwrap() as u16;
                        let at = t.at(r1, r1 + h, c1, c2);
                        t.g[at] = mex;
                    }
                }
            }
        }
        t
    }
}

/// A free rectangle (r1, r2, c1, c2), half-open.
type Rect = (usize, usize, usize, usize);

/// Replaces the rectangle holding (x, y) by its non-empty pieces.
fn play(rects: &mut Vec<Rect>, x: usize, y: usize) {
    let i = rects
        .iter()
        .position(|&(r1, r2, c1, c2)| r1 <= x && x < r2 && c1 <= y && y < c2)
        .expect("a legal move");
    let (r1, r2, c1, c2) = rects.swap_remove(i);
    for piece in [
        (r1, x, c1, y),
        (r1, x, y + 1, c2),
        (x + 1, r2, c1, y),
        (x + 1, r2, y + 1, c2),
    ] {
        if piece.0 < piece.1 && piece.2 < piece.3 {
            rects.push(piece);
        }
    }
}

/// A move that leaves a position of value 0, else any legal move.
fn choose(table: &Table, monster: &[Vec<bool>], rects: &[Rect]) -> Option<(usize, usize)> {
    let total = rects
        .iter()
        .fold(0, |v, &(r1, r2, c1, c2)| v ^ table.get(r1, r2, c1, c2));
    let mut any = None;
    for &rect in rects {
        let (r1, r2, c1, c2) = rect;
        let others = total ^ table.get(r1, r2, c1, c2);
        for (x, row) in monster.iter().enumerate().take(r2).skip(r1) {
            for y in (c1..c2).filter(|&y| row[y]) {
                if others ^ table.split(rect, x, y) == 0 {
                    return Some((x, y));
                }
                any = any.or(Some((x, y)));
            }
        }
    }
    any
}

fn main() {
    let mut input = Scanner {
        stdin: io::stdin().lock(),
        pending: Vec::new(),
    };
    let mut out = io::stdout().lock();
    let r: usize = input.next().parse().unwrap();
    let c: usize = input.next().parse().unwrap();
    let grid: Vec<Vec<u8>> = (0..r).map(|_| input.next().into_bytes()).collect();
    let monster = monsters(&grid);
    let table = Table::new(&monster);
    let mut rects = vec![(0, r, 0, c)];
    // The bug: "one move each" is not the whole game.
    let mut log = [(0, 0); 2];
    let mut moves = 0;
    loop {
        let Some((x, y)) = choose(&table, &monster, &rects) else {
            // No move left: we lost (never, on a map the first player wins).
            let _ = writeln!(out, "0 0");
            return;
        };
        play(&mut rects, x, y);
        log[moves] = (x, y);
        moves += 1;
        writeln!(out, "{} {}", x + 1, y + 1).unwrap();
        out.flush().unwrap();
        let (rx, ry): (usize, usize) =
            (input.next().parse().unwrap(), input.next().parse().unwrap());
        if rx == 0 {
            return; // the referee has no move: we made the last one
        }
        play(&mut rects, rx - 1, ry - 1);
        log[moves] = (rx - 1, ry - 1);
        moves += 1;
    }
}
