//! Test data for CAOS3 ("CAO Stage-3"): board makers, the input format, the
//! validator's rules and a small Grundy oracle used to pick boards on which the
//! known wrong heuristics fail. Shared with `caos3-large-tools`, which only
//! changes the limits.

use judge_kit::Lines;
use rand::Rng;

pub mod testing;

/// Input limits of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_cases: usize,
    pub max_side: usize,
}

/// CodeChef CAOS3: T <= 10, R, C <= 20.
pub const ORIGINAL: Limits = Limits {
    max_cases: 10,
    max_side: 20,
};

/// Our larger tier: T <= 10, R, C <= 40.
pub const LARGE: Limits = Limits {
    max_cases: 10,
    max_side: 40,
};

/// A map: rows of `^` and `#`.
pub type Board = Vec<Vec<u8>>;

/// The input file for `boards`, in the original's layout.
pub fn format(boards: &[Board]) -> String {
    let mut out = format!("{}\n", boards.len());
    for board in boards {
        out.push_str(&format!("{} {}\n", board.len(), board[0].len()));
        for row in board {
            out.push_str(std::str::from_utf8(row).expect("boards hold ASCII"));
            out.push('\n');
        }
    }
    out
}

/// Every cell `^`.
pub fn full(rows: usize, cols: usize) -> Board {
    vec![vec![b'^'; cols]; rows]
}

/// Each cell `^` with probability `percent`/100.
pub fn random(rng: &mut impl Rng, rows: usize, cols: usize, percent: u32) -> Board {
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    if rng.random_range(0..100) < percent {
                        b'^'
                    } else {
                        b'#'
                    }
                })
                .collect()
        })
        .collect()
}

/// All `^` except `holes` walls at random cells (repeats allowed).
pub fn holes(rng: &mut impl Rng, rows: usize, cols: usize, holes: usize) -> Board {
    let mut board = full(rows, cols);
    for _ in 0..holes {
        board[rng.random_range(0..rows)][rng.random_range(0..cols)] = b'#';
    }
    board
}

/// Walls with `count` plus-shaped `^` crosses of arm 2, each centred at a
/// random cell far enough from the border. Every centre holds a monster;
/// overlapping crosses can make more.
pub fn crosses(rng: &mut impl Rng, rows: usize, cols: usize, count: usize) -> Board {
    let mut board = vec![vec![b'#'; cols]; rows];
    if rows < 5 || cols < 5 {
        return board;
    }
    for _ in 0..count {
        let (i, j) = (rng.random_range(2..rows - 2), rng.random_range(2..cols - 2));
        for d in 0..=2 {
            board[i - d][j] = b'^';
            board[i + d][j] = b'^';
            board[i][j - d] = b'^';
            board[i][j + d] = b'^';
        }
    }
    board
}

/// Which cells hold a monster: `^` with at least two `^` in a row in each of
/// the four directions (the smallest prime, 2, fits in the cross).
pub fn monsters(board: &Board) -> Vec<Vec<bool>> {
    let (r, c) = (board.len(), board[0].len());
    let caret = |i: usize, j: usize| board[i][j] == b'^';
    (0..r)
        .map(|i| {
            (0..c)
                .map(|j| {
                    caret(i, j)
                        && i >= 2
                        && j >= 2
                        && i + 2 < r
                        && j + 2 < c
                        && (1..=2).all(|d| {
                            caret(i - d, j) && caret(i + d, j) && caret(i, j - d) && caret(i, j + d)
                        })
                })
                .collect()
        })
        .collect()
}

/// Number of monsters on the board.
pub fn monster_count(board: &Board) -> usize {
    monsters(board).iter().flatten().filter(|&&m| m).count()
}

/// Options seen while filling one rectangle: a bit set as long as the number
/// of monsters, which bounds every mex (larger options cannot matter).
struct Options(Vec<u64>);

impl Options {
    fn new(monster: &[Vec<bool>]) -> Self {
        let count = monster.iter().flatten().filter(|&&m| m).count();
        Self(vec![0; count / 64 + 1])
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }

    fn insert(&mut self, v: u16) {
        let v = usize::from(v);
        if let Some(word) = self.0.get_mut(v / 64) {
            *word |= 1 << (v % 64);
        }
    }

    fn mex(&self) -> u16 {
        let word = self
            .0
            .iter()
            .position(|&w| w != u64::MAX)
            .expect("mex <= monsters");
        (word * 64 + self.0[word].trailing_ones() as usize) as u16
    }
}

/// Grundy values of every sub-rectangle of a board: the game on the cells
/// `r1..r2` × `c1..c2` (half-open), as it is once lava surrounds them.
pub struct Grundy {
    rows: usize,
    cols: usize,
    table: Vec<u16>,
}

impl Grundy {
    /// Plain sub-rectangle DP by height: a monster (x, y) in a rectangle leaves
    /// the four pieces around its row and column, whose values XOR together.
    pub fn new(monster: &[Vec<bool>]) -> Self {
        let (r, c) = (monster.len(), monster[0].len());
        let mut grundy = Self {
            rows: r,
            cols: c,
            table: vec![0; (r + 1) * (r + 1) * (c + 1) * (c + 1)],
        };
        let mut seen = Options::new(monster);
        for h in 1..=r {
            for r1 in 0..=r - h {
                let r2 = r1 + h;
                for c1 in 0..c {
                    for c2 in c1 + 1..=c {
                        seen.clear();
                        for (x, row) in monster.iter().enumerate().take(r2).skip(r1) {
                            for y in (c1..c2).filter(|&y| row[y]) {
                                seen.insert(grundy.after(r1, r2, c1, c2, x, y));
                            }
                        }
                        let at = grundy.index(r1, r2, c1, c2);
                        grundy.table[at] = seen.mex();
                    }
                }
            }
        }
        grundy
    }

    fn index(&self, r1: usize, r2: usize, c1: usize, c2: usize) -> usize {
        let (rs, cs) = (self.rows + 1, self.cols + 1);
        ((r1 * rs + r2) * cs + c1) * cs + c2
    }

    /// The value of the rectangle `r1..r2` × `c1..c2`; 0 when it is empty.
    pub fn of(&self, r1: usize, r2: usize, c1: usize, c2: usize) -> u16 {
        self.table[self.index(r1, r2, c1, c2)]
    }

    /// The XOR of the four pieces left when the monster at (x, y) erupts
    /// inside the rectangle `r1..r2` × `c1..c2`.
    pub fn after(&self, r1: usize, r2: usize, c1: usize, c2: usize, x: usize, y: usize) -> u16 {
        self.of(r1, x, c1, y)
            ^ self.of(r1, x, y + 1, c2)
            ^ self.of(x + 1, r2, c1, y)
            ^ self.of(x + 1, r2, y + 1, c2)
    }

    /// The value of the whole board.
    pub fn board(&self) -> u16 {
        self.of(0, self.rows, 0, self.cols)
    }
}

/// Whether Asuna (first player) wins: the Grundy value of the board is not 0.
pub fn asuna_wins(board: &Board) -> bool {
    Grundy::new(&monsters(board)).board() != 0
}

/// A known wrong solution, for picking boards that refute it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// Odd number of monsters means Asuna.
    Odd,
    /// Odd min(#monster rows, #monster columns) means Asuna.
    Parity,
    /// The editorial snippet as printed (`yl + w` for `yl + h`).
    Seed,
    /// Pieces that keep the chosen row and column.
    Commenter,
}

impl Wrong {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "odd" => Some(Self::Odd),
            "parity" => Some(Self::Parity),
            "seed" => Some(Self::Seed),
            "commenter" => Some(Self::Commenter),
            _ => None,
        }
    }

    /// This solution's verdict: whether Asuna wins.
    pub fn asuna_wins(self, board: &Board) -> bool {
        let monster = monsters(board);
        let (r, c) = (board.len(), board[0].len());
        match self {
            Self::Odd => monster.iter().flatten().filter(|&&m| m).count() % 2 == 1,
            Self::Parity => {
                let rows = monster.iter().filter(|row| row.contains(&true)).count();
                let cols = (0..c).filter(|&j| monster.iter().any(|row| row[j])).count();
                rows.min(cols) % 2 == 1
            }
            Self::Seed => seed_snippet(&monster, r, c),
            Self::Commenter => commenter(&monster, r, c),
        }
    }
}

/// `sg[xl][yl][xr][yr]` with the right pieces ending at `yl + w`; indices
/// shifted by one so -1 and too-large columns read unwritten zeros.
fn seed_snippet(monster: &[Vec<bool>], r: usize, c: usize) -> bool {
    let n = r + c + 1;
    let at = |a: usize, b: usize, x: usize, y: usize| ((a * n + b) * n + x) * n + y;
    let mut sg = vec![0u16; n * n * n * n];
    let mut seen = Options::new(monster);
    // Shifted coordinates: row x is stored as x + 1, so x - 1 is plain x.
    for w in 0..r {
        for xl in 1..=r - w {
            for h in 0..c {
                for yl in 1..=c - h {
                    seen.clear();
                    for x in xl..=xl + w {
                        for y in (yl..=yl + h).filter(|&y| monster[x - 1][y - 1]) {
                            seen.insert(
                                sg[at(xl, yl, x - 1, y - 1)]
                                    ^ sg[at(xl, y + 1, x - 1, yl + w)]
                                    ^ sg[at(x + 1, yl, xl + w, y - 1)]
                                    ^ sg[at(x + 1, y + 1, xl + w, yl + w)],
                            );
                        }
                    }
                    sg[at(xl, yl, xl + w, yl + h)] = seen.mex();
                }
            }
        }
    }
    sg[at(1, 1, r, c)] != 0
}

/// Inclusive pieces `(i1..=x, j1..=y)` etc., filled by (height, width); a
/// piece equal to its rectangle reads the unwritten 0.
fn commenter(monster: &[Vec<bool>], r: usize, c: usize) -> bool {
    let at = |i1: usize, i2: usize, j1: usize, j2: usize| ((i1 * r + i2) * c + j1) * c + j2;
    let mut sg = vec![0u16; r * r * c * c];
    let mut seen = Options::new(monster);
    for h in 0..r {
        for w in 0..c {
            for i1 in 0..r - h {
                for j1 in 0..c - w {
                    let (i2, j2) = (i1 + h, j1 + w);
                    seen.clear();
                    for i in i1..=i2 {
                        for j in (j1..=j2).filter(|&j| monster[i][j]) {
                            seen.insert(
                                sg[at(i1, i, j1, j)]
                                    ^ sg[at(i1, i, j, j2)]
                                    ^ sg[at(i, i2, j1, j)]
                                    ^ sg[at(i, i2, j, j2)],
                            );
                        }
                    }
                    sg[at(i1, i2, j1, j2)] = seen.mex();
                }
            }
        }
    }
    sg[at(0, r - 1, 0, c - 1)] != 0
}

/// A random board with sides in `sides` and density in `percent` on which
/// `wrong` gives the wrong winner and that has at most `max_monsters`
/// monsters (so the exhaustive search can still solve it).
pub fn refuting(
    rng: &mut impl Rng,
    wrong: Wrong,
    sides: std::ops::RangeInclusive<usize>,
    percent: std::ops::RangeInclusive<u32>,
    max_monsters: usize,
) -> Board {
    loop {
        let (r, c) = (
            rng.random_range(sides.clone()),
            rng.random_range(sides.clone()),
        );
        let p = rng.random_range(percent.clone());
        let board = random(rng, r, c, p);
        let count = monster_count(&board);
        if count > 0 && count <= max_monsters && wrong.asuna_wins(&board) != asuna_wins(&board) {
            return board;
        }
    }
}

/// Checks one input file against `limits`: the exact layout the generator
/// writes, in the strict format of [`Lines`] (single spaces, `\n` line ends,
/// nothing after the last board).
pub fn validate(input: &str, limits: Limits) -> Result<(), String> {
    let (max_cases, max_side) = (limits.max_cases as i64, limits.max_side as i64);
    let mut lines = Lines::new(input);
    let cases = lines.int_line(1, max_cases, "T")?;
    for case in 1..=cases {
        let sides = lines.ints_in(2, 1, max_side, &format!("`R C` of case {case}"))?;
        let (rows, cols) = (sides[0], sides[1] as usize);
        for _ in 0..rows {
            let line = lines.next_line(&format!("a map row of case {case}"))?;
            if line.len() != cols || !line.bytes().all(|b| b == b'^' || b == b'#') {
                return Err(format!(
                    "line {}: expected {cols} characters `^` or `#`, got `{line}`",
                    lines.line()
                ));
            }
        }
    }
    lines.expect_end()
}

/// Usage of the generator, shown on bad arguments.
pub const USAGE: &str = "\
kinds (every random kind takes a trailing seed word):
  edge                                   fixed small and degenerate boards
  full RxC...                            all-`^` boards of the listed sizes
  random T RMIN RMAX CMIN CMAX PMIN PMAX SEED   density PMIN..=PMAX percent `^`
  losing T RMIN RMAX CMIN CMAX PMIN PMAX SEED   like random, Kirito wins only
  holes T R C HMIN HMAX SEED             all `^` with HMIN..=HMAX random walls
  crosses T R C KMIN KMAX SEED           walls with KMIN..=KMAX `^` crosses
  refute odd|parity|seed|commenter T SMIN SMAX PMIN PMAX MAXMON SEED
                                         random boards that wrong solution fails";

/// A generator's argument words, read with the message that says which
/// one is wrong (this package's generator and the interactive one's).
pub struct Words<'a> {
    pub args: &'a [String],
    pub max_side: usize,
}

impl Words<'_> {
    /// A side of a board, in 1..=max_side.
    pub fn side(&self, text: &str) -> Result<usize, String> {
        match text.parse() {
            Ok(v) if (1..=self.max_side).contains(&v) => Ok(v),
            _ => Err(format!("side `{text}` is not in 1..={}", self.max_side)),
        }
    }

    pub fn count(&self, text: &str) -> Result<usize, String> {
        text.parse().map_err(|_| format!("`{text}` is not a count"))
    }

    /// A percentage, 0..=100.
    pub fn percent(&self, text: &str) -> Result<u32, String> {
        match text.parse() {
            Ok(v) if v <= 100 => Ok(v),
            _ => Err(format!("`{text}` is not a percentage")),
        }
    }

    /// Whether there are `n` words, the kind's included.
    pub fn arity(&self, n: usize) -> Result<(), String> {
        if self.args.len() == n {
            Ok(())
        } else {
            Err(format!("`{}` takes {} arguments", self.args[0], n - 1))
        }
    }
}

/// The input file described by the generator's arguments.
pub fn generate(args: &[String], limits: Limits) -> Result<String, String> {
    // Seeded from every argument word, so equal arguments give equal bytes.
    let mut rng = judge_kit::generator::rng_from_args(args);
    let words = Words {
        args,
        max_side: limits.max_side,
    };
    let side = |text: &str| words.side(text);
    let count = |text: &str| words.count(text);
    let percent = |text: &str| words.percent(text);
    let arity = |n: usize| words.arity(n);
    let kind = args.first().ok_or("missing kind")?;
    let boards: Vec<Board> = match kind.as_str() {
        "edge" => {
            arity(1)?;
            let m = limits.max_side;
            // A single cross: exactly one monster, in the middle.
            let lone: Board = (0..5)
                .map(|i| {
                    (0..5)
                        .map(|j| if i == 2 || j == 2 { b'^' } else { b'#' })
                        .collect()
                })
                .collect();
            vec![
                full(1, 1),
                vec![vec![b'#']],
                full(1, m),
                full(m, 1),
                full(4, m),
                full(m, 4),
                full(5, 5),
                lone,
                vec![vec![b'#'; m]; m],
                full(5, 6),
            ]
        }
        "full" => args[1..]
            .iter()
            .map(|size| {
                let (r, c) = size
                    .split_once('x')
                    .ok_or_else(|| format!("size `{size}` is not RxC"))?;
                Ok(full(side(r)?, side(c)?))
            })
            .collect::<Result<_, String>>()?,
        "random" | "losing" => {
            arity(9)?;
            let t = count(&args[1])?;
            let (r1, r2, c1, c2) = (
                side(&args[2])?,
                side(&args[3])?,
                side(&args[4])?,
                side(&args[5])?,
            );
            let (p1, p2) = (percent(&args[6])?, percent(&args[7])?);
            (0..t)
                .map(|_| {
                    // For "losing", the ranges must allow boards that Kirito wins.
                    loop {
                        let (r, c) = (rng.random_range(r1..=r2), rng.random_range(c1..=c2));
                        let p = rng.random_range(p1..=p2);
                        let board = random(&mut rng, r, c, p);
                        if kind == "random" || !asuna_wins(&board) {
                            break board;
                        }
                    }
                })
                .collect()
        }
        "holes" | "crosses" => {
            arity(7)?;
            let t = count(&args[1])?;
            let (r, c) = (side(&args[2])?, side(&args[3])?);
            let (k1, k2) = (count(&args[4])?, count(&args[5])?);
            (0..t)
                .map(|_| {
                    let k = rng.random_range(k1..=k2);
                    if kind == "holes" {
                        holes(&mut rng, r, c, k)
                    } else {
                        crosses(&mut rng, r, c, k)
                    }
                })
                .collect()
        }
        "refute" => {
            arity(9)?;
            let wrong = Wrong::parse(&args[1])
                .ok_or_else(|| format!("unknown wrong solution `{}`", args[1]))?;
            let t = count(&args[2])?;
            let (s1, s2) = (side(&args[3])?, side(&args[4])?);
            let (p1, p2) = (percent(&args[5])?, percent(&args[6])?);
            let max_monsters = count(&args[7])?;
            (0..t)
                .map(|_| refuting(&mut rng, wrong, s1..=s2, p1..=p2, max_monsters))
                .collect()
        }
        _ => return Err(format!("unknown kind `{kind}`")),
    };
    if !(1..=limits.max_cases).contains(&boards.len()) {
        return Err(format!(
            "{} boards, expected 1..={}",
            boards.len(),
            limits.max_cases
        ));
    }
    Ok(format(&boards))
}
