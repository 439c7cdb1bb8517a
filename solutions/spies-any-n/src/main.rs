//! Spies on any board: n spies on an n×n board, one per row and column, no two on a
//! diagonal, no three on any straight line; `-1` when no board exists (n = 2, 3, 5, 6, 7).
//!
//! No construction is known, so this searches, deterministically (fixed seed), over
//! *partial* boards that are always valid, until all n rows hold a spy:
//!
//! * `cover[r][c]` counts the pairs of placed spies whose line passes through cell (r, c).
//!   A cell takes a spy without conflict iff its row, column and both diagonals are empty
//!   and its cover is 0. Adding or removing a spy walks the line to every other spy.
//! * Greedy start: rows in random order take a random conflict-free cell; about 8 % of
//!   the rows find none.
//! * Repair: pick an empty row or column and score each of its n cells by the number of
//!   spies a spy there would evict (row and column owners, diagonal neighbours, one spy per
//!   collinear pair). Score 0: place it. Score 1: look one step ahead (does evicting that
//!   spy open a free cell for its row or column?) and do both if so; otherwise make a
//!   random score-1 move that is not tabu (the evicted spy may not return to its cell for
//!   a while). A worse move is taken with Metropolis probability exp(-(score - 1) / T).
//!
//! The lookahead is what makes it fast: n = 999 takes about 0.1 s (TIMINGS.md has the
//! table for every n). Every output for 1 <= n <= 999 was checked by the package's
//! checker and an O(n^3) brute force, so the u8 cover (exact modulo 256) is safe here.

use std::collections::HashMap;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let n: usize = input
        .split_ascii_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("n");
    let out = match solve(n) {
        Some(cols) => {
            let cols: Vec<String> = cols.iter().map(|c| (c + 1).to_string()).collect();
            format!("{n}\n{}\n", cols.join(" "))
        }
        None => "-1\n".to_string(),
    };
    io::stdout()
        .write_all(out.as_bytes())
        .expect("write stdout");
}

// The search; spies-revised/src/bin/search.rs holds a verbatim copy of the rest.

const NONE: u32 = u32::MAX;
/// Metropolis temperature for moves that evict two or more spies.
const TEMPERATURE: f64 = 0.15;
/// An evicted spy may not return to its cell for TABU_BASE + rand(0..=missing) steps.
const TABU_BASE: u32 = 10;

/// The 0-based column of the spy in each row, or None if no board of size n exists.
fn solve(n: usize) -> Option<Vec<u32>> {
    if matches!(n, 2 | 3 | 5 | 6 | 7) {
        return None;
    }
    let mut search = Search::new(n, 0x5EED_0000 ^ n as u64);
    search.greedy();
    while search.board.placed.len() < n {
        search.step();
    }
    Some(search.board.col)
}

/// xorshift64*: tiny, fast and good enough for tie-breaking.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in 0..k.
    fn below(&mut self, k: usize) -> usize {
        (((self.next() >> 32) * k as u64) >> 32) as usize
    }
}

/// Binary gcd; the line walks call it for every pair of spies.
fn gcd(a: u32, b: u32) -> u32 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    let mut a = a >> a.trailing_zeros();
    let mut b = b;
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// The primitive step (dr, dc) from cell (r0, c0) towards (r1, c1).
fn direction(r0: u32, c0: u32, r1: u32, c1: u32) -> (i32, i32) {
    let (dr, dc) = (r1 as i32 - r0 as i32, c1 as i32 - c0 as i32);
    let g = gcd(dr.unsigned_abs(), dc.unsigned_abs()) as i32;
    (dr / g, dc / g)
}

#[derive(Clone, Copy)]
struct Cell {
    r: u32,
    c: u32,
}

/// A valid partial board and its line cover.
struct Board {
    n: usize,
    /// Column of the spy in each row, or NONE.
    col: Vec<u32>,
    /// Row of the spy in each column, or NONE.
    row: Vec<u32>,
    /// Row of the spy on each diagonal r - c + n and anti-diagonal r + c, or NONE.
    diag: Vec<u32>,
    anti: Vec<u32>,
    /// Pairs of spies whose line crosses each cell, row-major, modulo 256.
    cover: Vec<u8>,
    /// Rows that hold a spy, in any order, and each row's index in it.
    placed: Vec<u32>,
    slot: Vec<u32>,
}

impl Board {
    fn new(n: usize) -> Self {
        Board {
            n,
            col: vec![NONE; n],
            row: vec![NONE; n],
            diag: vec![NONE; 2 * n],
            anti: vec![NONE; 2 * n],
            cover: vec![0; n * n],
            placed: Vec::with_capacity(n),
            slot: vec![NONE; n],
        }
    }

    fn cover(&self, x: Cell) -> u32 {
        u32::from(self.cover[x.r as usize * self.n + x.c as usize])
    }

    /// The rows of the spies on the diagonal and the anti-diagonal of x (or NONE).
    fn diagonal_owners(&self, x: Cell) -> (u32, u32) {
        (
            self.diag[(x.r + self.n as u32 - x.c) as usize],
            self.anti[(x.r + x.c) as usize],
        )
    }

    /// Adds `delta` (mod 256) to every cell on the line through spy cells p and q but
    /// those two.
    fn walk(&mut self, p: Cell, q: Cell, delta: u8) {
        let n = self.n as u32;
        let (a, b) = direction(p.r, p.c, q.r, q.c);
        let step = a as isize * n as isize + b as isize;
        let base = (p.r * n + p.c) as isize;
        for sign in [1, -1] {
            let (mut r, mut c) = (p.r as i32 + sign * a, p.c as i32 + sign * b);
            let mut idx = base + sign as isize * step;
            // Unsigned comparison: a negative coordinate wraps to a huge value.
            while (r as u32) < n && (c as u32) < n {
                self.cover[idx as usize] = self.cover[idx as usize].wrapping_add(delta);
                r += sign * a;
                c += sign * b;
                idx += sign as isize * step;
            }
        }
        let q = (q.r * n + q.c) as usize;
        self.cover[q] = self.cover[q].wrapping_sub(delta);
    }

    fn walk_all(&mut self, p: Cell, delta: u8) {
        for k in 0..self.placed.len() {
            let r = self.placed[k];
            let q = Cell {
                r,
                c: self.col[r as usize],
            };
            self.walk(p, q, delta);
        }
    }

    fn add(&mut self, x: Cell) {
        self.walk_all(x, 1);
        let (r, c, n) = (x.r as usize, x.c as usize, self.n);
        self.col[r] = x.c;
        self.row[c] = x.r;
        self.diag[r + n - c] = x.r;
        self.anti[r + c] = x.r;
        self.slot[r] = self.placed.len() as u32;
        self.placed.push(x.r);
    }

    fn remove(&mut self, r: u32) {
        let x = Cell {
            r,
            c: self.col[r as usize],
        };
        let (r, c, n) = (x.r as usize, x.c as usize, self.n);
        self.col[r] = NONE;
        self.row[c] = NONE;
        self.diag[r + n - c] = NONE;
        self.anti[r + c] = NONE;
        let last = self.placed.pop().expect("a placed spy");
        if last != x.r {
            let s = self.slot[r];
            self.placed[s as usize] = last;
            self.slot[last as usize] = s;
        }
        self.walk_all(x, u8::MAX);
    }

    /// Spies on the line through cells u and v, other than at u, v and row `skip`.
    fn count_on_line(&self, u: Cell, v: Cell, skip: u32) -> u32 {
        let n = self.n as u32;
        let (a, b) = direction(u.r, u.c, v.r, v.c);
        let mut count = 0;
        for sign in [1, -1] {
            let (mut r, mut c) = (u.r as i32 + sign * a, u.c as i32 + sign * b);
            while (r as u32) < n && (c as u32) < n {
                let (ru, cu) = (r as u32, c as u32);
                if self.col[r as usize] == cu && ru != skip && ru != v.r {
                    count += 1;
                }
                r += sign * a;
                c += sign * b;
            }
        }
        count
    }

    /// The pairs of spies (rows) whose line passes through the empty cell x.
    fn pairs_through(&self, x: Cell) -> Vec<(u32, u32)> {
        let mut first = HashMap::with_capacity(self.placed.len());
        let mut pairs = Vec::new();
        for &q in &self.placed {
            let (mut a, mut b) = direction(x.r, x.c, q, self.col[q as usize]);
            if a < 0 || (a == 0 && b < 0) {
                (a, b) = (-a, -b);
            }
            if let Some(&p) = first.get(&(a, b)) {
                pairs.push((p, q));
            } else {
                first.insert((a, b), q);
            }
        }
        pairs
    }

    /// Whether the empty cell y (in a row and column that are empty after the move) takes
    /// a spy without conflict after a spy is placed at x and the spy of row p is removed.
    fn free_after(&self, y: Cell, x: Cell, p: u32) -> bool {
        let (d, a) = self.diagonal_owners(y);
        if (d != NONE && d != p) || (a != NONE && a != p) {
            return false;
        }
        if x.r + y.c == y.r + x.c || x.r + x.c == y.r + y.c {
            return false;
        }
        // The pairs through y that involve p disappear; those through x and y appear.
        let cover = self.cover(y);
        if cover > 0 {
            let pc = Cell {
                r: p,
                c: self.col[p as usize],
            };
            if cover > 2 || self.count_on_line(pc, y, p) != cover {
                return false;
            }
        }
        self.count_on_line(x, y, p) == 0
    }
}

/// Outcome of scanning one empty line.
enum Scan {
    /// A spy was added (possibly after a one-step lookahead).
    Improved,
    /// The best score seen; `Search::candidates` holds its cells.
    Best(u32),
}

struct Search {
    board: Board,
    rng: Rng,
    /// Step until which a spy may not return to a cell (row-major).
    tabu: Vec<u32>,
    iteration: u32,
    free_rows: Vec<u32>,
    free_cols: Vec<u32>,
    candidates: Vec<Cell>,
    /// Acceptance threshold out of 2^16 for a move evicting 1 + k spies, k = 1..
    worse: [usize; 8],
}

impl Search {
    fn new(n: usize, seed: u64) -> Self {
        Search {
            board: Board::new(n),
            rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            tabu: vec![0; n * n],
            iteration: 0,
            free_rows: Vec::with_capacity(n),
            free_cols: Vec::with_capacity(n),
            candidates: Vec::with_capacity(n),
            worse: std::array::from_fn(|k| ((-(k as f64) / TEMPERATURE).exp() * 65536.0) as usize),
        }
    }

    /// Rows in random order take a random free cell, if they have one.
    fn greedy(&mut self) {
        let n = self.board.n;
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            order.swap(i, self.rng.below(i + 1));
        }
        let mut free = Vec::with_capacity(n);
        for r in order {
            free.clear();
            for c in 0..n as u32 {
                let x = Cell { r, c };
                if self.board.row[c as usize] == NONE
                    && self.board.cover(x) == 0
                    && self.board.diagonal_owners(x) == (NONE, NONE)
                {
                    free.push(x);
                }
            }
            if !free.is_empty() {
                let x = free[self.rng.below(free.len())];
                self.board.add(x);
            }
        }
    }

    /// One repair step on a random empty row or column.
    fn step(&mut self) {
        self.iteration += 1;
        let b = &self.board;
        self.free_rows.clear();
        self.free_cols.clear();
        for i in 0..b.n as u32 {
            if b.col[i as usize] == NONE {
                self.free_rows.push(i);
            }
            if b.row[i as usize] == NONE {
                self.free_cols.push(i);
            }
        }
        let m = self.free_rows.len();
        let pick = self.rng.below(2 * m);
        let line = if pick < m {
            (Some(self.free_rows[pick]), None)
        } else {
            (None, Some(self.free_cols[pick - m]))
        };
        let Scan::Best(score) = self.scan(line) else {
            return;
        };
        if self.candidates.is_empty()
            || (score >= 2 && self.rng.below(1 << 16) >= self.worse[(score as usize - 1).min(7)])
        {
            return;
        }
        let x = self.candidates[self.rng.below(self.candidates.len())];
        let evicted = self.evictions(x);
        for p in evicted {
            self.evict(p, m);
        }
        self.board.add(x);
    }

    /// Scores the cells of an empty row (`line.0`) or column (`line.1`).
    fn scan(&mut self, line: (Option<u32>, Option<u32>)) -> Scan {
        let n = self.board.n;
        self.candidates.clear();
        let mut best = u32::MAX;
        for k in 0..n as u32 {
            let x = Cell {
                r: line.0.unwrap_or(k),
                c: line.1.unwrap_or(k),
            };
            let b = &self.board;
            let cover = b.cover(x);
            if cover > best {
                continue;
            }
            let row_owner = b.col[x.r as usize] != NONE;
            let col_owner = b.row[x.c as usize];
            let (d, a) = b.diagonal_owners(x);
            let score = cover
                + u32::from(row_owner)
                + u32::from(col_owner != NONE)
                + u32::from(d != NONE)
                + u32::from(a != NONE);
            if score == 0 {
                self.board.add(x);
                return Scan::Improved;
            }
            if score > best || self.tabu[x.r as usize * n + x.c as usize] > self.iteration {
                continue;
            }
            if score == 1 && cover == 0 {
                let p = if row_owner {
                    x.r
                } else {
                    [col_owner, d, a]
                        .into_iter()
                        .find(|&p| p != NONE)
                        .expect("one owner")
                };
                if let Some(y) = self.lookahead(x, p) {
                    let m = self.free_rows.len();
                    self.evict(p, m);
                    self.board.add(x);
                    self.board.add(y);
                    return Scan::Improved;
                }
            }
            if score < best {
                best = score;
                self.candidates.clear();
            }
            self.candidates.push(x);
        }
        Scan::Best(best)
    }

    /// A cell that is free once a spy is placed at x and the spy of row p is evicted:
    /// in p's row (p's column is free then too) or in p's column.
    fn lookahead(&self, x: Cell, p: u32) -> Option<Cell> {
        let b = &self.board;
        let pc = b.col[p as usize];
        if p != x.r {
            // Column pc frees up too, but (p, pc) is p's old cell: on a diagonal with x,
            // or in x's column.
            for &c in self.free_cols.iter().filter(|&&c| c != x.c) {
                let y = Cell { r: p, c };
                if b.free_after(y, x, p) {
                    return Some(y);
                }
            }
        }
        if pc != x.c {
            for &r in self.free_rows.iter().filter(|&&r| r != x.r) {
                let y = Cell { r, c: pc };
                if b.free_after(y, x, p) {
                    return Some(y);
                }
            }
        }
        None
    }

    /// The rows of the spies a spy at x would evict: row and column owners, diagonal
    /// neighbours, and one (random) spy of every collinear pair not already hit.
    fn evictions(&mut self, x: Cell) -> Vec<u32> {
        let b = &self.board;
        let mut evicted = Vec::with_capacity(4);
        if b.col[x.r as usize] != NONE {
            evicted.push(x.r);
        }
        let (d, a) = b.diagonal_owners(x);
        for p in [b.row[x.c as usize], d, a] {
            if p != NONE && !evicted.contains(&p) {
                evicted.push(p);
            }
        }
        if b.cover(x) > 0 {
            for (p, q) in b.pairs_through(x) {
                if !evicted.contains(&p) && !evicted.contains(&q) {
                    evicted.push(if self.rng.below(2) == 0 { p } else { q });
                }
            }
        }
        evicted
    }

    fn evict(&mut self, p: u32, missing: usize) {
        let c = self.board.col[p as usize];
        self.board.remove(p);
        let until = self.iteration + TABU_BASE + self.rng.below(missing + 1) as u32;
        self.tabu[p as usize * self.board.n + c as usize] = until;
    }
}
