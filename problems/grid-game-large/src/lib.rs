//! Test generation for "Grid Game, large" (UVa 11553 with n ≤ 500, |M(i,j)| ≤ 10^9).
//!
//! Shared by the generator binary and by the brute-force comparison test in
//! `solutions/grid-game-large`, so both draw boards from exactly the same families.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// Largest board side allowed by the statement.
pub const MAX_N: usize = 500;
/// Largest number of boards in one input.
pub const MAX_T: usize = 5;
/// Bound on |M(i,j)|.
pub const MAX_ABS: i64 = 1_000_000_000;

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

/// Parsed generator arguments: `KIND T NMIN NMAX LO HI SEED`.
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
    pub fn parse(args: &[String]) -> Result<Spec, String> {
        const USAGE: &str = "usage: grid-game-large-generator KIND T NMIN NMAX LO HI SEED \
                             (KIND: random | equal | extremes | rowcol | product | decoy)";
        let [kind, t, n_min, n_max, lo, hi, seed] = args else {
            return Err(USAGE.into());
        };
        let num = |s: &str, what: &str| -> Result<i64, String> {
            s.parse()
                .map_err(|_| format!("{what}: `{s}` is not an integer"))
        };
        let kind = Kind::parse(kind).ok_or_else(|| format!("unknown kind `{kind}`\n{USAGE}"))?;
        let t = num(t, "T")?;
        let (n_min, n_max) = (num(n_min, "NMIN")?, num(n_max, "NMAX")?);
        let (lo, hi) = (num(lo, "LO")?, num(hi, "HI")?);
        let seed = seed
            .parse()
            .map_err(|_| format!("SEED: `{seed}` is not a u64"))?;
        if !(1..=MAX_T as i64).contains(&t) {
            return Err(format!("T must be in 1..={MAX_T}"));
        }
        if !(1 <= n_min && n_min <= n_max && n_max <= MAX_N as i64) {
            return Err(format!("need 1 <= NMIN <= NMAX <= {MAX_N}"));
        }
        if !(-MAX_ABS <= lo && lo <= hi && hi <= MAX_ABS) {
            return Err(format!("need -{MAX_ABS} <= LO <= HI <= {MAX_ABS}"));
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
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
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
    Ok(Spec::parse(args)?.generate())
}
