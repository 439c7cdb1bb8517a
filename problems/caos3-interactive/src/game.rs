//! The game itself, as pure functions: positions, legal moves, their values
//! and the referee's choice.
//!
//! Lava from a volcano runs along its row and column until the edge or
//! earlier lava, so the cells still free always form disjoint rectangles
//! bounded by lava or the edge, and a move at (x, y) inside a rectangle
//! replaces it by the (up to) four pieces around row x and column y. A
//! position's Grundy value is the XOR of its rectangles' values, which
//! `caos3-tools` tabulates for every sub-rectangle of the map.

use caos3_tools::{Board, Grundy, monsters};

/// A move: the 0-based cell (row, column) of a monster.
pub type Move = (usize, usize);

/// The fixed part of a game: where the monsters are and the values of all
/// sub-rectangles.
pub struct Rules {
    pub monster: Vec<Vec<bool>>,
    pub grundy: Grundy,
}

impl Rules {
    pub fn new(board: &Board) -> Rules {
        let monster = monsters(board);
        let grundy = Grundy::new(&monster);
        Rules { monster, grundy }
    }

    pub fn rows(&self) -> usize {
        self.monster.len()
    }

    pub fn cols(&self) -> usize {
        self.monster[0].len()
    }
}

/// Free cells `r1..r2` × `c1..c2` (half-open), surrounded by lava or the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub r1: usize,
    pub r2: usize,
    pub c1: usize,
    pub c2: usize,
}

impl Rect {
    fn contains(&self, (x, y): Move) -> bool {
        (self.r1..self.r2).contains(&x) && (self.c1..self.c2).contains(&y)
    }

    fn value(&self, rules: &Rules) -> u16 {
        rules.grundy.of(self.r1, self.r2, self.c1, self.c2)
    }

    /// The pieces left when (x, y) erupts inside this rectangle.
    fn split(&self, (x, y): Move) -> [Rect; 4] {
        let Rect { r1, r2, c1, c2 } = *self;
        [
            Rect {
                r1,
                r2: x,
                c1,
                c2: y,
            },
            Rect {
                r1,
                r2: x,
                c1: y + 1,
                c2,
            },
            Rect {
                r1: x + 1,
                r2,
                c1,
                c2: y,
            },
            Rect {
                r1: x + 1,
                r2,
                c1: y + 1,
                c2,
            },
        ]
    }
}

/// Why a cell is not a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    NoMonster,
    Lava,
}

/// A position: the free rectangles (lava everywhere else).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub rects: Vec<Rect>,
}

impl Position {
    /// The whole map, no lava yet.
    pub fn start(rules: &Rules) -> Position {
        Position {
            rects: vec![Rect {
                r1: 0,
                r2: rules.rows(),
                c1: 0,
                c2: rules.cols(),
            }],
        }
    }

    pub fn is_lava(&self, cell: Move) -> bool {
        !self.rects.iter().any(|r| r.contains(cell))
    }

    pub fn check(&self, rules: &Rules, cell: Move) -> Result<(), Illegal> {
        if !rules.monster[cell.0][cell.1] {
            Err(Illegal::NoMonster)
        } else if self.is_lava(cell) {
            Err(Illegal::Lava)
        } else {
            Ok(())
        }
    }

    /// Every legal move with the value of the position after it, in
    /// reading order.
    pub fn moves_with_values(&self, rules: &Rules) -> Vec<(Move, u16)> {
        let total = self.value(rules);
        let mut moves = Vec::new();
        for r in &self.rects {
            let others = total ^ r.value(rules);
            for x in r.r1..r.r2 {
                for y in (r.c1..r.c2).filter(|&y| rules.monster[x][y]) {
                    let pieces = rules.grundy.after(r.r1, r.r2, r.c1, r.c2, x, y);
                    moves.push(((x, y), others ^ pieces));
                }
            }
        }
        moves.sort_unstable();
        moves
    }

    /// Every legal move, in reading order.
    pub fn moves(&self, rules: &Rules) -> Vec<Move> {
        self.moves_with_values(rules)
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    /// The Grundy value: 0 exactly when the player to move loses.
    pub fn value(&self, rules: &Rules) -> u16 {
        self.rects.iter().fold(0, |v, r| v ^ r.value(rules))
    }

    /// Makes the legal move `cell`.
    pub fn play(&mut self, cell: Move) {
        let at = self
            .rects
            .iter()
            .position(|r| r.contains(cell))
            .expect("a legal move");
        let rect = self.rects.swap_remove(at);
        self.rects.extend(
            rect.split(cell)
                .into_iter()
                .filter(|r| r.r1 < r.r2 && r.c1 < r.c2),
        );
    }

    /// The live monsters.
    pub fn monster_count(&self, rules: &Rules) -> usize {
        self.moves(rules).len()
    }
}

/// How a move looks to the referee: whether it wins, and how the opponent's
/// replies split into those that keep its chances and those that throw them
/// away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outlook {
    /// The position after the move is lost for the opponent.
    pub wins: bool,
    /// Opponent replies that leave the referee in a lost position.
    pub good_replies: usize,
    /// Opponent replies that do not.
    pub bad_replies: usize,
}

/// The outlook of the legal move `cell` from `position`.
pub fn outlook(rules: &Rules, position: &Position, cell: Move) -> Outlook {
    let mut after = position.clone();
    after.play(cell);
    let replies = after.moves_with_values(rules);
    let good_replies = replies.iter().filter(|&&(_, v)| v == 0).count();
    Outlook {
        wins: after.value(rules) == 0,
        good_replies,
        bad_replies: replies.len() - good_replies,
    }
}

/// The referee's move, or `None` when it has none. It plays perfectly: a
/// winning move whenever there is one. Among equally good moves it gives a
/// mistaken opponent the most chances to go wrong: the most bad replies,
/// then the fewest good ones, then the first in reading order. (A lost
/// opponent has only bad replies, so a winning referee drags the game out,
/// which also shows a person more of it.)
pub fn referee_move(rules: &Rules, position: &Position) -> Option<Move> {
    let key = |m: Move| {
        let o = outlook(rules, position, m);
        (o.wins, o.bad_replies, std::cmp::Reverse(o.good_replies))
    };
    let mut best: Option<(Move, _)> = None;
    for m in position.moves(rules) {
        let k = key(m);
        if best.is_none_or(|(_, b)| k > b) {
            best = Some((m, k));
        }
    }
    best.map(|(m, _)| m)
}

/// Players used to choose tests and to check the referee: the strategy of
/// each known wrong solution, and a perfect one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// A move to a position of value 0 when there is one (the reference).
    Perfect,
    /// "Every move kills one monster": leave an even number of monsters.
    Odd,
    /// "The game lasts min(#monster rows, #monster columns) moves": leave
    /// that minimum even.
    Parity,
}

impl Strategy {
    pub fn parse(name: &str) -> Option<Strategy> {
        match name {
            "perfect" => Some(Strategy::Perfect),
            "odd" => Some(Strategy::Odd),
            "parity" => Some(Strategy::Parity),
            _ => None,
        }
    }

    /// The first legal move (reading order) this strategy likes, else the
    /// first legal move; `None` when there is none.
    pub fn choose(self, rules: &Rules, position: &Position) -> Option<Move> {
        let moves = position.moves(rules);
        let likes = |&m: &Move| {
            let mut after = position.clone();
            after.play(m);
            match self {
                Strategy::Perfect => after.value(rules) == 0,
                Strategy::Odd => after.monster_count(rules) % 2 == 0,
                Strategy::Parity => {
                    let live = after.moves(rules);
                    let mut rows: Vec<usize> = live.iter().map(|m| m.0).collect();
                    let mut cols: Vec<usize> = live.iter().map(|m| m.1).collect();
                    rows.sort_unstable();
                    rows.dedup();
                    cols.sort_unstable();
                    cols.dedup();
                    rows.len().min(cols.len()) % 2 == 0
                }
            }
        };
        moves.iter().copied().find(likes).or(moves.first().copied())
    }
}

/// Plays `strategy` as the first player against the referee; true if it
/// makes the last move.
pub fn first_player_wins(rules: &Rules, strategy: Strategy) -> bool {
    let mut position = Position::start(rules);
    loop {
        let Some(mine) = strategy.choose(rules, &position) else {
            return false;
        };
        position.play(mine);
        let Some(theirs) = referee_move(rules, &position) else {
            return true;
        };
        position.play(theirs);
    }
}

/// The first move of the submission that threw the win away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// 1-based number of the submission's move.
    pub turn: usize,
    pub played: Move,
    /// A move that would have kept the win.
    pub better: Move,
}

impl Mistake {
    /// Checks the submission's legal move `cell` from `before`; `None` if it
    /// keeps a win, or if there was no win to keep.
    pub fn check(rules: &Rules, before: &Position, turn: usize, cell: Move) -> Option<Mistake> {
        let moves = before.moves_with_values(rules);
        let better = moves.iter().find(|&&(_, v)| v == 0)?.0;
        let kept = moves.iter().any(|&(m, v)| m == cell && v == 0);
        (!kept).then_some(Mistake {
            turn,
            played: cell,
            better,
        })
    }

    pub fn describe(&self) -> String {
        let (p, b) = (self.played, self.better);
        format!(
            "your move {} ({} {}) let the referee win; ({} {}) would have kept your win",
            self.turn,
            p.0 + 1,
            p.1 + 1,
            b.0 + 1,
            b.1 + 1
        )
    }
}

/// A game of perfect play from the start: the first player's first winning
/// move each turn, the referee's choice on the others.
pub fn optimal_line(rules: &Rules) -> Vec<Move> {
    let mut position = Position::start(rules);
    let mut line = Vec::new();
    for turn in 0.. {
        let next = if turn % 2 == 0 {
            Strategy::Perfect.choose(rules, &position)
        } else {
            referee_move(rules, &position)
        };
        let Some(m) = next else { break };
        position.play(m);
        line.push(m);
    }
    line
}
