//! The game itself, as pure functions: the value of any position (a minimum
//! cost assignment), which answers of Bob keep that value, and the row the
//! referee (Alice) strikes out.
//!
//! Whatever order Alice strikes rows in, Bob can hold her to the minimum cost
//! of a perfect matching of the open rows to the open columns: he fixes one
//! such matching and answers each row with its partner. Alice can do no better
//! either, since every finished game is some perfect matching. So all of
//! Alice's rows are equally good; she picks the one where Bob is most likely
//! to go wrong.

/// The board: `board[i][j]` is M(i+1, j+1).
pub type Board = Vec<Vec<i64>>;

/// A minimum-cost perfect matching of `rows` to `cols` (equally long lists
/// of board indices): `partner[a]` is the index into `cols` matched to
/// `rows[a]`.
#[derive(Clone, Debug)]
pub struct Matching {
    pub cost: i64,
    pub partner: Vec<usize>,
}

/// The Hungarian method with row and column potentials, O(k³) for k rows:
/// rows join one at a time, each along a shortest augmenting path in the
/// reduced costs.
pub fn min_matching(board: &Board, rows: &[usize], cols: &[usize]) -> Matching {
    let k = rows.len();
    assert_eq!(k, cols.len(), "a square sub-board");
    let cost = |a: usize, b: usize| board[rows[a]][cols[b]];
    // Slot 0 of the column arrays is a virtual column that holds the row
    // being added; `owner[b + 1]` is the row (1-based, 0 = none) on column b.
    let mut row_potential = vec![0i64; k + 1];
    let mut col_potential = vec![0i64; k + 1];
    let mut owner = vec![0usize; k + 1];
    let mut came_from = vec![0usize; k + 1];
    for row in 1..=k {
        owner[0] = row;
        let mut slack = vec![i64::MAX; k + 1];
        let mut done = vec![false; k + 1];
        let mut col = 0;
        while owner[col] != 0 {
            done[col] = true;
            let from = owner[col];
            let (mut delta, mut next) = (i64::MAX, 0);
            for b in 1..=k {
                if done[b] {
                    continue;
                }
                let reduced = cost(from - 1, b - 1) - row_potential[from] - col_potential[b];
                if reduced < slack[b] {
                    slack[b] = reduced;
                    came_from[b] = col;
                }
                if slack[b] < delta {
                    delta = slack[b];
                    next = b;
                }
            }
            for b in 0..=k {
                if done[b] {
                    row_potential[owner[b]] += delta;
                    col_potential[b] -= delta;
                } else {
                    slack[b] -= delta;
                }
            }
            col = next;
        }
        // Shift the rows along the path back to the virtual column.
        while col != 0 {
            let prev = came_from[col];
            owner[col] = owner[prev];
            col = prev;
        }
    }
    let mut partner = vec![0; k];
    for b in 1..=k {
        partner[owner[b] - 1] = b - 1;
    }
    let cost = (0..k).map(|a| cost(a, partner[a])).sum();
    Matching { cost, partner }
}

/// The value of the game: the least total of a perfect matching.
pub fn value(board: &Board) -> i64 {
    let all: Vec<usize> = (0..board.len()).collect();
    min_matching(board, &all, &all).cost
}

/// One position: the rows and columns still open, and what each open row's
/// answers are worth.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
    /// The least total Bob can still be held to for the open part.
    pub best: i64,
    /// `keeps[a][b]`: answering row `rows[a]` with column `cols[b]` keeps
    /// the total at `best` (a column in some optimal matching).
    pub keeps: Vec<Vec<bool>>,
    /// One optimal matching, as in [`Matching::partner`].
    pub partner: Vec<usize>,
}

impl Analysis {
    /// Analyses the sub-board of the open `rows` and `cols`.
    ///
    /// Row a may take column b = partner[c] exactly when the cheapest cycle
    /// of exchanges a → c → … → a costs nothing: a takes c's column, c
    /// takes someone else's, and so on until someone takes a's column.
    /// Exchanges cost `M(x, partner[y]) − M(x, partner[x])`; the matching is
    /// optimal, so no cycle is negative and Floyd–Warshall finds the
    /// cheapest paths in O(k³).
    pub fn new(board: &Board, rows: &[usize], cols: &[usize]) -> Analysis {
        let Matching { cost, partner } = min_matching(board, rows, cols);
        let k = rows.len();
        let swap = |x: usize, y: usize| {
            board[rows[x]][cols[partner[y]]] - board[rows[x]][cols[partner[x]]]
        };
        let mut path: Vec<Vec<i64>> = (0..k)
            .map(|x| {
                (0..k)
                    .map(|y| if x == y { 0 } else { swap(x, y) })
                    .collect()
            })
            .collect();
        for via in 0..k {
            let from_via = path[via].clone();
            for row in path.iter_mut() {
                let to_via = row[via];
                for (cell, step) in row.iter_mut().zip(&from_via) {
                    *cell = (*cell).min(to_via + step);
                }
            }
        }
        let mut keeps = vec![vec![false; k]; k];
        for a in 0..k {
            for c in 0..k {
                keeps[a][partner[c]] = swap(a, c) + path[c][a] == 0;
            }
        }
        Analysis {
            rows: rows.to_vec(),
            cols: cols.to_vec(),
            best: cost,
            keeps,
            partner,
        }
    }

    /// Whether answering board row `row` with board column `col` keeps the value.
    pub fn keeps_value(&self, row: usize, col: usize) -> bool {
        let a = self.rows.iter().position(|&r| r == row).expect("open row");
        let b = self
            .cols
            .iter()
            .position(|&c| c == col)
            .expect("open column");
        self.keeps[a][b]
    }

    /// A column that keeps the value for board row `row`.
    pub fn best_answer(&self, row: usize) -> usize {
        let a = self.rows.iter().position(|&r| r == row).expect("open row");
        self.cols[self.partner[a]]
    }

    /// How row `rows[a]` tempts Bob: whether every cell holding its smallest
    /// open number loses value (so a greedy Bob loses there), and how many
    /// of its open columns lose value.
    pub fn temptation(&self, board: &Board, a: usize) -> (bool, usize) {
        let row = &board[self.rows[a]];
        let least = self
            .cols
            .iter()
            .map(|&c| row[c])
            .min()
            .expect("open column");
        let greedy_loses = (0..self.cols.len())
            .filter(|&b| row[self.cols[b]] == least)
            .all(|b| !self.keeps[a][b]);
        let losing = self.keeps[a].iter().filter(|&&k| !k).count();
        (greedy_loses, losing)
    }

    /// The referee's row: every row is worth the same to Alice, so she picks
    /// the most tempting (a trap for a greedy Bob first, then the most losing
    /// columns), the topmost of equals.
    pub fn referee_row(&self, board: &Board) -> usize {
        let mut best = 0;
        for a in 1..self.rows.len() {
            if self.temptation(board, a) > self.temptation(board, best) {
                best = a;
            }
        }
        self.rows[best]
    }
}

/// A game in progress: which rows and columns are struck out and the total.
#[derive(Clone, Debug)]
pub struct Game<'a> {
    board: &'a Board,
    row_open: Vec<bool>,
    col_open: Vec<bool>,
    /// The rounds so far: (row, column), 0-based.
    pub moves: Vec<(usize, usize)>,
    pub total: i64,
}

impl<'a> Game<'a> {
    pub fn new(board: &'a Board) -> Game<'a> {
        let n = board.len();
        Game {
            board,
            row_open: vec![true; n],
            col_open: vec![true; n],
            moves: Vec::new(),
            total: 0,
        }
    }

    pub fn board(&self) -> &'a Board {
        self.board
    }

    pub fn row_open(&self, row: usize) -> bool {
        self.row_open[row]
    }

    pub fn col_open(&self, col: usize) -> bool {
        self.col_open[col]
    }

    /// The open part of the board, analysed.
    pub fn analyse(&self) -> Analysis {
        let open = |flags: &[bool]| (0..flags.len()).filter(|&i| flags[i]).collect::<Vec<_>>();
        Analysis::new(self.board, &open(&self.row_open), &open(&self.col_open))
    }

    /// Strikes out `row` and `col` (both open) and adds their crossing.
    pub fn play(&mut self, row: usize, col: usize) {
        assert!(self.row_open[row] && self.col_open[col], "open lines");
        self.row_open[row] = false;
        self.col_open[col] = false;
        self.moves.push((row, col));
        self.total += self.board[row][col];
    }
}

/// A greedy Bob: the smallest open number of the row, leftmost on ties.
pub fn greedy_answer(game: &Game, row: usize) -> usize {
    let board = game.board();
    (0..board.len())
        .filter(|&c| game.col_open(c))
        .min_by_key(|&c| board[row][c])
        .expect("an open column")
}

/// Plays a whole game with the referee as Alice and `bob` answering; the
/// final total.
pub fn play_out(board: &Board, mut bob: impl FnMut(&Game, usize) -> usize) -> i64 {
    let mut game = Game::new(board);
    for _ in 0..board.len() {
        let row = game.analyse().referee_row(board);
        let col = bob(&game, row);
        game.play(row, col);
    }
    game.total
}

/// Bob's first answer that let the value slip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// 1-based round.
    pub round: usize,
    pub row: usize,
    pub col: usize,
    /// A column that would have kept the value.
    pub best_col: usize,
    /// How much the least reachable total rose.
    pub loss: i64,
}

impl Mistake {
    /// Checks Bob's answer `col` to `row` in the position `before` (where
    /// `total` had been played); `None` if it keeps the value.
    pub fn check(
        board: &Board,
        before: &Analysis,
        round: usize,
        row: usize,
        col: usize,
    ) -> Option<Mistake> {
        if before.keeps_value(row, col) {
            return None;
        }
        let rest = |lines: &[usize], gone: usize| -> Vec<usize> {
            lines.iter().copied().filter(|&l| l != gone).collect()
        };
        let after = min_matching(board, &rest(&before.rows, row), &rest(&before.cols, col));
        Some(Mistake {
            round,
            row,
            col,
            best_col: before.best_answer(row),
            loss: board[row][col] + after.cost - before.best,
        })
    }

    pub fn describe(&self, board: &Board) -> String {
        format!(
            "move {}: Alice struck out row {} and you took column {} ({}), which gave away {}; \
             column {} ({}) kept the value",
            self.round,
            self.row + 1,
            self.col + 1,
            board[self.row][self.col],
            self.loss,
            self.best_col + 1,
            board[self.row][self.best_col],
        )
    }
}
