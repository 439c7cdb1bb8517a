//! The referee against an independent brute force on small boards: in every
//! position (any set of struck rows and columns) its value, its verdict on
//! each of Bob's answers and its choice of row agree with an exhaustive
//! game-tree search.

use std::collections::HashMap;

use grid_game_interactive_tools::game::{Analysis, Board, Mistake, min_matching};
use grid_game_tools::{Kind, board};
use rand::Rng;

/// The game tree: Alice picks any open row to maximise, Bob any open column
/// to minimise; memoised on the open rows and columns (bit masks).
struct Tree<'a> {
    board: &'a Board,
    memo: HashMap<(u32, u32), i64>,
}

impl Tree<'_> {
    fn value(&mut self, rows: u32, cols: u32) -> i64 {
        if rows == 0 {
            return 0;
        }
        if let Some(&v) = self.memo.get(&(rows, cols)) {
            return v;
        }
        let n = self.board.len();
        let v = (0..n)
            .filter(|r| rows >> r & 1 == 1)
            .map(|r| self.answer_value(rows, cols, r))
            .max()
            .unwrap();
        self.memo.insert((rows, cols), v);
        v
    }

    /// The best Bob can do once Alice struck out `row`.
    fn answer_value(&mut self, rows: u32, cols: u32, row: usize) -> i64 {
        (0..self.board.len())
            .filter(|c| cols >> c & 1 == 1)
            .map(|c| self.board[row][c] + self.value(rows & !(1 << row), cols & !(1 << c)))
            .min()
            .unwrap()
    }
}

fn members(mask: u32, n: usize) -> Vec<usize> {
    (0..n).filter(|i| mask >> i & 1 == 1).collect()
}

fn check_board(board: &Board) {
    let n = board.len();
    let mut tree = Tree {
        board,
        memo: HashMap::new(),
    };
    let full = (1u32 << n) - 1;
    for rows in 1..=full {
        for cols in (1..=full).filter(|c: &u32| c.count_ones() == rows.count_ones()) {
            let (row_list, col_list) = (members(rows, n), members(cols, n));
            let analysis = Analysis::new(board, &row_list, &col_list);
            let value = tree.value(rows, cols);
            assert_eq!(analysis.best, value, "value, {board:?} {rows:b} {cols:b}");
            assert_eq!(min_matching(board, &row_list, &col_list).cost, value);
            // Every row is worth the same to Alice: the value.
            let mut best_key = None;
            for (a, &r) in row_list.iter().enumerate() {
                assert_eq!(
                    tree.answer_value(rows, cols, r),
                    value,
                    "row {r} of {board:?}"
                );
                let least = col_list.iter().map(|&c| board[r][c]).min().unwrap();
                let (mut greedy_loses, mut losing) = (true, 0);
                for (b, &c) in col_list.iter().enumerate() {
                    let after = board[r][c] + tree.value(rows & !(1 << r), cols & !(1 << c));
                    let keeps = after == value;
                    assert_eq!(analysis.keeps[a][b], keeps, "({r}, {c}) in {board:?}");
                    let mistake = Mistake::check(board, &analysis, 1, r, c);
                    assert_eq!(
                        mistake.as_ref().map(|m| m.loss),
                        (!keeps).then_some(after - value)
                    );
                    if let Some(m) = mistake {
                        let better = m.best_col;
                        let kept =
                            board[r][better] + tree.value(rows & !(1 << r), cols & !(1 << better));
                        assert_eq!(kept, value, "the suggested column keeps the value");
                    }
                    if board[r][c] == least && keeps {
                        greedy_loses = false;
                    }
                    losing += usize::from(!keeps);
                }
                let key = (greedy_loses, losing);
                if best_key.is_none_or(|(k, _)| key > k) {
                    best_key = Some((key, r));
                }
            }
            let chosen = analysis.referee_row(board);
            assert_eq!(
                Some(chosen),
                best_key.map(|(_, r)| r),
                "row choice in {board:?}"
            );
        }
    }
}

#[test]
fn referee_agrees_with_the_game_tree() {
    const KINDS: [Kind; 6] = [
        Kind::Random,
        Kind::Equal,
        Kind::Extremes,
        Kind::RowCol,
        Kind::Product,
        Kind::Decoy,
    ];
    let mut rng = judge_kit::generator::rng(11553);
    for round in 0..400 {
        // Narrow ranges make ties (several optimal columns) common.
        let (lo, hi) = [(-2, 2), (0, 3), (-10, 10), (-1000, 1000)][round % 4];
        let kind = KINDS[rng.random_range(0..KINDS.len())];
        let n = rng.random_range(1..=5);
        check_board(&board(&mut rng, kind, n, lo, hi));
    }
}
