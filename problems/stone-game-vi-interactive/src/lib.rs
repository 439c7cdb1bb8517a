//! `stone-game-vi-interactive`: LeetCode 1686 played against a referee. The
//! game logic ([`game`]) is pure and shared by the interactor, the answers
//! program, the generator (which builds traps with it) and the tests; the
//! board kinds are Stone Game VI's, with n up to 20000.

pub mod game;
pub mod show;

use judge_kit::Lines;
use rand::Rng;
use stone_game_vi_tools::{Case, const_sum, draw, mirror, random};

use game::{DENY, DIFF, Key, greedy_pick, optimal_line, play_against_referee};

/// Largest number of stones: a 20000-move game must fit the time limit.
pub const MAX_N: usize = 20_000;
/// Largest stone value, as in the original.
pub const MAX_V: u32 = 100;

/// The game of an input file: `n`, then Alice's values, then Bob's, one
/// line each (single spaces, a final newline).
///
/// # Errors
/// A message naming the line when the input breaks the format or the bounds.
pub fn parse(input: &str) -> Result<Case, String> {
    let mut lines = Lines::new(input);
    let n = lines.int_line(1, MAX_N as i64, "n")? as usize;
    let mut row = |who| -> Result<Vec<u32>, String> {
        let values = lines.ints_in(n, 1, i64::from(MAX_V), who)?;
        Ok(values.into_iter().map(|v| v as u32).collect())
    };
    let alice = row("Alice's values")?;
    let bob = row("Bob's values")?;
    lines.expect_end()?;
    Ok(Case { alice, bob })
}

/// The answer file: Alice − Bob under optimal play, the figure the
/// submission must reach and report.
#[must_use]
pub fn answer(case: &Case) -> String {
    format!("{}\n", optimal_line(&case.alice, &case.bob).1)
}

/// How many random games a trap search draws before giving up.
const TRAP_ATTEMPTS: usize = 100_000;

/// A random game of `n` stones (values up to `max_v`) on which Alice
/// following the greedy rule `key` ends below the optimal value.
fn trap(rng: &mut impl Rng, key: Key, n: usize, max_v: u32) -> Result<Case, String> {
    for _ in 0..TRAP_ATTEMPTS {
        let case = random(rng, n, max_v);
        let optimal = optimal_line(&case.alice, &case.bob).1;
        let got = play_against_referee(&case.alice, &case.bob, |game| {
            greedy_pick(game, key).expect("a stone is left")
        });
        if got < optimal {
            return Ok(case);
        }
    }
    Err(format!(
        "no trap found in {TRAP_ATTEMPTS} games of {n} stones up to {max_v}"
    ))
}

/// Builds an input from generator arguments `KIND N MAXV SEED`. KIND is one
/// of Stone Game VI's (`random`, `draw`, `mirror`, `nudge`, `const-sum`) or
/// a trap for a greedy Alice: `trap-own` (largest a), `trap-deny` (largest
/// b), `trap-diff` (largest a − b).
///
/// # Errors
/// A usage message when the arguments are malformed or out of range.
pub fn generate(args: &[String]) -> Result<String, String> {
    const USAGE: &str =
        "usage: KIND(random|draw|mirror|nudge|const-sum|trap-own|trap-deny|trap-diff) N MAXV SEED";
    let (kind, n, max_v, seed) = stone_game_vi_tools::parse_args(args, USAGE, MAX_N)?;
    let even = n % 2 == 0;
    let mut rng = judge_kit::generator::rng(seed);
    let case = match kind {
        "random" => random(&mut rng, n, max_v),
        "draw" if even => draw(&mut rng, n, max_v),
        "mirror" if even => mirror(&mut rng, n, max_v, false),
        "nudge" if even && max_v >= 2 => mirror(&mut rng, n, max_v, true),
        "const-sum" if max_v >= 2 => const_sum(&mut rng, n, max_v),
        "trap-own" => trap(&mut rng, game::OWN, n, max_v)?,
        "trap-deny" => trap(&mut rng, DENY, n, max_v)?,
        "trap-diff" => trap(&mut rng, DIFF, n, max_v)?,
        _ => return Err(USAGE.into()),
    };
    Ok(case.render())
}
