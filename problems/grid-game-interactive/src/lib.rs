//! UVa 11553 "Grid Game" played: the referee is Alice and strikes out rows,
//! the submission is Bob and answers with columns. This crate holds the game
//! ([`game`]), the test format (one board: `n`, then n rows) with its
//! generator and validator, and the referee's rendering for a person at the
//! terminal ([`show`]).

use grid_game_tools::Kind;
use judge_kit::Lines;
use rand::Rng;

pub mod game;
pub mod show;
pub mod testing;

pub use game::Board;

/// Largest board side.
pub const MAX_N: usize = 100;
/// Bound on |M(i,j)|.
pub const MAX_ABS: i64 = 1000;

/// The test file, which is also the first message to the submission: `n`,
/// then n lines of n numbers.
pub fn render(board: &Board) -> String {
    let mut out = format!("{}\n", board.len());
    for row in board {
        let cells: Vec<String> = row.iter().map(i64::to_string).collect();
        out += &cells.join(" ");
        out.push('\n');
    }
    out
}

/// Reads a test file that [`validate`] accepts.
pub fn parse(input: &str) -> Result<Board, String> {
    let mut lines = Lines::new(input);
    let n = lines.int_line(1, MAX_N as i64, "n")? as usize;
    let board = (0..n)
        .map(|i| lines.ints_in(n, -MAX_ABS, MAX_ABS, &format!("row {} of the board", i + 1)))
        .collect::<Result<Board, String>>()?;
    lines.expect_end()?;
    Ok(board)
}

/// Checks a test file: exactly the layout of [`render`], within the limits.
pub fn validate(input: &str) -> Result<(), String> {
    parse(input).map(drop)
}

/// Usage of the generator, shown on bad arguments.
pub const USAGE: &str = "\
usage: grid-game-interactive-generator KIND NMIN NMAX LO HI SEED
  one n×n board, n drawn from NMIN..=NMAX, cells in LO..=HI, from the
  families of grid-game (KIND: random | equal | extremes | rowcol | product
  | decoy)
   or: grid-game-interactive-generator greedy-trap NMIN NMAX LO HI SEED
  a random board on which the greedy Bob (smallest open number) loses";

/// The test described by the generator's arguments.
pub fn generate(args: &[String]) -> Result<String, String> {
    let [kind, n_min, n_max, lo, hi, seed] = args else {
        return Err(USAGE.to_string());
    };
    let int = |text: &str, what: &str| -> Result<i64, String> {
        text.parse()
            .map_err(|_| format!("{what}: `{text}` is not an integer\n{USAGE}"))
    };
    let (n_min, n_max) = (int(n_min, "NMIN")?, int(n_max, "NMAX")?);
    let (lo, hi) = (int(lo, "LO")?, int(hi, "HI")?);
    let seed: u64 = seed
        .parse()
        .map_err(|_| format!("SEED: `{seed}` is not a u64\n{USAGE}"))?;
    if !(1 <= n_min && n_min <= n_max && n_max <= MAX_N as i64) {
        return Err(format!("need 1 <= NMIN <= NMAX <= {MAX_N}"));
    }
    if !(-MAX_ABS <= lo && lo <= hi && hi <= MAX_ABS) {
        return Err(format!("need -{MAX_ABS} <= LO <= HI <= {MAX_ABS}"));
    }
    let (trap, kind) = match kind.as_str() {
        "greedy-trap" => (true, Kind::Random),
        name => (
            false,
            Kind::parse(name).ok_or_else(|| format!("unknown kind `{name}`\n{USAGE}"))?,
        ),
    };
    let mut rng = judge_kit::generator::rng(seed);
    let n_range = n_min as usize..=n_max as usize;
    for _ in 0..1000 {
        let n = rng.random_range(n_range.clone());
        let board = grid_game_tools::board(&mut rng, kind, n, lo, hi);
        if !trap || greedy_loses(&board) {
            return Ok(render(&board));
        }
    }
    Err("no board in 1000 draws traps the greedy Bob; widen the ranges".to_string())
}

/// Whether the greedy Bob ends above the value against the referee.
pub fn greedy_loses(board: &Board) -> bool {
    game::play_out(board, game::greedy_answer) != game::value(board)
}
