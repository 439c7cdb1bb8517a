//! What a person playing (`judge play`) sees on stderr: the stones after
//! each move, and at the end the result and the optimal line.

use std::fmt::Write;

use crate::game::{Game, Player, optimal_line};

/// Games up to this many stones are drawn in full after each move; larger
/// ones get one line per move.
const DRAWN: usize = 30;
/// How many moves of the optimal line the summary lists.
const LINE_SHOWN: usize = 40;

/// The move just made (`stone` is 0-based) and the position after it:
///
/// ```text
/// move 1: you take stone 2 (a 4, b 6)
/// stone    1   2   3
/// a        2   4   3
/// b        1   6   7
/// taken    .   A   .      Alice − Bob so far: 4
/// ```
#[must_use]
pub fn after_move(game: &Game, stone: usize) -> String {
    // Alice's k-th move and the referee's answer to it are both move k.
    let number = game.moves().div_ceil(2);
    // The move just made was Alice's when Bob is now to move.
    let who = if game.alice_to_move() {
        "referee takes"
    } else {
        "you take"
    };
    let (a, b) = (game.alice()[stone], game.bob()[stone]);
    let mut out = format!("move {number}: {who} stone {} (a {a}, b {b})\n", stone + 1);
    if game.len() <= DRAWN {
        out.push_str(&board(game));
    } else {
        let _ = writeln!(out, "Alice − Bob so far: {}", game.diff());
    }
    out
}

/// The stones with their values and who took each: A (Alice, you), B (Bob,
/// the referee) or a dot while it is left.
#[must_use]
pub fn board(game: &Game) -> String {
    let n = game.len();
    let row = |label: &str, cell: &dyn Fn(usize) -> String| {
        let mut line = format!("{label:<6}");
        for i in 0..n {
            let _ = write!(line, "{:>4}", cell(i));
        }
        line
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", row("stone", &|i| (i + 1).to_string()));
    let _ = writeln!(out, "{}", row("a", &|i| game.alice()[i].to_string()));
    let _ = writeln!(out, "{}", row("b", &|i| game.bob()[i].to_string()));
    let taken = row("taken", &|i| {
        match game.owner(i) {
            Some(Player::Alice) => "A",
            Some(Player::Bob) => "B",
            None => ".",
        }
        .to_string()
    });
    let _ = writeln!(out, "{taken}      Alice − Bob so far: {}", game.diff());
    out
}

/// Alice's first move that lost value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// The move's number, from 1.
    pub number: usize,
    /// The stone taken and a heaviest stone that was left (0-based).
    pub stone: usize,
    pub heaviest: usize,
    /// The final Alice − Bob the move still allowed, and the optimal one.
    pub got: i64,
    pub best: i64,
}

impl Mistake {
    /// What the mistake was, for the judge's message and the player's
    /// summary alike; `alice` and `bob` are the stones' values.
    #[must_use]
    pub fn describe(&self, alice: &[u32], bob: &[u32]) -> String {
        let weight = |i: usize| alice[i] + bob[i];
        format!(
            "move {}: stone {} (a + b = {}) while stone {} (a + b = {}) was left, \
             which dropped the best reachable Alice − Bob from {} to {}",
            self.number,
            self.stone + 1,
            weight(self.stone),
            self.heaviest + 1,
            weight(self.heaviest),
            self.best,
            self.got
        )
    }
}

/// The closing summary: the result, the first mistake if any, and the
/// optimal line from the start.
#[must_use]
pub fn summary(game: &Game, optimal: i64, mistake: Option<Mistake>) -> String {
    let diff = game.diff();
    let mut out = if diff == optimal {
        format!("you reached the optimal Alice − Bob: {diff}\n")
    } else {
        format!("you ended at Alice − Bob = {diff}; the optimal value is {optimal}\n")
    };
    if let Some(m) = mistake {
        let said = m.describe(game.alice(), game.bob());
        let _ = writeln!(out, "your first mistake was {said}");
    }
    let (line, best) = optimal_line(game.alice(), game.bob());
    let shown: Vec<String> = line
        .iter()
        .take(LINE_SHOWN)
        .map(|s| (s + 1).to_string())
        .collect();
    let more = if line.len() > LINE_SHOWN { " …" } else { "" };
    let _ = writeln!(
        out,
        "optimal line (stones in order taken): {}{more} (Alice − Bob = {best})",
        shown.join(" ")
    );
    out
}
