//! Test generation and validation for UVa 11553 "Grid Game": t boards of n×n
//! integers.
//!
//! Shared by the generator and validator binaries, by the brute-force
//! comparison test in `solutions/grid-game`, and by `grid-game-large-tools`,
//! which passes its own [`Bounds`]; so all draw boards from exactly the same
//! families.

use judge_kit::Lines;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub mod testing;

/// Largest board side allowed by the statement.
pub const MAX_N: usize = 8;
/// Largest number of boards in one input.
pub const MAX_T: usize = 20;
/// Bound on |M(i,j)|.
pub const MAX_ABS: i64 = 1000;

/// The limits of one problem variant and the name its binaries go by.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Problem id: the binaries are `{id}-generator` and `{id}-validator`.
    pub id: &'static str,
    /// Largest board side.
    pub max_n: usize,
    /// Largest number of boards in one input.
    pub max_t: usize,
    /// Bound on |M(i,j)|.
    pub max_abs: i64,
}

/// This problem's limits.
pub const BOUNDS: Bounds = Bounds {
    id: "grid-game",
    max_n: MAX_N,
    max_t: MAX_T,
    max_abs: MAX_ABS,
};

/// One input file: a list of square boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub boards: Vec<Vec<Vec<i64>>>,
}

impl Case {
    /// The input text in the original layout: `t`, then per board `n` and n rows.
    pub fn render(&self) -> String {
        let mut out = format!("{}\n", self.boards.len());
        for board in &self.boards {
            out += &format!("{}\n", board.len());
            for row in board {
                let cells: Vec<String> = row.iter().map(i64::to_string).collect();
                out += &cells.join(" ");
                out.push('\n');
            }
        }
        out
    }
}

/// Board families. Each draws an n×n board with every cell in `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Independent uniform cells.
    Random,
    /// One value everywhere: every assignment ties.
    Equal,
    /// Every cell is `lo` or `hi`: largest magnitudes, many ties.
    Extremes,
    /// M(i,j) = a_i + b_j: every assignment has the same sum, yet rows differ.
    RowCol,
    /// M(i,j) = a_i · b_j: the optimum pairs large a with small b (rearrangement),
    /// far from what a row-by-row greedy picks.
    Product,
    /// Each row's smallest cell sits in one shared column, so a greedy Bob
    /// burns that column on the first row and pays dearly later.
    Decoy,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "random" => Kind::Random,
            "equal" => Kind::Equal,
            "extremes" => Kind::Extremes,
            "rowcol" => Kind::RowCol,
            "product" => Kind::Product,
            "decoy" => Kind::Decoy,
            _ => return None,
        })
    }
}

/// Draws one n×n board of the given family with cells in `lo..=hi` (`lo <= hi`).
pub fn board(rng: &mut ChaCha8Rng, kind: Kind, n: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    match kind {
        Kind::Random => (0..n)
            .map(|_| (0..n).map(|_| rng.random_range(lo..=hi)).collect())
            .collect(),
        Kind::Equal => {
            let v = rng.random_range(lo..=hi);
            vec![vec![v; n]; n]
        }
        Kind::Extremes => (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| if rng.random_bool(0.5) { lo } else { hi })
                    .collect()
            })
            .collect(),
        Kind::RowCol => {
            // a_i, b_j in lo/2..=hi/2 rounded inwards so that every sum stays in
            // range; a range too narrow for that (lo = hi odd) degenerates to Equal.
            let (alo, ahi) = (lo.div_euclid(2) + lo.rem_euclid(2), hi.div_euclid(2));
            if alo > ahi {
                return vec![vec![lo; n]; n];
            }
            let a: Vec<i64> = (0..n).map(|_| rng.random_range(alo..=ahi)).collect();
            let b: Vec<i64> = (0..n).map(|_| rng.random_range(alo..=ahi)).collect();
            a.iter()
                .map(|&x| b.iter().map(|&y| x + y).collect())
                .collect()
        }
        Kind::Product => {
            // Factors in -s..=s with s² inside both bounds; an empty range
            // (e.g. lo > 0) degenerates to the closest legal constant.
            let bound = lo.abs().min(hi.abs());
            let s = (bound as f64).sqrt() as i64;
            let (flo, fhi) = if lo <= 0 && hi >= 0 { (-s, s) } else { (0, 0) };
            let a: Vec<i64> = (0..n).map(|_| rng.random_range(flo..=fhi)).collect();
            let b: Vec<i64> = (0..n).map(|_| rng.random_range(flo..=fhi)).collect();
            a.iter()
                .map(|&x| b.iter().map(|&y| (x * y).clamp(lo, hi)).collect())
                .collect()
        }
        Kind::Decoy => {
            let mut m = board(rng, Kind::Random, n, lo, hi);
            let col = rng.random_range(0..n);
            let span = (hi - lo) / 4;
            for row in m.iter_mut() {
                // The decoy column holds the row minimum (ties allowed) ...
                row[col] = rng.random_range(lo..=lo + span / 4);
                // ... and every other cell is pushed into the upper three quarters.
                for (j, cell) in row.iter_mut().enumerate() {
                    if j != col && *cell < lo + span {
                        *cell = rng.random_range(lo + span..=hi);
                    }
                }
            }
            m
        }
    }
}

/// Parsed generator arguments: `KIND T NMIN NMAX LO HI SEED`, checked against
/// the given [`Bounds`].
#[derive(Clone, Debug)]
pub struct Spec {
    pub kind: Kind,
    pub t: usize,
    pub n_min: usize,
    pub n_max: usize,
    pub lo: i64,
    pub hi: i64,
    pub seed: u64,
}

impl Spec {
    pub fn parse(args: &[String], bounds: &Bounds) -> Result<Spec, String> {
        let Bounds {
            id,
            max_n,
            max_t,
            max_abs,
        } = *bounds;
        let usage = format!(
            "usage: {id}-generator KIND T NMIN NMAX LO HI SEED \
             (KIND: random | equal | extremes | rowcol | product | decoy)"
        );
        let [kind, t, n_min, n_max, lo, hi, seed] = args else {
            return Err(usage);
        };
        let num = |s: &str, what: &str| -> Result<i64, String> {
            s.parse()
                .map_err(|_| format!("{what}: `{s}` is not an integer"))
        };
        let kind = Kind::parse(kind).ok_or_else(|| format!("unknown kind `{kind}`\n{usage}"))?;
        let t = num(t, "T")?;
        let (n_min, n_max) = (num(n_min, "NMIN")?, num(n_max, "NMAX")?);
        let (lo, hi) = (num(lo, "LO")?, num(hi, "HI")?);
        let seed = seed
            .parse()
            .map_err(|_| format!("SEED: `{seed}` is not a u64"))?;
        if !(1..=max_t as i64).contains(&t) {
            return Err(format!("T must be in 1..={max_t}"));
        }
        if !(1 <= n_min && n_min <= n_max && n_max <= max_n as i64) {
            return Err(format!("need 1 <= NMIN <= NMAX <= {max_n}"));
        }
        if !(-max_abs <= lo && lo <= hi && hi <= max_abs) {
            return Err(format!("need -{max_abs} <= LO <= HI <= {max_abs}"));
        }
        Ok(Spec {
            kind,
            t: t as usize,
            n_min: n_min as usize,
            n_max: n_max as usize,
            lo,
            hi,
            seed,
        })
    }

    /// The input file these arguments describe; deterministic in the arguments.
    pub fn generate(&self) -> Case {
        let mut rng = judge_kit::generator::rng(self.seed);
        let boards = (0..self.t)
            .map(|_| {
                let n = rng.random_range(self.n_min..=self.n_max);
                board(&mut rng, self.kind, n, self.lo, self.hi)
            })
            .collect();
        Case { boards }
    }
}

/// Runs the generator on command-line arguments.
pub fn generate(args: &[String]) -> Result<Case, String> {
    generate_within(args, &BOUNDS)
}

/// Runs the generator on command-line arguments, checked against `bounds`.
pub fn generate_within(args: &[String], bounds: &Bounds) -> Result<Case, String> {
    Ok(Spec::parse(args, bounds)?.generate())
}

/// Checks an input against `bounds`, in the strict format of [`Lines`]
/// (single spaces, a newline after every line): `t` (1..=max_t), then per
/// board a line `n` (1..=max_n) and n lines of n integers in
/// -max_abs..=max_abs.
pub fn validate(input: &str, bounds: &Bounds) -> Result<(), String> {
    let (max_t, max_n, max_abs) = (bounds.max_t as i64, bounds.max_n as i64, bounds.max_abs);
    let mut lines = Lines::new(input);
    let t = lines.int_line(1, max_t, "t")?;
    for case in 1..=t {
        let n = lines.int_line(1, max_n, &format!("n of board {case}"))?;
        for row in 1..=n {
            let what = format!("row {row} of board {case}");
            lines.ints_in(n as usize, -max_abs, max_abs, &what)?;
        }
    }
    lines.expect_end()
}
