//! Test generation for `a-game-large` (A Game with N ≤ 20000 and values up to
//! 10^9), shared by the generator binary and the brute-force comparison test.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// Bounds on N.
pub const MIN_N: usize = 2;
pub const MAX_N: usize = 20_000;
/// Largest value on the board.
pub const MAX_V: u64 = 1_000_000_000;

/// How the board's numbers are broken into lines after the first line `N`.
/// The original warns that they may be spread over several lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// All numbers on one line.
    Line,
    /// One number per line, as in the IOI'96 input file.
    Column,
    /// Rows of this many numbers (the last one shorter).
    Wrap(usize),
    /// Rows of 1 to 10 numbers, lengths drawn at random.
    Ragged,
}

impl Layout {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "line" => Self::Line,
            "column" => Self::Column,
            "ragged" => Self::Ragged,
            _ => Self::Wrap(s.strip_prefix("wrap")?.parse().ok().filter(|&k| k > 0)?),
        })
    }
}

/// The input file: `N`, then the board laid out as asked.
pub fn render(rng: &mut impl Rng, board: &[u64], layout: Layout) -> String {
    let mut out = format!("{}\n", board.len());
    let mut rest = board;
    while !rest.is_empty() {
        let k = match layout {
            Layout::Line => rest.len(),
            Layout::Column => 1,
            Layout::Wrap(k) => k,
            Layout::Ragged => rng.random_range(1..=10),
        };
        let (row, tail) = rest.split_at(k.min(rest.len()));
        let row: Vec<String> = row.iter().map(u64::to_string).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
        rest = tail;
    }
    out
}

/// How the board's values are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Uniform in `1..=max_v`.
    Random,
    /// Every value equals `max_v`.
    Const,
    /// Mostly small values with a few large ones: grabbing the larger end
    /// often uncovers a large value for the opponent.
    Spikes,
}

impl Kind {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "random" => Self::Random,
            "const" => Self::Const,
            "spikes" => Self::Spikes,
            _ => return None,
        })
    }
}

/// A board of `n` values drawn as `kind` says, at most `max_v`.
pub fn board(rng: &mut impl Rng, kind: Kind, n: usize, max_v: u64) -> Vec<u64> {
    match kind {
        Kind::Random => (0..n).map(|_| rng.random_range(1..=max_v)).collect(),
        Kind::Const => vec![max_v; n],
        Kind::Spikes => (0..n)
            .map(|_| {
                if rng.random_bool(0.15) {
                    rng.random_range(max_v.div_ceil(2)..=max_v)
                } else {
                    rng.random_range(1..=max_v.div_ceil(10))
                }
            })
            .collect(),
    }
}

/// Builds an input from generator arguments `KIND N MAXV LAYOUT SEED`, where
/// `LAYOUT` is `line`, `column`, `wrapK` or `ragged`.
///
/// # Errors
/// Returns a usage message when the arguments are malformed or out of range.
pub fn generate(args: &[String]) -> Result<String, String> {
    const USAGE: &str =
        "usage: KIND(random|const|spikes) N MAXV LAYOUT(line|column|wrapK|ragged) SEED";
    let [kind, n, max_v, layout, seed] = args else {
        return Err(USAGE.into());
    };
    let kind = Kind::parse(kind).ok_or(USAGE)?;
    let n: usize = n.parse().map_err(|_| USAGE)?;
    let max_v: u64 = max_v.parse().map_err(|_| USAGE)?;
    let layout = Layout::parse(layout).ok_or(USAGE)?;
    let seed: u64 = seed.parse().map_err(|_| USAGE)?;
    if !(MIN_N..=MAX_N).contains(&n) || !(1..=MAX_V).contains(&max_v) {
        return Err(format!(
            "N must be in {MIN_N}..={MAX_N}, MAXV in 1..={MAX_V}"
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let b = board(&mut rng, kind, n, max_v);
    Ok(render(&mut rng, &b, layout))
}
