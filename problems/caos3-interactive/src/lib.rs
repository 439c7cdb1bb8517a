//! CodeChef CAOS3 played: the submission is Asuna and must make the last
//! move against a referee that plays perfectly. This crate holds the game
//! ([`game`]), the test format (one map: `R C`, then R rows of `^`/`#`, a
//! first-player win) with its generator and validator, and the referee's
//! rendering for a person at the terminal ([`show`]).

use caos3_tools::{Board, asuna_wins, crosses, full, holes, monster_count, random};
use judge_kit::Lines;
use rand::Rng;

pub mod game;
pub mod show;
pub mod testing;

/// Largest side of a map.
pub const MAX_SIDE: usize = 20;

/// The test file, which is also the first message to the submission.
pub fn render(board: &Board) -> String {
    let mut out = format!("{} {}\n", board.len(), board[0].len());
    for row in board {
        out.push_str(std::str::from_utf8(row).expect("maps hold ASCII"));
        out.push('\n');
    }
    out
}

/// Reads a test file in the exact layout of [`render`], within the limits
/// (whoever wins it).
pub fn parse(input: &str) -> Result<Board, String> {
    let mut lines = Lines::new(input);
    let sides = lines.ints_in(2, 1, MAX_SIDE as i64, "R and C")?;
    let (rows, cols) = (sides[0] as usize, sides[1] as usize);
    let mut board = Vec::with_capacity(rows);
    for i in 1..=rows {
        let line = lines.next_line(&format!("row {i} of the map"))?;
        if line.len() != cols || !line.bytes().all(|b| b == b'^' || b == b'#') {
            return Err(format!(
                "line {}: expected {cols} characters `^` or `#`, found `{}`",
                lines.line(),
                line.escape_debug()
            ));
        }
        board.push(line.as_bytes().to_vec());
    }
    lines.expect_end()?;
    Ok(board)
}

/// Checks a test file: the layout, the limits, and that the first player
/// (the submission) wins.
pub fn validate(input: &str) -> Result<(), String> {
    let board = parse(input)?;
    if asuna_wins(&board) {
        Ok(())
    } else {
        Err("the first player loses this map (Grundy value 0)".to_string())
    }
}

/// Usage of the generator, shown on bad arguments.
pub const USAGE: &str = "\
usage: caos3-interactive-generator KIND ARGS... (one map the first player wins)
  full RxC                                 every cell `^` (fails if the first player loses)
  random RMIN RMAX CMIN CMAX PMIN PMAX SEED  PMIN..=PMAX percent `^`
  holes R C HMIN HMAX SEED                 all `^` with HMIN..=HMAX random walls
  crosses R C KMIN KMAX SEED               walls with KMIN..=KMAX `^` crosses
  trap odd|parity RMIN RMAX CMIN CMAX PMIN PMAX SEED
                                           a random map on which that wrong
                                           strategy loses to the referee";

/// The test described by the generator's arguments.
pub fn generate(args: &[String]) -> Result<String, String> {
    let words = caos3_tools::Words {
        args,
        max_side: MAX_SIDE,
    };
    let side = |text: &str| words.side(text);
    let number = |text: &str| words.count(text);
    let percent = |text: &str| words.percent(text);
    let arity = |n: usize| words.arity(n).map_err(|e| format!("{e}\n{USAGE}"));
    let mut rng = judge_kit::generator::rng_from_args(args);
    let kind = args.first().ok_or(USAGE)?;
    // Draws until a map with monsters passes `keep` (counting is cheap,
    // solving is not); the arguments must allow one.
    let mut draw = |make: &mut dyn FnMut(&mut rand_chacha::ChaCha8Rng) -> Board,
                    keep: &dyn Fn(&Board) -> bool|
     -> Result<Board, String> {
        (0..1000)
            .map(|_| make(&mut rng))
            .find(|b| monster_count(b) > 0 && keep(b))
            .ok_or_else(|| "no map in 1000 draws fits; widen the ranges".to_string())
    };
    let board = match kind.as_str() {
        "full" => {
            arity(2)?;
            let (r, c) = args[1]
                .split_once('x')
                .ok_or_else(|| format!("size `{}` is not RxC", args[1]))?;
            let board = full(side(r)?, side(c)?);
            if !asuna_wins(&board) {
                return Err(format!("the first player loses the full {}", args[1]));
            }
            board
        }
        "random" | "trap" => {
            let (rest, strategy) = if kind == "trap" {
                arity(9)?;
                let strategy = match args[1].as_str() {
                    "odd" => game::Strategy::Odd,
                    "parity" => game::Strategy::Parity,
                    other => return Err(format!("no strategy `{other}` to trap\n{USAGE}")),
                };
                (&args[2..], Some(strategy))
            } else {
                arity(8)?;
                (&args[1..], None)
            };
            let (r1, r2) = (side(&rest[0])?, side(&rest[1])?);
            let (c1, c2) = (side(&rest[2])?, side(&rest[3])?);
            let (p1, p2) = (percent(&rest[4])?, percent(&rest[5])?);
            draw(
                &mut |rng| {
                    let (r, c) = (rng.random_range(r1..=r2), rng.random_range(c1..=c2));
                    let p = rng.random_range(p1..=p2);
                    random(rng, r, c, p)
                },
                &|b| {
                    asuna_wins(b)
                        && strategy
                            .is_none_or(|s| !game::first_player_wins(&game::Rules::new(b), s))
                },
            )?
        }
        "holes" | "crosses" => {
            arity(6)?;
            let (r, c) = (side(&args[1])?, side(&args[2])?);
            let (k1, k2) = (number(&args[3])?, number(&args[4])?);
            draw(
                &mut |rng| {
                    let k = rng.random_range(k1..=k2);
                    if kind == "holes" {
                        holes(rng, r, c, k)
                    } else {
                        crosses(rng, r, c, k)
                    }
                },
                &asuna_wins,
            )?
        }
        _ => return Err(format!("unknown kind `{kind}`\n{USAGE}")),
    };
    Ok(render(&board))
}
