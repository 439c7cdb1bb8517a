//! Test generation for `stone-game-vi` (LeetCode 1686 in stdin form), shared by
//! the generator binary and the brute-force comparison test.

use rand::Rng;
use rand::seq::SliceRandom;

pub mod testing;

/// Largest number of stones allowed by the original.
pub const MAX_N: usize = 100_000;
/// Largest stone value allowed by the original.
pub const MAX_V: u32 = 100;

/// One game: `alice[i]` and `bob[i]` are what stone `i` is worth to each player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub alice: Vec<u32>,
    pub bob: Vec<u32>,
}

impl Case {
    /// The input file: `n`, then Alice's values, then Bob's values, one line each.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = format!("{}\n", self.alice.len());
        for row in [&self.alice, &self.bob] {
            let line: Vec<String> = row.iter().map(u32::to_string).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

/// Values uniform in `1..=max_v`.
pub fn random(rng: &mut impl Rng, n: usize, max_v: u32) -> Case {
    let mut row = || (0..n).map(|_| rng.random_range(1..=max_v)).collect();
    let alice = row();
    let bob = row();
    Case { alice, bob }
}

/// A guaranteed draw: every value appears on two stones with `a = b`, so the
/// players split each pair of equal stones.
pub fn draw(rng: &mut impl Rng, n: usize, max_v: u32) -> Case {
    assert!(n % 2 == 0, "a paired draw needs an even n");
    let mut vals: Vec<u32> = (0..n / 2)
        .flat_map(|_| {
            let v = rng.random_range(1..=max_v);
            [v, v]
        })
        .collect();
    vals.shuffle(rng);
    Case {
        alice: vals.clone(),
        bob: vals,
    }
}

/// A draw built from mirrored pairs `(x, y)` and `(y, x)`: both stones of a
/// pair have the same a + b, so Alice takes one of each and the totals match.
/// With `nudge`, one value then moves by one, which tips the game one way or
/// the other near the boundary where wrong strategies slip.
pub fn mirror(rng: &mut impl Rng, n: usize, max_v: u32, nudge: bool) -> Case {
    assert!(n % 2 == 0, "mirrored pairs need an even n");
    let mut stones: Vec<(u32, u32)> = (0..n / 2)
        .flat_map(|_| {
            let (x, y) = (rng.random_range(1..=max_v), rng.random_range(1..=max_v));
            [(x, y), (y, x)]
        })
        .collect();
    stones.shuffle(rng);
    if nudge {
        let i = rng.random_range(0..n);
        let v = if rng.random_bool(0.5) {
            &mut stones[i].0
        } else {
            &mut stones[i].1
        };
        *v = if *v == max_v || (*v > 1 && rng.random_bool(0.5)) {
            *v - 1
        } else {
            *v + 1
        };
    }
    let (alice, bob) = stones.into_iter().unzip();
    Case { alice, bob }
}

/// Every stone has `a + b = max_v`: all stones tie on the key the optimal
/// order sorts by, so only the count each player takes matters.
pub fn const_sum(rng: &mut impl Rng, n: usize, max_v: u32) -> Case {
    assert!(max_v >= 2, "const-sum needs max_v >= 2");
    let alice: Vec<u32> = (0..n).map(|_| rng.random_range(1..max_v)).collect();
    let bob = alice.iter().map(|&a| max_v - a).collect();
    Case { alice, bob }
}

/// The generator arguments `KIND N MAXV SEED`, N at most `max_n` and MAXV
/// at most the original's (this package's generator and the interactive
/// one's), or `usage` (or the limits) as the error.
pub fn parse_args<'a>(
    args: &'a [String],
    usage: &str,
    max_n: usize,
) -> Result<(&'a str, usize, u32, u64), String> {
    let [kind, n, max_v, seed] = args else {
        return Err(usage.into());
    };
    let n: usize = n.parse().map_err(|_| usage)?;
    let max_v: u32 = max_v.parse().map_err(|_| usage)?;
    let seed: u64 = seed.parse().map_err(|_| usage)?;
    if !(1..=max_n).contains(&n) || !(1..=MAX_V).contains(&max_v) {
        return Err(format!("N must be in 1..={max_n}, MAXV in 1..={MAX_V}"));
    }
    Ok((kind, n, max_v, seed))
}

/// Builds a case from generator arguments `KIND N MAXV SEED`.
///
/// # Errors
/// Returns a usage message when the arguments are malformed or out of range.
pub fn generate(args: &[String]) -> Result<Case, String> {
    const USAGE: &str = "usage: KIND(random|draw|mirror|nudge|const-sum) N MAXV SEED";
    let (kind, n, max_v, seed) = parse_args(args, USAGE, MAX_N)?;
    let mut rng = judge_kit::generator::rng(seed);
    match kind {
        "random" => Ok(random(&mut rng, n, max_v)),
        "draw" if n % 2 == 0 => Ok(draw(&mut rng, n, max_v)),
        "mirror" if n % 2 == 0 => Ok(mirror(&mut rng, n, max_v, false)),
        "nudge" if n % 2 == 0 && max_v >= 2 => Ok(mirror(&mut rng, n, max_v, true)),
        "const-sum" if max_v >= 2 => Ok(const_sum(&mut rng, n, max_v)),
        _ => Err(USAGE.into()),
    }
}
