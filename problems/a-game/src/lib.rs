//! Test generation and validation for `a-game` (IOI'96 "A Game" as USACO
//! `game1`), shared by the generator and validator binaries, the brute-force
//! comparison test and `a-game-large-tools`, which passes its own [`Bounds`]
//! (and draws `u64` values where this problem draws `u32`).

use judge_kit::Lines;
use rand::Rng;
use rand::distr::uniform::SampleUniform;
use std::fmt::Display;
use std::str::FromStr;

pub mod testing;

/// Bounds on N.
pub const MIN_N: usize = 2;
pub const MAX_N: usize = 100;
/// Largest value on the board.
pub const MAX_V: u32 = 200;

/// A board value type. The width matters beyond range: the random draws
/// consume the generator's stream differently for `u32` and `u64`, so each
/// problem keeps the type its committed inputs were generated with.
pub trait Value:
    Copy + PartialOrd + Display + FromStr + SampleUniform + From<u8> + Into<u64>
{
    fn div_ceil(self, d: u8) -> Self;
}

impl Value for u32 {
    fn div_ceil(self, d: u8) -> Self {
        self.div_ceil(d.into())
    }
}

impl Value for u64 {
    fn div_ceil(self, d: u8) -> Self {
        self.div_ceil(d.into())
    }
}

/// The limits of one problem variant.
#[derive(Clone, Copy, Debug)]
pub struct Bounds<V> {
    pub min_n: usize,
    pub max_n: usize,
    /// Largest value on the board.
    pub max_v: V,
}

/// This problem's limits.
pub const BOUNDS: Bounds<u32> = Bounds {
    min_n: MIN_N,
    max_n: MAX_N,
    max_v: MAX_V,
};

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
pub fn render<V: Display>(rng: &mut impl Rng, board: &[V], layout: Layout) -> String {
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
        let row: Vec<String> = row.iter().map(V::to_string).collect();
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
pub fn board(rng: &mut impl Rng, kind: Kind, n: usize, max_v: u32) -> Vec<u32> {
    board_of(rng, kind, n, max_v)
}

/// [`board`] for any value type.
pub fn board_of<V: Value>(rng: &mut impl Rng, kind: Kind, n: usize, max_v: V) -> Vec<V> {
    let one = V::from(1);
    match kind {
        Kind::Random => (0..n).map(|_| rng.random_range(one..=max_v)).collect(),
        Kind::Const => vec![max_v; n],
        Kind::Spikes => (0..n)
            .map(|_| {
                if rng.random_bool(0.15) {
                    rng.random_range(Value::div_ceil(max_v, 2)..=max_v)
                } else {
                    rng.random_range(one..=Value::div_ceil(max_v, 10))
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
    generate_within(args, &BOUNDS)
}

/// [`generate`] against the given bounds.
///
/// # Errors
/// Returns a usage message when the arguments are malformed or out of range.
pub fn generate_within<V: Value>(args: &[String], bounds: &Bounds<V>) -> Result<String, String> {
    let Bounds {
        min_n,
        max_n,
        max_v: top,
    } = *bounds;
    const USAGE: &str =
        "usage: KIND(random|const|spikes) N MAXV LAYOUT(line|column|wrapK|ragged) SEED";
    let [kind, n, max_v, layout, seed] = args else {
        return Err(USAGE.into());
    };
    let kind = Kind::parse(kind).ok_or(USAGE)?;
    let n: usize = n.parse().map_err(|_| USAGE)?;
    let max_v: V = max_v.parse().map_err(|_| USAGE)?;
    let layout = Layout::parse(layout).ok_or(USAGE)?;
    let seed: u64 = seed.parse().map_err(|_| USAGE)?;
    if !(min_n..=max_n).contains(&n) || !(V::from(1)..=top).contains(&max_v) {
        return Err(format!("N must be in {min_n}..={max_n}, MAXV in 1..={top}"));
    }
    let mut rng = judge_kit::generator::rng(seed);
    let b = board_of(&mut rng, kind, n, max_v);
    Ok(render(&mut rng, &b, layout))
}

/// Checks an input against `bounds`: line 1 holds N alone, the N values
/// (1..=max_v) follow on one or more non-empty lines, in the strict format of
/// [`Lines`] (single spaces, a newline after every line).
pub fn validate<V: Copy + Into<u64>>(input: &str, bounds: &Bounds<V>) -> Result<(), String> {
    let max_v = i64::try_from(bounds.max_v.into()).expect("max_v fits i64");
    let mut lines = Lines::new(input);
    let n = lines.int_line(bounds.min_n as i64, bounds.max_n as i64, "N")?;
    let mut count = 0;
    while !lines.is_at_end() {
        let line = lines.next_line("values")?;
        for word in lines.words(line)? {
            count += 1;
            if count > n {
                return Err(format!("line {}: more than N = {n} values", lines.line()));
            }
            lines.int_in(word, 1, max_v, "a value")?;
        }
    }
    if count == n {
        Ok(())
    } else {
        Err(format!("expected {n} values, found {count}"))
    }
}
