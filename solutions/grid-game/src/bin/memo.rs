//! The game tree memoised on (rows left, columns left): at most 4ⁿ states, each
//! expanded in O(n²) (AC for n ≤ 8). Plays the actual game, so it does not
//! rely on the assignment insight.

use std::io::{self, Read, Write};

struct Game<'a> {
    m: &'a [Vec<i32>],
    memo: Vec<Option<i32>>,
}

impl Game<'_> {
    /// Value with `rows`/`cols` (bitmasks) still open, Alice to move.
    fn alice(&mut self, rows: usize, cols: usize) -> i32 {
        if rows == 0 {
            return 0;
        }
        let n = self.m.len();
        let key = rows << n | cols;
        if let Some(v) = self.memo[key] {
            return v;
        }
        let mut best = i32::MIN;
        for i in (0..n).filter(|i| rows >> i & 1 == 1) {
            // Bob's best reply to row i.
            let mut reply = i32::MAX;
            for j in (0..n).filter(|j| cols >> j & 1 == 1) {
                reply = reply.min(self.m[i][j] + self.alice(rows & !(1 << i), cols & !(1 << j)));
            }
            best = best.max(reply);
        }
        self.memo[key] = Some(best);
        best
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || -> i32 { tokens.next().unwrap().parse().unwrap() };
    let t = next();
    let mut out = String::new();
    for _ in 0..t {
        let n = next() as usize;
        let m: Vec<Vec<i32>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
        let mut game = Game {
            m: &m,
            memo: vec![None; 1 << (2 * n)],
        };
        let all = (1 << n) - 1;
        out += &format!("{}\n", game.alice(all, all));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
