//! `a-game-interactive`: IOI'96 "A Game" played against a referee. The game
//! logic ([`game`]) is pure and shared by the interactor, the answers
//! program, the generator (which builds traps with it) and the tests; the
//! board kinds and checks are A Game's own, with N even and one line.

pub mod game;
pub mod show;
pub mod testing;

use a_game_tools::{Bounds, Kind, Layout, board, render};
use judge_kit::Lines;
use rand::Rng;

use game::{Solved, Strategy, greedy, odd_positions, play_against_referee};

/// Bounds on N (even) and on the values, as at IOI'96.
pub const BOUNDS: Bounds<u32> = Bounds {
    min_n: 2,
    max_n: 100,
    max_v: 200,
};

/// The board of an input file: `N` alone on a line, then the N numbers on
/// one line (single spaces, a final newline).
///
/// # Errors
/// A message naming the line when the input breaks the format or the bounds.
pub fn parse(input: &str) -> Result<Vec<u32>, String> {
    let mut lines = Lines::new(input);
    let n = lines.int_line(BOUNDS.min_n as i64, BOUNDS.max_n as i64, "N")?;
    if n % 2 != 0 {
        return Err(format!("line 1: N = {n} is odd; the game needs N even"));
    }
    let values = lines.ints_in(n as usize, 1, i64::from(BOUNDS.max_v), "the row")?;
    lines.expect_end()?;
    Ok(values.into_iter().map(|v| v as u32).collect())
}

/// The input file of a board.
#[must_use]
pub fn render_board(values: &[u32]) -> String {
    // A one-line layout draws nothing from the generator.
    render(&mut judge_kit::generator::rng(0), values, Layout::Line)
}

/// The answer file: the final scores of player 1 and player 2 under optimal
/// play. The interactor does not need it to judge (S1 ≥ S2 is the rule) but
/// checks it and shows it to a person playing.
#[must_use]
pub fn answer(values: &[u32]) -> String {
    let [first, second] = Solved::new(values).optimal_line().1;
    format!("{first} {second}\n")
}

/// How many random boards a trap search draws before giving up.
const TRAP_ATTEMPTS: usize = 100_000;

/// A board of `n` random values up to `max_v` on which player 1 following
/// `strategy` ends below the referee.
fn trap(rng: &mut impl Rng, strategy: Strategy, n: usize, max_v: u32) -> Result<Vec<u32>, String> {
    for _ in 0..TRAP_ATTEMPTS {
        let values = board(rng, Kind::Random, n, max_v);
        let [first, second] = play_against_referee(&Solved::new(&values), strategy);
        if first < second {
            return Ok(values);
        }
    }
    Err(format!(
        "no trap found in {TRAP_ATTEMPTS} boards of {n} values up to {max_v}"
    ))
}

/// Builds an input from generator arguments `KIND N MAXV SEED`. KIND is one
/// of A Game's (`random`, `spikes`, `const`) or a trap: `trap-greedy` (a
/// board on which taking the larger end loses) or `trap-odd` (one on which
/// always taking the numbers at odd positions loses).
///
/// # Errors
/// A usage message when the arguments are malformed or out of range.
pub fn generate(args: &[String]) -> Result<String, String> {
    const USAGE: &str = "usage: KIND(random|spikes|const|trap-greedy|trap-odd) N MAXV SEED";
    let [kind, n, max_v, seed] = args else {
        return Err(USAGE.into());
    };
    let n: usize = n.parse().map_err(|_| USAGE)?;
    let max_v: u32 = max_v.parse().map_err(|_| USAGE)?;
    let seed: u64 = seed.parse().map_err(|_| USAGE)?;
    if !(BOUNDS.min_n..=BOUNDS.max_n).contains(&n) || n % 2 != 0 {
        return Err(format!(
            "N must be even, in {}..={}",
            BOUNDS.min_n, BOUNDS.max_n
        ));
    }
    if !(1..=BOUNDS.max_v).contains(&max_v) {
        return Err(format!("MAXV must be in 1..={}", BOUNDS.max_v));
    }
    let mut rng = judge_kit::generator::rng(seed);
    let values = match kind.as_str() {
        "random" => board(&mut rng, Kind::Random, n, max_v),
        "spikes" => board(&mut rng, Kind::Spikes, n, max_v),
        "const" => board(&mut rng, Kind::Const, n, max_v),
        "trap-greedy" => trap(&mut rng, greedy, n, max_v)?,
        "trap-odd" => trap(&mut rng, odd_positions, n, max_v)?,
        _ => return Err(USAGE.into()),
    };
    Ok(render_board(&values))
}
