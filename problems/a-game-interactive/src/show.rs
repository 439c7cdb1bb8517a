//! What a person playing (`judge play`) sees on stderr: the row after each
//! move, and at the end the result and the optimal line.

use std::fmt::Write;

use crate::game::{End, Row, Solved};

/// Who made a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Submission,
    Referee,
}

/// One move and the board after it:
///
/// ```text
/// move 1: you take L (4)
///      .   7   2   9   5   2      you 4 · referee 0
/// ```
#[must_use]
pub fn after_move(
    solved: &Solved,
    number: usize,
    player: Player,
    end: End,
    after: Row,
    scores: [u32; 2],
) -> String {
    let taken = solved.values()[if end == End::Left {
        after.left - 1
    } else {
        after.right
    }];
    let who = match player {
        Player::Submission => "you take",
        Player::Referee => "referee takes",
    };
    format!(
        "move {number}: {who} {} ({taken})\n{}\n",
        end.letter(),
        board(solved, after, scores)
    )
}

/// The row with taken numbers shown as dots (so every number keeps its
/// column), then the scores.
#[must_use]
pub fn board(solved: &Solved, row: Row, [you, referee]: [u32; 2]) -> String {
    let mut line = String::new();
    for (i, v) in solved.values().iter().enumerate() {
        if (row.left..row.right).contains(&i) {
            let _ = write!(line, "{v:>4}");
        } else {
            line.push_str("   .");
        }
    }
    format!("{line}      you {you} · referee {referee}")
}

/// A submission move that was not optimal: its number (from 1), the move,
/// the final score it still allowed and the score the best move allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mistake {
    pub number: usize,
    pub end: End,
    pub got: u32,
    pub best: u32,
}

/// The closing summary: the result, the first mistake if any, and the
/// optimal line from the start.
#[must_use]
pub fn summary(solved: &Solved, scores: [u32; 2], mistake: Option<Mistake>) -> String {
    let [you, referee] = scores;
    let mut out = if you >= referee {
        format!("you win: {you} to {referee}\n")
    } else {
        format!("you lose: {you} to {referee}\n")
    };
    if let Some(m) = mistake {
        let _ = writeln!(
            out,
            "your first mistake: move {}, {} left you at most {} where the other end kept {}",
            m.number,
            m.end.letter(),
            m.got,
            m.best
        );
    }
    let (moves, [first, second]) = solved.optimal_line();
    let _ = writeln!(out, "optimal line (you {first} · referee {second}):");
    let mut row = solved.start();
    for (number, pair) in moves.chunks(2).enumerate() {
        let mut taken = pair.iter().map(|&end| {
            let value = solved.value(row, end);
            row = row.after(end);
            format!("{} ({value})", end.letter())
        });
        let (yours, theirs) = (
            taken.next().unwrap_or_default(),
            taken.next().unwrap_or_default(),
        );
        let _ = writeln!(out, "  move {}: you {yours}, referee {theirs}", number + 1);
    }
    out
}
