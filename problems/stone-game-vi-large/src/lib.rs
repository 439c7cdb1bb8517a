//! Test generation for `stone-game-vi-large` (many games, values up to 10^9),
//! shared by the generator binary and the brute-force comparison test.

use rand::Rng;
use rand::seq::SliceRandom;

/// Bound on the number of games in one input.
pub const MAX_T: usize = 100_000;
/// Bound on the total number of stones over all games of one input.
pub const MAX_TOTAL_N: usize = 1_000_000;
/// Largest stone value.
pub const MAX_V: u64 = 1_000_000_000;

/// One game: `alice[i]` and `bob[i]` are what stone `i` is worth to each player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub alice: Vec<u64>,
    pub bob: Vec<u64>,
}

/// Renders a whole input: `T`, then per game `n` and the two value lines.
#[must_use]
pub fn render(games: &[Game]) -> String {
    let mut out = format!("{}\n", games.len());
    for g in games {
        out.push_str(&format!("{}\n", g.alice.len()));
        for row in [&g.alice, &g.bob] {
            let line: Vec<String> = row.iter().map(u64::to_string).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
    }
    out
}

/// How the values of a game are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Uniform in `1..=max_v`.
    Random,
    /// Uniform in the top tenth of `1..=max_v`: sums overflow 32 bits early.
    High,
    /// Mirrored pairs `(x, y)`, `(y, x)`: an exact draw (n rounded down to even,
    /// an odd n gets one extra stone).
    Mirror,
    /// A mirrored draw with one value moved by one: games decided by a hair.
    Nudge,
    /// Every stone has `a + b = max_v`: everything ties on the sort key.
    ConstSum,
}

impl Kind {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "random" => Self::Random,
            "high" => Self::High,
            "mirror" => Self::Mirror,
            "nudge" => Self::Nudge,
            "const-sum" => Self::ConstSum,
            _ => return None,
        })
    }
}

/// One game of `n` stones with values drawn as `kind` says, bounded by `max_v`.
pub fn game<R: Rng>(rng: &mut R, kind: Kind, n: usize, max_v: u64) -> Game {
    let value = |rng: &mut R| match kind {
        Kind::High => rng.random_range(max_v - max_v / 10..=max_v),
        _ => rng.random_range(1..=max_v),
    };
    let (alice, bob) = match kind {
        Kind::Random | Kind::High => (0..n).map(|_| (value(rng), value(rng))).unzip(),
        Kind::ConstSum => {
            let max_v = max_v.max(2);
            (0..n)
                .map(|_| {
                    let a = rng.random_range(1..max_v);
                    (a, max_v - a)
                })
                .unzip()
        }
        Kind::Mirror | Kind::Nudge => {
            let mut stones: Vec<(u64, u64)> = (0..n / 2)
                .flat_map(|_| {
                    let (x, y) = (value(rng), value(rng));
                    [(x, y), (y, x)]
                })
                .collect();
            if n % 2 == 1 {
                stones.push((value(rng), value(rng)));
            }
            stones.shuffle(rng);
            if kind == Kind::Nudge && max_v >= 2 {
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
            stones.into_iter().unzip()
        }
    };
    Game { alice, bob }
}

/// Parses `N` or `LO-HI` (each game's size uniform in that range).
fn sizes(s: &str) -> Option<(usize, usize)> {
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let (lo, hi) = (lo.parse().ok()?, hi.parse().ok()?);
    (1 <= lo && lo <= hi).then_some((lo, hi))
}

/// Builds an input from generator arguments `KIND T N MAXV SEED`, where `N` is
/// a size or a range `LO-HI`.
///
/// # Errors
/// Returns a usage message when the arguments are malformed or the input would
/// break the constraints.
pub fn generate(args: &[String]) -> Result<Vec<Game>, String> {
    const USAGE: &str = "usage: KIND(random|high|mirror|nudge|const-sum) T N|LO-HI MAXV SEED";
    let [kind, t, n, max_v, seed] = args else {
        return Err(USAGE.into());
    };
    let kind = Kind::parse(kind).ok_or(USAGE)?;
    let t: usize = t.parse().map_err(|_| USAGE)?;
    let (lo, hi) = sizes(n).ok_or(USAGE)?;
    let max_v: u64 = max_v.parse().map_err(|_| USAGE)?;
    let seed: u64 = seed.parse().map_err(|_| USAGE)?;
    if !(1..=MAX_T).contains(&t) || !(1..=MAX_V).contains(&max_v) {
        return Err(format!("T must be in 1..={MAX_T}, MAXV in 1..={MAX_V}"));
    }
    if t.saturating_mul(hi) > MAX_TOTAL_N {
        return Err(format!("T * N may exceed {MAX_TOTAL_N} stones"));
    }
    let mut rng = judge_kit::generator::rng(seed);
    Ok((0..t)
        .map(|_| {
            let n = rng.random_range(lo..=hi);
            game(&mut rng, kind, n, max_v)
        })
        .collect())
}
