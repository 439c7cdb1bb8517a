//! The game itself, as pure functions: optimal play on every part of the
//! row, the referee's choice among its optimal moves, and the optimal line.
//!
//! The submission is player 1 and moves when an even count of numbers is
//! left (N is even); the referee is player 2.

/// Which end of the row a move takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Left,
    Right,
}

impl End {
    /// The protocol's letter.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            End::Left => 'L',
            End::Right => 'R',
        }
    }

    /// Reads a protocol letter: exactly `L` or `R`.
    #[must_use]
    pub fn parse(token: &str) -> Option<End> {
        match token {
            "L" => Some(End::Left),
            "R" => Some(End::Right),
            _ => None,
        }
    }
}

/// What is left of the row: the numbers at indices `left..right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub left: usize,
    pub right: usize,
}

impl Row {
    #[must_use]
    pub fn len(self) -> usize {
        self.right - self.left
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.left == self.right
    }

    /// The index a move takes; the row must not be empty.
    #[must_use]
    pub fn index(self, end: End) -> usize {
        match end {
            End::Left => self.left,
            End::Right => self.right - 1,
        }
    }

    /// The row after a move; the row must not be empty.
    #[must_use]
    pub fn after(self, end: End) -> Row {
        match end {
            End::Left => Row {
                left: self.left + 1,
                ..self
            },
            End::Right => Row {
                right: self.right - 1,
                ..self
            },
        }
    }
}

/// One board with every part of it solved: O(N^2) numbers, so the referee
/// answers from any position in constant time.
#[derive(Debug, Clone)]
pub struct Solved {
    values: Vec<u32>,
    prefix: Vec<u32>,
    /// `best[l][r]`: the final score of the player to move on `values[l..r]`
    /// when both play optimally from there.
    best: Vec<u32>,
    /// `traps[l][r]`: how many chances to go wrong the submission still has
    /// on `values[l..r]` (see [`Solved::traps`]).
    traps: Vec<u32>,
}

impl Solved {
    /// Solves every sub-row of `values`, shortest first.
    #[must_use]
    pub fn new(values: &[u32]) -> Solved {
        let n = values.len();
        let mut prefix = vec![0; n + 1];
        for (i, &v) in values.iter().enumerate() {
            prefix[i + 1] = prefix[i] + v;
        }
        let cells = (n + 1) * (n + 1);
        let mut solved = Solved {
            values: values.to_vec(),
            prefix,
            best: vec![0; cells],
            traps: vec![0; cells],
        };
        for len in 1..=n {
            for left in 0..=n - len {
                let row = Row {
                    left,
                    right: left + len,
                };
                // Whatever the opponent makes of the rest, the mover gets the remainder.
                let best = Self::ENDS
                    .map(|end| solved.sum(row) - solved.best(row.after(end)))
                    .into_iter()
                    .max()
                    .unwrap_or(0);
                let cell = solved.cell(row);
                solved.best[cell] = best;
                solved.traps[cell] = solved.count_traps(row);
            }
        }
        solved
    }

    const ENDS: [End; 2] = [End::Left, End::Right];

    fn cell(&self, row: Row) -> usize {
        row.left * (self.values.len() + 1) + row.right
    }

    #[must_use]
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The whole row.
    #[must_use]
    pub fn start(&self) -> Row {
        Row {
            left: 0,
            right: self.values.len(),
        }
    }

    /// The sum of the numbers left.
    #[must_use]
    pub fn sum(&self, row: Row) -> u32 {
        self.prefix[row.right] - self.prefix[row.left]
    }

    /// The value a move takes.
    #[must_use]
    pub fn value(&self, row: Row, end: End) -> u32 {
        self.values[row.index(end)]
    }

    /// Whether the submission (player 1) is to move: an even count of
    /// numbers has been taken.
    #[must_use]
    pub fn submission_to_move(&self, row: Row) -> bool {
        (self.values.len() - row.len()) % 2 == 0
    }

    /// The mover's final score from `row` under optimal play by both.
    #[must_use]
    pub fn best(&self, row: Row) -> u32 {
        self.best[self.cell(row)]
    }

    /// The mover's final score from `row` if it takes `end` and both play
    /// optimally afterwards.
    #[must_use]
    pub fn move_value(&self, row: Row, end: End) -> u32 {
        self.sum(row) - self.best(row.after(end))
    }

    #[must_use]
    pub fn is_optimal(&self, row: Row, end: End) -> bool {
        self.move_value(row, end) == self.best(row)
    }

    fn optimal_ends(&self, row: Row) -> impl Iterator<Item = End> + '_ {
        Self::ENDS
            .into_iter()
            .filter(move |&end| self.is_optimal(row, end))
    }

    /// Chances to go wrong left for the submission on `row`: the number of
    /// its turns, from here to the end, at which one end is worth strictly
    /// less than the other, counted along the line where the submission keeps
    /// playing optimally (the fewest over its own equally good choices, so
    /// the count is guaranteed) and the referee picks, among its optimal
    /// moves, the one that leaves the most.
    #[must_use]
    pub fn traps(&self, row: Row) -> u32 {
        self.traps[self.cell(row)]
    }

    /// [`Solved::traps`] from the shorter rows, already filled in.
    fn count_traps(&self, row: Row) -> u32 {
        let after = self.optimal_ends(row).map(|end| self.traps(row.after(end)));
        if self.submission_to_move(row) {
            let choice_matters =
                self.move_value(row, End::Left) != self.move_value(row, End::Right);
            u32::from(choice_matters) + after.min().unwrap_or(0)
        } else {
            after.max().unwrap_or(0)
        }
    }

    /// The referee's move: of optimal value (its own final score as large as
    /// possible, which is also the submission's as small as possible), and
    /// among those the one that leaves the submission the most
    /// [`Solved::traps`]; left on a tie. The row must not be empty.
    #[must_use]
    pub fn referee_move(&self, row: Row) -> End {
        let mut choice = None;
        for end in self.optimal_ends(row) {
            let traps = self.traps(row.after(end));
            if choice.is_none_or(|(_, best)| traps > best) {
                choice = Some((end, traps));
            }
        }
        choice.map_or(End::Left, |(end, _)| end)
    }

    /// The best move for the submission: of optimal value, left on a tie.
    #[must_use]
    pub fn submission_best_move(&self, row: Row) -> End {
        if self.is_optimal(row, End::Left) {
            End::Left
        } else {
            End::Right
        }
    }

    /// The next move from `row` when both sides play as the reference
    /// solution and the referee do.
    #[must_use]
    pub fn optimal_move(&self, row: Row) -> End {
        if self.submission_to_move(row) {
            self.submission_best_move(row)
        } else {
            self.referee_move(row)
        }
    }

    /// The whole game under optimal play from the start: the moves in order
    /// and the final scores of player 1 and player 2.
    #[must_use]
    pub fn optimal_line(&self) -> (Vec<End>, [u32; 2]) {
        let mut row = self.start();
        let mut moves = Vec::new();
        let mut scores = [0, 0];
        while !row.is_empty() {
            let end = self.optimal_move(row);
            scores[moves.len() % 2] += self.value(row, end);
            moves.push(end);
            row = row.after(end);
        }
        (moves, scores)
    }
}

/// A rule the submission might follow, for building traps and testing the
/// referee against the known wrong strategies.
pub type Strategy = fn(&Solved, Row) -> End;

/// Take the larger end, the left one on a tie.
#[must_use]
pub fn greedy(solved: &Solved, row: Row) -> End {
    if solved.value(row, End::Left) >= solved.value(row, End::Right) {
        End::Left
    } else {
        End::Right
    }
}

/// Take every number at an odd position (the 1st, 3rd, 5th, ... of the
/// original row, counting from 1), without checking that this class is the
/// richer one. With N even, one end is always such a number on player 1's
/// turn: the half of the IOI'96 committee's strategy that forgot to compare.
#[must_use]
pub fn odd_positions(_: &Solved, row: Row) -> End {
    if row.left % 2 == 0 {
        End::Left
    } else {
        End::Right
    }
}

/// The final scores of player 1 and player 2 when player 1 follows
/// `strategy` against the referee.
#[must_use]
pub fn play_against_referee(solved: &Solved, strategy: Strategy) -> [u32; 2] {
    let mut row = solved.start();
    let mut scores = [0, 0];
    while !row.is_empty() {
        let (player, end) = if solved.submission_to_move(row) {
            (0, strategy(solved, row))
        } else {
            (1, solved.referee_move(row))
        };
        scores[player] += solved.value(row, end);
        row = row.after(end);
    }
    scores
}
