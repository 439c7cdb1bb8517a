//! Shared driver for the players other than the reference: reads the row,
//! plays the N/2 rounds with one rule for choosing the end, and hands back
//! the game for the report.

use std::io::{BufRead, Write};

/// The row and what each side has taken so far; `a[left..right]` is left.
pub struct Game {
    pub a: Vec<u32>,
    pub left: usize,
    pub right: usize,
    pub sums: [u32; 2],
}

impl Game {
    fn take(&mut self, player: usize, end: &str) {
        if end == "L" {
            self.sums[player] += self.a[self.left];
            self.left += 1;
        } else {
            self.sums[player] += self.a[self.right - 1];
            self.right -= 1;
        }
    }
}

/// The next whitespace-separated token of stdin, read a line at a time.
fn token(pending: &mut Vec<String>) -> String {
    while pending.is_empty() {
        let mut line = String::new();
        if std::io::stdin().lock().read_line(&mut line).unwrap() == 0 {
            panic!("the referee closed the game");
        }
        *pending = line.split_whitespace().rev().map(String::from).collect();
    }
    pending.pop().unwrap()
}

/// Sends one line and flushes it.
pub fn send(line: &str) {
    let mut out = std::io::stdout();
    writeln!(out, "{line}").unwrap();
    out.flush().unwrap();
}

/// Plays every round, taking the end `choose` names (`"L"` or `"R"`).
pub fn play(choose: impl Fn(&Game) -> &'static str) -> Game {
    let mut pending = Vec::new();
    let n: usize = token(&mut pending).parse().unwrap();
    let a = (0..n)
        .map(|_| token(&mut pending).parse().unwrap())
        .collect();
    let mut game = Game {
        a,
        left: 0,
        right: n,
        sums: [0, 0],
    };
    for _ in 0..n / 2 {
        let end = choose(&game);
        send(end);
        game.take(0, end);
        let reply = token(&mut pending);
        game.take(1, &reply);
    }
    game
}
