//! Board checking for the spies problems (`spies-revised` and `spies-any-n` share it).
//!
//! A board of size n is n numbers, the 1-based column of the spy in each row. It is
//! valid when the columns form a permutation, no two spies share a diagonal and no three
//! lie on one straight line of any slope. Only exact integer arithmetic is used: every
//! direction between two spies is reduced by its gcd, so collinear triples show up as
//! repeated directions from the same spy (O(n²) gcds).

use std::collections::HashMap;
use std::fmt;

use judge_kit::Tokens;

/// Board sizes for which no valid board exists (exhaustive search; OEIS A365437).
pub const INFEASIBLE: [u64; 5] = [2, 3, 5, 6, 7];

/// Whether a valid board of size n exists, for 1 <= n <= 999 (boards are known for
/// every n from 8 to 1000; n = 1 and 4 have boards too).
pub fn feasible(n: u64) -> bool {
    !INFEASIBLE.contains(&n)
}

/// Why a board is invalid. Rows and columns are 1-based, as in the output format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Defect {
    ColumnOutOfRange { row: usize, col: u64 },
    ColumnTwice { col: u64, rows: (usize, usize) },
    Diagonal { rows: (usize, usize) },
    Collinear { rows: (usize, usize, usize) },
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Defect::ColumnOutOfRange { row, col } => {
                write!(
                    f,
                    "row {row}: column {col} is not between 1 and the board size"
                )
            }
            Defect::ColumnTwice { col, rows: (a, b) } => {
                write!(f, "column {col} used twice (rows {a} and {b})")
            }
            Defect::Diagonal { rows: (a, b) } => write!(f, "rows {a} and {b} share a diagonal"),
            Defect::Collinear { rows: (a, b, c) } => write!(f, "rows {a}, {b}, {c} are collinear"),
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// The first defect of a board (`cols[i]` = 1-based column of row i + 1), or None if it
/// is valid. Reports a bad column, then a repeated column, then a shared diagonal, then
/// the collinear triple whose first two rows come first.
pub fn find_defect(cols: &[u64]) -> Option<Defect> {
    let n = cols.len();
    let mut row_of_col = vec![0usize; n + 1];
    for (i, &c) in cols.iter().enumerate() {
        if c == 0 || c > n as u64 {
            return Some(Defect::ColumnOutOfRange { row: i + 1, col: c });
        }
        if row_of_col[c as usize] != 0 {
            return Some(Defect::ColumnTwice {
                col: c,
                rows: (row_of_col[c as usize], i + 1),
            });
        }
        row_of_col[c as usize] = i + 1;
    }
    // Diagonals r - c and r + c, offset to stay non-negative.
    let mut diag = vec![0usize; 2 * n + 1];
    let mut anti = vec![0usize; 2 * n + 1];
    for (i, &c) in cols.iter().enumerate() {
        let (r, c) = (i + 1, c as usize);
        for slot in [&mut diag[r + n - c], &mut anti[r + c]] {
            if *slot != 0 {
                return Some(Defect::Diagonal { rows: (*slot, r) });
            }
            *slot = r;
        }
    }
    // From each spy i, the reduced direction to every later spy j (dr > 0): a repeat
    // means i, the earlier j and this j are collinear.
    let mut first: HashMap<(i64, i64), usize> = HashMap::with_capacity(n);
    for i in 0..n {
        first.clear();
        for j in i + 1..n {
            let (dr, dc) = ((j - i) as i64, cols[j] as i64 - cols[i] as i64);
            let g = gcd(dr, dc);
            if let Some(&k) = first.get(&(dr / g, dc / g)) {
                return Some(Defect::Collinear {
                    rows: (i + 1, k + 1, j + 1),
                });
            }
            first.insert((dr / g, dc / g), j);
        }
    }
    None
}

/// What a contestant printed: a board, or `-1` (no board exists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Impossible,
    Board(Vec<u64>),
}

/// Reads `N` followed by N column numbers (any whitespace between tokens), or a lone
/// `-1` if `allow_impossible`. `max_n` bounds N so garbage cannot make us allocate much;
/// columns must be in 1..=N (`find_defect` checks the rest).
pub fn parse_answer(output: &str, allow_impossible: bool, max_n: u64) -> Result<Answer, String> {
    let mut tokens = Tokens::new(output);
    let n = tokens.next_int("the board size")?;
    if n == -1 && allow_impossible {
        tokens.expect_end()?;
        return Ok(Answer::Impossible);
    }
    if !(1..=max_n as i64).contains(&n) {
        return Err(format!(
            "line {}: the board size {n} is not between 1 and {max_n}",
            tokens.line()
        ));
    }
    let cols = (1..=n)
        .map(|row| {
            let column = tokens.next_int_in(1, n, &format!("the column of row {row}"))?;
            Ok(column as u64)
        })
        .collect::<Result<_, String>>()?;
    tokens.expect_end()?;
    Ok(Answer::Board(cols))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Vec<u64> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    /// Independent O(n^3) check with cross products.
    fn brute_valid(cols: &[u64]) -> bool {
        let p: Vec<(i64, i64)> = cols
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as i64, c as i64))
            .collect();
        let n = p.len();
        let mut seen = vec![false; n + 1];
        for &(_, c) in &p {
            if c < 1 || c > n as i64 || seen[c as usize] {
                return false;
            }
            seen[c as usize] = true;
        }
        for i in 0..n {
            for j in i + 1..n {
                if (p[i].0 - p[j].0).abs() == (p[i].1 - p[j].1).abs() {
                    return false;
                }
                for k in j + 1..n {
                    let cross = (p[j].0 - p[i].0) * (p[k].1 - p[i].1)
                        - (p[k].0 - p[i].0) * (p[j].1 - p[i].1);
                    if cross == 0 {
                        return false;
                    }
                }
            }
        }
        true
    }

    #[test]
    fn accepts_known_boards() {
        for s in [
            "1",
            "2 4 1 3",
            "3 5 8 4 1 7 2 6",
            "2 4 7 1 3 9 6 8 5",
            "1 4 9 5 8 10 3 6 2 7",
            "2 4 7 1 8 11 5 3 9 6 10",
            "1 3 6 12 10 2 11 5 8 4 9 7",
            "1 3 12 10 7 2 11 5 8 13 9 4 6",
        ] {
            assert_eq!(find_defect(&board(s)), None, "{s}");
            assert!(brute_valid(&board(s)));
        }
    }

    #[test]
    fn rejects_the_invalid_7_board() {
        // Rows 1-4 lie on one line of slope 2.
        assert_eq!(
            find_defect(&board("1 3 5 7 2 4 6")),
            Some(Defect::Collinear { rows: (1, 2, 3) })
        );
    }

    #[test]
    fn finds_non_trivial_slopes() {
        // The seed's brute-force 11 board: rows 1, 4, 7 at columns 4, 6, 8 (slope 2/3).
        assert_eq!(
            find_defect(&board("4 7 1 6 2 10 8 3 5 9 11")),
            Some(Defect::Collinear { rows: (1, 4, 7) })
        );
    }

    /// The seed's float test `y3 == a * x3 + b`, a = (y1 - y2) / (x1 - x2), b = y1 - a * x1.
    fn float_says_collinear(p: [(i64, i64); 3]) -> bool {
        let [(x1, y1), (x2, y2), (x3, y3)] = p;
        let a = (y1 - y2) as f64 / (x1 - x2) as f64;
        let b = y1 as f64 - a * x1 as f64;
        y3 as f64 == a * x3 as f64 + b
    }

    #[test]
    fn catches_what_float_slopes_miss() {
        // The seed's float-validated 23 and 27 boards: rows 2, 8, 14 (slope 5/3) and rows
        // 9, 19, 24 are collinear, but the float test misses both.
        let b23 = board("1 3 6 2 7 16 20 13 8 5 22 19 17 23 21 9 11 14 10 4 18 12 15");
        assert!(!float_says_collinear([(2, 3), (8, 13), (14, 23)]));
        assert_eq!(
            find_defect(&b23),
            Some(Defect::Collinear { rows: (2, 8, 14) })
        );
        assert!(!brute_valid(&b23));
        let b27 = board("1 3 6 2 7 10 20 17 23 21 18 27 8 22 25 4 9 24 15 13 26 19 14 11 5 12 16");
        assert!(!float_says_collinear([(9, 23), (19, 15), (24, 11)]));
        assert_eq!(
            find_defect(&b27),
            Some(Defect::Collinear { rows: (9, 19, 24) })
        );
        assert!(!brute_valid(&b27));
    }

    #[test]
    fn rejects_permutation_and_diagonal_errors() {
        assert_eq!(
            find_defect(&board("2 4 1 4")),
            Some(Defect::ColumnTwice {
                col: 4,
                rows: (2, 4)
            })
        );
        assert_eq!(
            find_defect(&board("2 5 1 3")),
            Some(Defect::ColumnOutOfRange { row: 2, col: 5 })
        );
        assert_eq!(
            find_defect(&board("0 4 1 3")),
            Some(Defect::ColumnOutOfRange { row: 1, col: 0 })
        );
        assert_eq!(
            find_defect(&board("1 2")),
            Some(Defect::Diagonal { rows: (1, 2) })
        );
        assert_eq!(
            find_defect(&board("3 1 2")),
            Some(Defect::Diagonal { rows: (2, 3) })
        );
    }

    #[test]
    fn agrees_with_brute_force_on_all_boards_up_to_7() {
        fn perms(n: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if cur.len() == n as usize {
                out.push(cur.clone());
                return;
            }
            for c in 1..=n {
                if !cur.contains(&c) {
                    cur.push(c);
                    perms(n, cur, out);
                    cur.pop();
                }
            }
        }
        for n in 1..=7 {
            let mut all = Vec::new();
            perms(n, &mut Vec::new(), &mut all);
            let valid = all.iter().filter(|b| find_defect(b).is_none()).count();
            for b in &all {
                assert_eq!(find_defect(b).is_none(), brute_valid(b), "{b:?}");
            }
            assert_eq!(valid > 0, feasible(n), "n = {n}");
        }
    }

    #[test]
    fn parses_strictly() {
        let ok = |s: &str| parse_answer(s, true, 999);
        assert_eq!(ok("4\n2 4 1 3\n"), Ok(Answer::Board(vec![2, 4, 1, 3])));
        assert_eq!(ok(" 4 2\n4\n1 3"), Ok(Answer::Board(vec![2, 4, 1, 3])));
        assert_eq!(ok("-1\n"), Ok(Answer::Impossible));
        assert!(parse_answer("-1", false, 999).is_err());
        for bad in [
            "",
            "\n",
            "x",
            "4\n2 4 1",
            "4\n2 4 1 3 5",
            "4\n2 4 1 three",
            "4 2 4 1 -3",
            "1000\n1",
            "0",
            "-2",
            "99999999999999999999999",
            "4\n2 4 1 99999999999999999999999",
            "-1 -1",
            "4.0\n2 4 1 3",
            "+4\n2 4 1 3",
            "4\n2 4 1 3.",
        ] {
            assert!(ok(bad).is_err(), "{bad:?}");
        }
    }
}
