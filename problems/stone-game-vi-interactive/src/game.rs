//! The game itself, as pure functions over a position: which moves are
//! optimal, the value under optimal play, and the referee's choice.
//!
//! Taking stone i is worth a_i + b_i to the taker: its own value gained plus
//! the opponent's value denied, since Alice − Bob = Σ_{Alice's}(a + b) − Σ b.
//! So the game is "both players collect weight w = a + b". With the weights
//! left sorted w_1 ≥ w_2 ≥ …, the mover collects w_1 + w_3 + … under optimal
//! play, and taking the stone at rank k is optimal exactly when the ranks
//! before it pair up (w_1 = w_2, w_3 = w_4, …) and, for k even,
//! w_{k−1} = w_k. In terms of weights: the optimal moves are the stones whose
//! weight is at least the *floor*, the heaviest weight whose stones are odd
//! in number (or the lightest weight left when every count is even).

/// Heaviest possible weight: a + b with a, b ≤ 100.
pub const MAX_WEIGHT: usize = 200;

/// Who took a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Alice,
    Bob,
}

/// A position: which stones are left, who is to move, and the score so far.
#[derive(Debug, Clone)]
pub struct Game {
    alice: Vec<u32>,
    bob: Vec<u32>,
    /// Who took each stone, `None` while it is left.
    owner: Vec<Option<Player>>,
    /// Stones left of each weight.
    count: [u32; MAX_WEIGHT + 1],
    /// Stones of each weight in the referee's order of preference, the
    /// preferred one last; taken stones are skipped when met.
    by_weight: Vec<Vec<usize>>,
    moves: usize,
    /// Alice's values of her stones minus Bob's values of his, so far.
    diff: i64,
    /// Σ b over the stones left.
    bob_left: i64,
}

impl Game {
    /// The start of a game; values in `1..=100`.
    #[must_use]
    pub fn new(alice: &[u32], bob: &[u32]) -> Game {
        assert_eq!(alice.len(), bob.len());
        let mut count = [0; MAX_WEIGHT + 1];
        let mut by_weight = vec![Vec::new(); MAX_WEIGHT + 1];
        for i in 0..alice.len() {
            let w = (alice[i] + bob[i]) as usize;
            count[w] += 1;
            by_weight[w].push(i);
        }
        // Preferred last: the largest a, then the lowest index.
        for stones in &mut by_weight {
            stones.sort_by_key(|&i| (alice[i], std::cmp::Reverse(i)));
        }
        Game {
            alice: alice.to_vec(),
            bob: bob.to_vec(),
            owner: vec![None; alice.len()],
            count,
            by_weight,
            moves: 0,
            diff: 0,
            bob_left: bob.iter().map(|&b| i64::from(b)).sum(),
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.alice.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.alice.is_empty()
    }

    #[must_use]
    pub fn alice(&self) -> &[u32] {
        &self.alice
    }

    #[must_use]
    pub fn bob(&self) -> &[u32] {
        &self.bob
    }

    #[must_use]
    pub fn weight(&self, stone: usize) -> usize {
        (self.alice[stone] + self.bob[stone]) as usize
    }

    #[must_use]
    pub fn is_taken(&self, stone: usize) -> bool {
        self.owner[stone].is_some()
    }

    #[must_use]
    pub fn owner(&self, stone: usize) -> Option<Player> {
        self.owner[stone]
    }

    /// Moves made so far.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.moves
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.moves == self.len()
    }

    #[must_use]
    pub fn alice_to_move(&self) -> bool {
        self.moves % 2 == 0
    }

    /// Alice's total minus Bob's total so far.
    #[must_use]
    pub fn diff(&self) -> i64 {
        self.diff
    }

    /// The player to move takes `stone`, which must be left.
    pub fn take(&mut self, stone: usize) {
        assert!(!self.is_taken(stone), "stone {stone} taken twice");
        let w = self.weight(stone);
        let player = if self.alice_to_move() {
            self.diff += i64::from(self.alice[stone]);
            Player::Alice
        } else {
            self.diff -= i64::from(self.bob[stone]);
            Player::Bob
        };
        self.bob_left -= i64::from(self.bob[stone]);
        self.owner[stone] = Some(player);
        self.count[w] -= 1;
        self.moves += 1;
    }

    /// The lightest weight the mover may take without losing value (see the
    /// module comment); `None` when no stone is left.
    fn floor(count: &[u32; MAX_WEIGHT + 1]) -> Option<usize> {
        let mut lightest = None;
        for w in (0..=MAX_WEIGHT).rev().filter(|&w| count[w] > 0) {
            lightest = Some(w);
            if count[w] % 2 == 1 {
                break;
            }
        }
        lightest
    }

    /// How many of the stones left are optimal moves.
    fn optimal_count(count: &[u32; MAX_WEIGHT + 1]) -> u32 {
        Self::floor(count).map_or(0, |floor| count[floor..].iter().sum())
    }

    /// Whether taking `stone` (left) keeps the mover's optimal value.
    #[must_use]
    pub fn is_optimal(&self, stone: usize) -> bool {
        Self::floor(&self.count).is_some_and(|floor| self.weight(stone) >= floor)
    }

    /// The final Alice − Bob if both play optimally from here: Alice collects
    /// the odd ranks of the weights left when she moves, the even ones when
    /// Bob does.
    #[must_use]
    pub fn optimal_final_diff(&self) -> i64 {
        let mut rank = 0u32;
        let mut mover_weight = 0i64;
        for w in (0..=MAX_WEIGHT).rev() {
            let c = self.count[w];
            // Of ranks rank+1 ..= rank+c, the odd ones go to the mover.
            let odd = (rank + c).div_ceil(2) - rank.div_ceil(2);
            mover_weight += i64::from(odd) * w as i64;
            rank += c;
        }
        let left_weight: i64 = (0..=MAX_WEIGHT)
            .map(|w| i64::from(self.count[w]) * w as i64)
            .sum();
        let alice_weight = if self.alice_to_move() {
            mover_weight
        } else {
            left_weight - mover_weight
        };
        self.diff + alice_weight - self.bob_left
    }

    /// The referee's move (Bob): a stone of optimal value; among those the
    /// weight that leaves Alice the most moves that lose value (the heavier
    /// on a tie), and within that weight the stone Alice values most (lowest
    /// index on a tie). Taking the stone Alice values most leaves the stones
    /// that tempt her (large a, large a − b) in lighter weights, where taking
    /// them is a mistake. `None` when no stone is left.
    pub fn referee_move(&mut self) -> Option<usize> {
        let floor = Self::floor(&self.count)?;
        let left = self.len() - self.moves;
        let mut count = self.count;
        let mut best: Option<(usize, usize)> = None; // (wrong moves left to Alice, weight)
        for w in (floor..=MAX_WEIGHT).rev().filter(|&w| self.count[w] > 0) {
            count[w] -= 1;
            let wrong = left - 1 - Self::optimal_count(&count) as usize;
            count[w] += 1;
            if best.is_none_or(|(most, _)| wrong > most) {
                best = Some((wrong, w));
            }
        }
        let (_, w) = best?;
        Some(self.preferred(w))
    }

    /// The stone left of weight `w` that the referee prefers; one must be left.
    fn preferred(&mut self, w: usize) -> usize {
        let stones = &mut self.by_weight[w];
        while let Some(&stone) = stones.last() {
            if self.owner[stone].is_none() {
                return stone;
            }
            stones.pop();
        }
        unreachable!("weight {w} counted a stone but none is left")
    }

    /// A best move for Alice: a heaviest stone left (the one Alice values
    /// most on a tie). `None` when no stone is left.
    pub fn alice_best_move(&mut self) -> Option<usize> {
        let w = (0..=MAX_WEIGHT).rev().find(|&w| self.count[w] > 0)?;
        Some(self.preferred(w))
    }

    /// The next move when both play optimally: Alice as [`Game::alice_best_move`],
    /// Bob as the referee.
    pub fn optimal_move(&mut self) -> Option<usize> {
        if self.alice_to_move() {
            self.alice_best_move()
        } else {
            self.referee_move()
        }
    }
}

/// A rule Alice might follow, for building traps and testing the referee
/// against the known wrong strategies: the stone left with the largest key
/// `key(a, b)`, lowest index on a tie.
pub type Key = fn(i64, i64) -> i64;

/// Greedy by own value: the largest a.
pub const OWN: Key = |a, _| a;
/// Greedy by denial: the largest b.
pub const DENY: Key = |_, b| b;
/// Greedy by advantage: the largest a − b.
pub const DIFF: Key = |a, b| a - b;

/// Alice's pick under a greedy rule.
#[must_use]
pub fn greedy_pick(game: &Game, key: Key) -> Option<usize> {
    (0..game.len())
        .filter(|&i| !game.is_taken(i))
        .max_by_key(|&i| {
            let (a, b) = (i64::from(game.alice()[i]), i64::from(game.bob()[i]));
            (key(a, b), std::cmp::Reverse(i))
        })
}

/// The final Alice − Bob when Alice follows `pick` against the referee.
pub fn play_against_referee(alice: &[u32], bob: &[u32], pick: impl Fn(&Game) -> usize) -> i64 {
    let mut game = Game::new(alice, bob);
    while !game.is_over() {
        let stone = if game.alice_to_move() {
            pick(&game)
        } else {
            game.referee_move().expect("a stone is left")
        };
        game.take(stone);
    }
    game.diff()
}

/// The whole game under optimal play from the start: the stones in the
/// order taken, and the final Alice − Bob.
#[must_use]
pub fn optimal_line(alice: &[u32], bob: &[u32]) -> (Vec<usize>, i64) {
    let mut game = Game::new(alice, bob);
    let mut line = Vec::with_capacity(game.len());
    while let Some(stone) = game.optimal_move() {
        game.take(stone);
        line.push(stone);
    }
    (line, game.diff())
}
