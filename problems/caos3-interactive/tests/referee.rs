//! The referee against an independent brute force on small maps: lava is
//! simulated cell by cell (no rectangles, no Grundy values) and positions are
//! solved by exhaustive search. In every position reachable from the start,
//! the referee's legal moves, lava, values, reply counts and choice agree.

use std::collections::{HashMap, HashSet};

use caos3_interactive_tools::game::{
    Mistake, Move, Outlook, Position, Rules, Strategy, outlook, referee_move,
};
use caos3_tools::{Board, monster_count, monsters, random};
use rand::Rng;

/// Lava as a bit per cell, row-major; maps up to 128 cells.
type Lava = u128;

/// How the referee ranks a move: a win, then most bad replies, then fewest
/// good ones.
type Key = (bool, usize, std::cmp::Reverse<usize>);

struct Brute {
    rows: usize,
    cols: usize,
    monster: Vec<Vec<bool>>,
    wins: HashMap<Lava, bool>,
}

impl Brute {
    fn bit(&self, (x, y): Move) -> Lava {
        1 << (x * self.cols + y)
    }

    /// Monsters not under lava, in reading order.
    fn moves(&self, lava: Lava) -> Vec<Move> {
        (0..self.rows)
            .flat_map(|x| (0..self.cols).map(move |y| (x, y)))
            .filter(|&m| self.monster[m.0][m.1] && lava & self.bit(m) == 0)
            .collect()
    }

    /// The volcano's cell, then lava flowing out in the four directions
    /// until the edge or a cell already under lava.
    fn erupt(&self, lava: Lava, (x, y): Move) -> Lava {
        let mut out = lava | self.bit((x, y));
        for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (mut i, mut j) = (x as i64 + dx, y as i64 + dy);
            while (0..self.rows as i64).contains(&i)
                && (0..self.cols as i64).contains(&j)
                && lava & self.bit((i as usize, j as usize)) == 0
            {
                out |= self.bit((i as usize, j as usize));
                i += dx;
                j += dy;
            }
        }
        out
    }

    /// Whether the player to move wins.
    fn wins(&mut self, lava: Lava) -> bool {
        if let Some(&w) = self.wins.get(&lava) {
            return w;
        }
        let w = self
            .moves(lava)
            .into_iter()
            .any(|m| !self.wins(self.erupt(lava, m)));
        self.wins.insert(lava, w);
        w
    }

    fn outlook(&mut self, lava: Lava, m: Move) -> Outlook {
        let after = self.erupt(lava, m);
        let replies = self.moves(after);
        let good_replies = replies
            .iter()
            .filter(|&&r| !self.wins(self.erupt(after, r)))
            .count();
        Outlook {
            wins: !self.wins(after),
            good_replies,
            bad_replies: replies.len() - good_replies,
        }
    }
}

/// Checks every position reachable from the start of `board`.
fn check_board(board: &Board) {
    let rules = Rules::new(board);
    let mut brute = Brute {
        rows: board.len(),
        cols: board[0].len(),
        monster: monsters(board),
        wins: HashMap::new(),
    };
    let mut seen = HashSet::new();
    let mut stack = vec![(Position::start(&rules), 0 as Lava)];
    while let Some((position, lava)) = stack.pop() {
        if !seen.insert(lava) {
            continue;
        }
        for x in 0..brute.rows {
            for y in 0..brute.cols {
                assert_eq!(position.is_lava((x, y)), lava & brute.bit((x, y)) != 0);
            }
        }
        let moves = brute.moves(lava);
        assert_eq!(position.moves(&rules), moves, "legal moves on {board:?}");
        let winning = brute.wins(lava);
        assert_eq!(position.value(&rules) != 0, winning, "value on {board:?}");

        let mut best: Option<(Move, Key)> = None;
        for &m in &moves {
            let expected = brute.outlook(lava, m);
            assert_eq!(
                outlook(&rules, &position, m),
                expected,
                "{m:?} on {board:?}"
            );
            let key = (
                expected.wins,
                expected.bad_replies,
                std::cmp::Reverse(expected.good_replies),
            );
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((m, key));
            }
            let mistake = Mistake::check(&rules, &position, 1, m);
            assert_eq!(mistake.is_some(), winning && !expected.wins);
            if let Some(better) = mistake.map(|k| k.better) {
                assert!(
                    !brute.wins(brute.erupt(lava, better)),
                    "a winning suggestion"
                );
            }
            let mut next = position.clone();
            next.play(m);
            stack.push((next, brute.erupt(lava, m)));
        }
        let chosen = referee_move(&rules, &position);
        assert_eq!(
            chosen,
            best.map(|(m, _)| m),
            "referee's choice on {board:?}"
        );
        if let Some(m) = chosen {
            assert_eq!(
                !brute.wins(brute.erupt(lava, m)),
                winning,
                "a move of optimal value"
            );
        }
        if let Some(m) = Strategy::Perfect
            .choose(&rules, &position)
            .filter(|_| winning)
        {
            assert!(
                !brute.wins(brute.erupt(lava, m)),
                "the perfect strategy wins"
            );
        }
    }
}

#[test]
fn referee_agrees_with_exhaustive_search() {
    let mut rng = judge_kit::generator::rng(2013);
    let mut checked = 0;
    while checked < 300 {
        let (r, c) = (rng.random_range(5..=11), rng.random_range(5..=11));
        let percent = rng.random_range(60..=100);
        let board = random(&mut rng, r, c, percent);
        // Small enough for the search, large enough to be a game.
        if (2..=13).contains(&monster_count(&board)) {
            check_board(&board);
            checked += 1;
        }
    }
}
