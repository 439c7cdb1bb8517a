//! The shrinker's moves: each pass turns an input into smaller candidates,
//! most ambitious first. Removals follow delta debugging (halves, then
//! quarters, ... of the lines, cases, columns or tokens); values move
//! towards zero; characters towards the smallest one the input uses.
//!
//! Inputs state their own sizes (`N`, `R C`, the number of cases `T`), so a
//! removal alone is rarely a valid input. Every removal therefore comes
//! with variants in which a count before it is lowered too: the nearest
//! numbers on short lines (headers) and the file's first number, lowered
//! by the number of removed units or by one. The validator decides which
//! variant, if any, is an input.

use std::ops::Range;

use super::case::{Case, Cells, integer};

/// A token's place: line, then index in the line.
type Pos = (usize, usize);

/// One kind of move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    /// Whole cases of a multi-case input (lines shaped like line 1 start one).
    Cases,
    /// Runs of lines.
    Lines,
    /// A row and the column of the same index from a square block (an
    /// `n × n` board whose one `n` counts both).
    Squares,
    /// Columns of a block of equal lines (tokens, or characters of a map).
    Columns,
    /// Runs of tokens, wherever they are.
    Tokens,
    /// Numbers towards zero.
    Values,
    /// Characters of words towards the smallest character in the input.
    Chars,
}

/// The passes in the order they are tried: big removals first.
pub(crate) const PASSES: [Pass; 7] = [
    Pass::Cases,
    Pass::Lines,
    Pass::Squares,
    Pass::Columns,
    Pass::Tokens,
    Pass::Values,
    Pass::Chars,
];

/// One move, described (cheap to make and to skip over); `apply` turns it
/// into its candidate inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Edit {
    /// Remove these lines, lowering a count by each of `amounts`.
    Lines {
        range: Range<usize>,
        amounts: Vec<usize>,
    },
    /// Remove rows `range` and the same columns of the square block at
    /// line `first`.
    Square {
        first: usize,
        height: usize,
        cells: Cells,
        range: Range<usize>,
    },
    /// Remove columns `range` of the block at line `first`.
    Columns {
        first: usize,
        height: usize,
        cells: Cells,
        range: Range<usize>,
    },
    /// Remove tokens `range`, counted over the whole input.
    Tokens { range: Range<usize> },
    /// Lower the number at this place.
    Value { at: Pos },
    /// Replace characters of the word at this place by smaller ones.
    Chars { at: Pos, alphabet: Vec<char> },
}

/// The moves of one pass over `case`, best first.
pub(crate) fn edits(pass: Pass, case: &Case) -> Vec<Edit> {
    match pass {
        Pass::Cases => cases(case),
        Pass::Lines => lines(case),
        Pass::Squares => blocks_of(case, true),
        Pass::Columns => blocks_of(case, false),
        Pass::Tokens => {
            let n = case.tokens();
            chunks(n, n).map(|range| Edit::Tokens { range }).collect()
        }
        Pass::Values => positions(case)
            .filter(|&(line, index)| integer(&case.lines[line][index]).is_some())
            .map(|at| Edit::Value { at })
            .collect(),
        Pass::Chars => words(case),
    }
}

/// The candidate inputs of one move, best first.
pub(crate) fn apply(case: &Case, edit: &Edit) -> Vec<Case> {
    match edit {
        Edit::Lines { range, amounts } => with_counts(
            case,
            without_lines(case, range.clone()),
            (range.start, 0),
            amounts,
            false,
        ),
        Edit::Square {
            first,
            height,
            cells,
            range,
        } => {
            let mut edited = without_lines(case, first + range.start..first + range.end);
            for line in &mut edited.lines[*first..first + height - range.len()] {
                remove_cells(line, *cells, range);
            }
            with_counts(case, edited, (*first, 0), &[range.len()], true)
        }
        Edit::Columns {
            first,
            height,
            cells,
            range,
        } => {
            let mut edited = case.clone();
            for line in &mut edited.lines[*first..first + height] {
                remove_cells(line, *cells, range);
            }
            with_counts(case, edited, (*first, 0), &[range.len()], false)
        }
        Edit::Tokens { range } => {
            let Some(at) = positions(case).nth(range.start) else {
                return Vec::new();
            };
            with_counts(
                case,
                without_tokens(case, range),
                at,
                &[range.len(), 1],
                false,
            )
        }
        Edit::Value { at } => {
            let Some(value) = integer(&case.lines[at.0][at.1]) else {
                return Vec::new();
            };
            smaller_numbers(value)
                .into_iter()
                .map(|smaller| {
                    let mut edited = case.clone();
                    edited.lines[at.0][at.1] = smaller.to_string();
                    edited
                })
                .collect()
        }
        Edit::Chars { at, alphabet } => {
            let word: Vec<char> = case.lines[at.0][at.1].chars().collect();
            let mut variants = Vec::new();
            for index in 0..word.len() {
                for &c in alphabet.iter().filter(|&&c| c < word[index]) {
                    let mut replaced = word.clone();
                    replaced[index] = c;
                    let mut edited = case.clone();
                    edited.lines[at.0][at.1] = replaced.into_iter().collect();
                    variants.push(edited);
                }
            }
            variants
        }
    }
}

/// Every candidate of one pass, in order (for tests and small inputs).
#[cfg(test)]
pub(crate) fn candidates(pass: Pass, case: &Case) -> impl Iterator<Item = Case> + '_ {
    edits(pass, case)
        .into_iter()
        .flat_map(move |edit| apply(case, &edit))
}

/// Chunk sizes for `n` units, largest first: `n`, its halves down to 1,
/// and every size up to 4 (a case of a few lines is often 2 to 4 long).
fn chunk_sizes(n: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (1..=n.min(4)).collect();
    let mut size = n;
    while size > 0 {
        sizes.push(size);
        size /= 2;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    sizes
}

/// Where chunks of `size` out of `n` units may start: anywhere in a small
/// input, else at multiples of `size` (delta debugging's partition).
fn starts(n: usize, size: usize) -> impl Iterator<Item = usize> {
    let step = if n <= 64 { 1 } else { size };
    (0..=n - size).step_by(step)
}

/// Removals of `size`-unit chunks out of `n`, largest first, at most `max`
/// units (so something is left).
fn chunks(n: usize, max: usize) -> impl Iterator<Item = Range<usize>> {
    chunk_sizes(n)
        .into_iter()
        .filter(move |&size| size <= max)
        .flat_map(move |size| starts(n, size).map(move |start| start..start + size))
}

/// Integer tokens that may count what an edit at `at` removes: the nearest
/// ones before it on lines of at most three tokens (headers), three at
/// most, then the file's first token.
fn count_positions(case: &Case, at: Pos) -> Vec<Pos> {
    let mut found = Vec::new();
    let last = at.0.min(case.lines.len().saturating_sub(1));
    'lines: for line in (0..=last).rev() {
        let tokens = &case.lines[line];
        if tokens.len() > 3 {
            continue;
        }
        let end = if line == at.0 { at.1 } else { tokens.len() };
        for index in (0..end.min(tokens.len())).rev() {
            if integer(&tokens[index]).is_some() {
                found.push((line, index));
                if found.len() == 3 {
                    break 'lines;
                }
            }
        }
    }
    if let Some(first) = case.lines.iter().position(|l| !l.is_empty()) {
        let pos = (first, 0);
        if pos < at && integer(&case.lines[first][0]).is_some() && !found.contains(&pos) {
            found.push(pos);
        }
    }
    found
}

/// `case` with the number at `pos` lowered by `by`, if it stays ≥ 0.
fn lowered(case: &Case, pos: Pos, by: usize) -> Option<Case> {
    let value = integer(case.lines.get(pos.0)?.get(pos.1)?)?;
    let by = i128::try_from(by).ok()?;
    (by > 0 && value >= by).then(|| {
        let mut lowered = case.clone();
        lowered.lines[pos.0][pos.1] = (value - by).to_string();
        lowered
    })
}

/// `edited` as it is, then with each count before `at` (in `original`)
/// lowered by each of `amounts`; with `pairs`, also two counts at once
/// (`R C` of a square map).
fn with_counts(
    original: &Case,
    edited: Case,
    at: Pos,
    amounts: &[usize],
    pairs: bool,
) -> Vec<Case> {
    let counts = count_positions(original, at);
    let mut amounts = amounts.to_vec();
    amounts.sort_unstable_by(|a, b| b.cmp(a));
    amounts.dedup();
    let mut variants = Vec::new();
    for &pos in &counts {
        for &by in &amounts {
            variants.extend(lowered(&edited, pos, by));
        }
    }
    if pairs {
        for (i, &first) in counts.iter().enumerate() {
            for &second in &counts[i + 1..] {
                for &by in &amounts {
                    variants
                        .extend(lowered(&edited, first, by).and_then(|c| lowered(&c, second, by)));
                }
            }
        }
    }
    variants.insert(0, edited);
    variants
}

fn without_lines(case: &Case, range: Range<usize>) -> Case {
    let mut edited = case.clone();
    edited.lines.drain(range);
    edited
}

/// Removes cells `range` of one line of a block.
fn remove_cells(line: &mut Vec<String>, cells: Cells, range: &Range<usize>) {
    match cells {
        Cells::Tokens(_) => {
            line.drain(range.clone());
        }
        Cells::Chars(_) => {
            let word: String = line[0]
                .chars()
                .enumerate()
                .filter(|(i, _)| !range.contains(i))
                .map(|(_, c)| c)
                .collect();
            line[0] = word;
        }
    }
}

/// Every token's place, in reading order.
fn positions(case: &Case) -> impl Iterator<Item = Pos> + '_ {
    case.lines
        .iter()
        .enumerate()
        .flat_map(|(line, tokens)| (0..tokens.len()).map(move |index| (line, index)))
}

/// `case` without tokens `range` (counted over the whole input). A line
/// the removal empties goes too; a line that was empty stays.
fn without_tokens(case: &Case, range: &Range<usize>) -> Case {
    let mut lines = Vec::with_capacity(case.lines.len());
    let mut index = 0;
    for line in &case.lines {
        let kept: Vec<String> = line
            .iter()
            .filter(|_| {
                let keep = !range.contains(&index);
                index += 1;
                keep
            })
            .cloned()
            .collect();
        if !kept.is_empty() || line.is_empty() {
            lines.push(kept);
        }
    }
    Case { lines }
}

fn cases(case: &Case) -> Vec<Edit> {
    if case.lines.len() <= 2 {
        return Vec::new();
    }
    let shape = case.signature(1);
    let starts: Vec<usize> = (1..case.lines.len())
        .filter(|&line| case.signature(line) == shape)
        .collect();
    let count = starts.len();
    chunks(count, count.saturating_sub(1))
        .map(|range| {
            let first = starts[range.start];
            let end = starts.get(range.end).copied().unwrap_or(case.lines.len());
            Edit::Lines {
                range: first..end,
                amounts: vec![range.len(), 1],
            }
        })
        .collect()
}

fn lines(case: &Case) -> Vec<Edit> {
    let n = case.lines.len();
    let shape = (n > 1).then(|| case.signature(1));
    chunks(n, n)
        .map(|range| {
            let like_line_1 = range
                .clone()
                .filter(|&line| Some(case.signature(line)) == shape)
                .count();
            Edit::Lines {
                amounts: vec![range.len(), 1, like_line_1],
                range,
            }
        })
        .collect()
}

/// Square moves (`squares`) or column moves over the blocks of `case`.
fn blocks_of(case: &Case, squares: bool) -> Vec<Edit> {
    let mut edits = Vec::new();
    for (first, height, cells) in case.blocks() {
        let width = cells.width();
        if squares && height >= 2 && width == height {
            edits.extend(chunks(height, height - 1).map(|range| Edit::Square {
                first,
                height,
                cells,
                range,
            }));
        }
        if !squares && width >= 2 && (height >= 2 || matches!(cells, Cells::Chars(_))) {
            edits.extend(chunks(width, width - 1).map(|range| Edit::Columns {
                first,
                height,
                cells,
                range,
            }));
        }
    }
    edits
}

/// At most this many distinct characters: beyond it the words are text,
/// not maps, and replacing characters rarely means anything.
const MAX_ALPHABET: usize = 8;

fn words(case: &Case) -> Vec<Edit> {
    let words: Vec<Pos> = positions(case)
        .filter(|&(line, index)| integer(&case.lines[line][index]).is_none())
        .collect();
    let mut alphabet: Vec<char> = words
        .iter()
        .flat_map(|&(line, index)| case.lines[line][index].chars())
        .collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    if alphabet.len() > MAX_ALPHABET || alphabet.len() < 2 {
        return Vec::new();
    }
    words
        .into_iter()
        .map(|at| Edit::Chars {
            at,
            alphabet: alphabet.clone(),
        })
        .collect()
}

/// Smaller numbers for `value`, most ambitious first: 0, the small ones
/// (±1 to ±4: the smallest failing number is often one of them), the
/// absolute value, then `value` less a half, a quarter, an eighth ... of
/// itself down to one: a failure that needs a large number (an overflow)
/// still comes down in a few steps per bit instead of one unit at a time.
fn smaller_numbers(value: i128) -> Vec<i128> {
    let sign = value.signum();
    let mut numbers = vec![0];
    numbers.extend((1..=4).map(|small| small * sign));
    numbers.push(value.abs());
    let mut step = value.abs() / 2;
    while step > 0 {
        numbers.push(value - sign * step);
        step /= 2;
    }
    numbers.push(value - sign);
    let mut seen = Vec::new();
    numbers.retain(|&n| {
        let keep = n.abs() < value.abs() || (n == value.abs() && value < 0);
        let new = !seen.contains(&n);
        seen.push(n);
        keep && new
    });
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(pass: Pass, input: &str) -> Vec<String> {
        candidates(pass, &Case::parse(input))
            .map(|c| c.render())
            .collect()
    }

    #[test]
    fn chunk_sizes_halve_and_cover_small_sizes() {
        assert_eq!(chunk_sizes(10), [10, 5, 4, 3, 2, 1]);
        assert_eq!(chunk_sizes(1), [1]);
        assert!(chunk_sizes(0).is_empty());
        assert_eq!(starts(100, 25).collect::<Vec<_>>(), [0, 25, 50, 75]);
        assert_eq!(starts(5, 2).count(), 4);
    }

    #[test]
    fn a_removal_comes_with_the_count_lowered() {
        let all = texts(Pass::Tokens, "4\n1 2 3 4\n");
        assert!(all.contains(&"2\n3 4\n".to_string()), "{all:?}");
        assert!(all.contains(&"3\n1 2 4\n".to_string()), "{all:?}");
    }

    #[test]
    fn whole_cases_go_with_t_lowered() {
        let input = "3\n2\n1 1\n1 1\n1\n5\n2\n2 2\n2 2\n";
        let all = texts(Pass::Cases, input);
        // `1` and `5` (a 1x1 board) look like starts of cases too: the
        // validator sorts that out; whole cases are among the candidates.
        assert!(
            all.contains(&"2\n1\n5\n2\n2 2\n2 2\n".to_string()),
            "{all:?}"
        );
        assert!(
            all.contains(&"2\n2\n1 1\n1 1\n1\n5\n".to_string()),
            "{all:?}"
        );
    }

    #[test]
    fn a_square_loses_a_row_and_its_column() {
        let all = texts(Pass::Squares, "1\n3\n1 2 3\n4 5 6\n7 8 9\n");
        assert!(all.contains(&"1\n2\n5 6\n8 9\n".to_string()), "{all:?}");
        assert!(all.contains(&"1\n1\n1\n".to_string()), "{all:?}");
        // A square map counted by `R C`: both counts go down together.
        let all = texts(Pass::Squares, "2 2\n^#\n#^\n");
        assert!(all.contains(&"1 1\n^\n".to_string()), "{all:?}");
    }

    #[test]
    fn columns_of_maps_and_of_token_rows() {
        let all = texts(Pass::Columns, "2 3\n^#^\n^^^\n");
        assert!(all.contains(&"2 2\n#^\n^^\n".to_string()), "{all:?}");
        let all = texts(Pass::Columns, "3\n1 2 3\n4 5 6\n");
        assert!(all.contains(&"2\n1 3\n4 6\n".to_string()), "{all:?}");
    }

    #[test]
    fn numbers_move_towards_zero() {
        assert_eq!(smaller_numbers(10), [0, 1, 2, 3, 4, 5, 8, 9]);
        assert_eq!(smaller_numbers(-7), [0, -1, -2, -3, -4, 7, -6]);
        // A large number comes down by halves of what is left.
        let big = smaller_numbers(1 << 20);
        assert_eq!(&big[5..8], [1 << 19, 3 << 18, 7 << 17]);
        assert_eq!(big.last(), Some(&((1 << 20) - 1)));
        assert!(big.len() < 30);
        assert_eq!(smaller_numbers(1), [0]);
        assert!(smaller_numbers(0).is_empty());
        assert_eq!(texts(Pass::Values, "2\n"), ["0\n", "1\n"]);
    }

    #[test]
    fn characters_move_towards_the_smallest_in_use() {
        assert_eq!(texts(Pass::Chars, "^#\n"), ["##\n"]);
        assert!(texts(Pass::Chars, "abcdefghij\n").is_empty());
    }
}
