//! Shrinking a failing input: greedy delta debugging over the moves of
//! `edits`, keeping a candidate only when the oracle says it is still a
//! failing input (the validator accepts it and the program fails on it the
//! same way). Pure: the oracle is the only way out, so the shrinker is
//! tested without processes.

use std::collections::HashSet;

use super::case::{Case, Size};
use super::edits::{PASSES, apply, edits};

/// What the shrinker asks about candidates.
pub(crate) trait Oracle {
    /// Whether `input` is still a counterexample.
    fn still_fails(&mut self, input: &str) -> bool;
    /// Whether to stop now with the best input so far (time is up, Ctrl-C).
    fn should_stop(&mut self) -> bool {
        false
    }
    /// Told each time a smaller counterexample is found.
    fn improved(&mut self, _best: &str, _size: &Size) {}
}

/// The smallest counterexample found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shrunk {
    pub input: String,
    /// Candidates given to the oracle.
    pub tried: usize,
    /// Candidates that were still counterexamples (each one smaller).
    pub steps: usize,
    /// No move makes it smaller (else the shrinker was stopped first).
    pub minimal: bool,
}

/// Shrinks `input`, a counterexample, until no move gives a smaller one or
/// the oracle says stop. If the input written canonically (one space
/// between tokens, a newline after every line) is no counterexample, the
/// input is returned as it is.
pub(crate) fn shrink(input: &str, oracle: &mut dyn Oracle) -> Shrunk {
    let mut best = Case::parse(input);
    // Hashes of the inputs tried: big inputs would not fit as text.
    let mut tried: HashSet<[u8; 32]> = HashSet::new();
    let mut shrunk = Shrunk {
        input: input.to_string(),
        tried: 0,
        steps: 0,
        minimal: false,
    };
    let canonical = best.render();
    if canonical != input {
        tried.insert(fingerprint(&canonical));
        shrunk.tried += 1;
        if !oracle.still_fails(&canonical) {
            shrunk.minimal = !oracle.should_stop();
            return shrunk;
        }
        shrunk.input = canonical;
    }
    let mut size = best.size();
    loop {
        let mut progress = false;
        for pass in PASSES {
            // Delta debugging's habit: after a success, go on from the
            // same place in the pass (the candidates there are the most
            // likely to work again), wrapping around, until a whole round
            // of the pass finds nothing.
            let mut resume = (0, 0);
            loop {
                let found = {
                    let edits = edits(pass, &best);
                    let mut found = None;
                    'edits: for (index, variants) in visit_order(edits.len(), resume) {
                        let candidates = apply(&best, &edits[index]);
                        for (variant, candidate) in candidates.into_iter().enumerate() {
                            if !variants.contains(&variant) {
                                continue;
                            }
                            if oracle.should_stop() {
                                return shrunk;
                            }
                            let candidate_size = candidate.size();
                            if candidate_size >= size
                                || !tried.insert(fingerprint(&candidate_size.text))
                            {
                                continue;
                            }
                            shrunk.tried += 1;
                            if oracle.still_fails(&candidate_size.text) {
                                found = Some(((index, variant), candidate, candidate_size));
                                break 'edits;
                            }
                        }
                    }
                    found
                };
                let Some((index, candidate, candidate_size)) = found else {
                    break;
                };
                resume = index;
                best = candidate;
                size = candidate_size;
                shrunk.steps += 1;
                shrunk.input = size.text.clone();
                oracle.improved(&shrunk.input, &size);
                progress = true;
            }
        }
        if !progress {
            shrunk.minimal = true;
            return shrunk;
        }
    }
}

/// The moves of a pass to visit after a success at `resume` (move,
/// variant), each with the variants to try: from that variant of that move
/// on, round to the variants before it.
fn visit_order(
    moves: usize,
    resume: (usize, usize),
) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> {
    let (at, variant) = if resume.0 < moves { resume } else { (0, 0) };
    std::iter::once((at, variant..usize::MAX))
        .chain((at + 1..moves).map(|m| (m, 0..usize::MAX)))
        .chain((0..at).map(|m| (m, 0..usize::MAX)))
        .chain((variant > 0).then_some((at, 0..variant)))
        .filter(move |_| moves > 0)
}

fn fingerprint(text: &str) -> [u8; 32] {
    *blake3::hash(text.as_bytes()).as_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An oracle from a predicate on the parsed input, counting its calls.
    struct Predicate<F: FnMut(&str) -> bool> {
        fails: F,
        calls: usize,
        stop_after: Option<usize>,
    }

    impl<F: FnMut(&str) -> bool> Oracle for Predicate<F> {
        fn still_fails(&mut self, input: &str) -> bool {
            self.calls += 1;
            (self.fails)(input)
        }
        fn should_stop(&mut self) -> bool {
            self.stop_after.is_some_and(|n| self.calls >= n)
        }
    }

    fn shrink_with(input: &str, fails: impl FnMut(&str) -> bool) -> Shrunk {
        let mut oracle = Predicate {
            fails,
            calls: 0,
            stop_after: None,
        };
        shrink(input, &mut oracle)
    }

    fn numbers(line: &str) -> Option<Vec<i64>> {
        line.split_whitespace().map(|t| t.parse().ok()).collect()
    }

    /// `N` on line 1, then exactly N values in 1..=200 on any lines.
    fn a_game_board(input: &str) -> Option<Vec<i64>> {
        let mut lines = input.lines();
        let n: usize = lines.next()?.trim().parse().ok()?;
        let values: Vec<i64> = numbers(&lines.collect::<Vec<_>>().join(" "))?;
        (n >= 2 && values.len() == n && values.iter().all(|v| (1..=200).contains(v)))
            .then_some(values)
    }

    /// The first player's best total in A Game (interval DP).
    fn optimal(board: &[i64]) -> i64 {
        let n = board.len();
        let prefix: Vec<i64> = std::iter::once(0)
            .chain(board.iter().scan(0, |s, v| {
                *s += v;
                Some(*s)
            }))
            .collect();
        let mut best = vec![vec![0i64; n]; n];
        for len in 1..=n {
            for i in 0..=n - len {
                let j = i + len - 1;
                let sum = prefix[j + 1] - prefix[i];
                best[i][j] = if len == 1 {
                    board[i]
                } else {
                    sum - best[i + 1][j].min(best[i][j - 1])
                };
            }
        }
        best[0][n - 1]
    }

    /// Both players take the larger end; the first player's total.
    fn greedy(board: &[i64]) -> i64 {
        let mut rest = board.to_vec();
        let (mut first, mut turn) = (0, 0);
        while let (Some(&left), Some(&right)) = (rest.first(), rest.last()) {
            let take = if left >= right {
                rest.remove(0)
            } else {
                rest.pop().unwrap_or(right)
            };
            if turn % 2 == 0 {
                first += take;
            }
            turn += 1;
        }
        first
    }

    #[test]
    fn an_a_game_board_shrinks_to_four_numbers() {
        let input = "12\n4 7 2 9\n5 2 11 3\n8 1 6 3\n";
        let board = a_game_board(input).unwrap();
        assert_ne!(greedy(&board), optimal(&board), "the start must fail");
        let shrunk = shrink_with(input, |text| {
            a_game_board(text).is_some_and(|b| greedy(&b) != optimal(&b))
        });
        let board = a_game_board(&shrunk.input).unwrap();
        assert!(board.len() <= 4, "{}", shrunk.input);
        assert_ne!(greedy(&board), optimal(&board));
        assert!(shrunk.minimal);
        assert!(shrunk.steps > 0 && shrunk.tried >= shrunk.steps);
    }

    /// `T`, then T boards `n` + n rows of n numbers in -1000..=1000.
    fn boards(input: &str) -> Option<Vec<Vec<Vec<i64>>>> {
        let mut lines = input.lines();
        let t: usize = lines.next()?.trim().parse().ok()?;
        let mut all = Vec::new();
        for _ in 0..t {
            let n: usize = lines.next()?.trim().parse().ok()?;
            if n == 0 {
                return None;
            }
            let mut rows = Vec::new();
            for _ in 0..n {
                let row = numbers(lines.next()?)?;
                if row.len() != n || row.iter().any(|v| v.abs() > 1000) {
                    return None;
                }
                rows.push(row);
            }
            all.push(rows);
        }
        (t >= 1 && lines.next().is_none()).then_some(all)
    }

    #[test]
    fn cases_rows_columns_and_values_shrink_together() {
        // Fails when some board has a negative number next to a larger one
        // on its diagonal: needs a 2x2 board at least.
        let fails = |text: &str| {
            boards(text).is_some_and(|all| {
                all.iter()
                    .any(|b| b.len() >= 2 && b[0][0] < 0 && b[1][1] > b[0][0].abs())
            })
        };
        let input = "3\n1\n5\n3\n-40 2 3\n4 500 6\n7 8 9\n2\n1 1\n1 1\n";
        assert!(fails(input));
        let shrunk = shrink_with(input, fails);
        assert_eq!(shrunk.input, "1\n2\n-1 0\n0 2\n");
    }

    #[test]
    fn maps_lose_rows_columns_and_monsters() {
        // `R C`, then R rows of C characters; fails when some row has two
        // `^` side by side.
        let fails = |text: &str| {
            let lines: Vec<&str> = text.lines().collect();
            let Some(dims) = lines.first().and_then(|l| numbers(l)) else {
                return false;
            };
            let [r, c] = dims[..] else { return false };
            lines.len() == r as usize + 1
                && r >= 1
                && lines[1..]
                    .iter()
                    .all(|row| row.len() == c as usize && row.chars().all(|ch| "^#".contains(ch)))
                && lines[1..].iter().any(|row| row.contains("^^"))
        };
        let input = "4 5\n^#^#^\n^^#^^\n#^^^#\n^#^#^\n";
        let shrunk = shrink_with(input, fails);
        assert_eq!(shrunk.input, "1 2\n^^\n");
    }

    #[test]
    fn a_single_number_goes_to_the_smallest_failing_one() {
        // Fails for 4 <= n with n % 3 == 1 (only values are left to shrink).
        let fails = |text: &str| {
            text.trim()
                .parse::<u32>()
                .is_ok_and(|n| n >= 4 && n % 3 == 1 && text == format!("{n}\n"))
        };
        let shrunk = shrink_with("700\n", fails);
        assert_eq!(shrunk.input, "4\n");
    }

    #[test]
    fn a_pass_resumes_where_it_succeeded_and_wraps_around() {
        let order: Vec<_> = visit_order(3, (1, 2)).collect();
        assert_eq!(
            order,
            [
                (1, 2..usize::MAX),
                (2, 0..usize::MAX),
                (0, 0..usize::MAX),
                (1, 0..2)
            ]
        );
        assert_eq!(visit_order(0, (0, 0)).count(), 0);
        assert_eq!(visit_order(2, (5, 1)).next(), Some((0, 0..usize::MAX)));
    }

    #[test]
    fn a_big_input_comes_down_fast() {
        // 5000 numbers, one of them 200: the failure is that number.
        let mut values: Vec<String> = (0..5000).map(|i| (1 + i % 150).to_string()).collect();
        values[3777] = "200".into();
        let input = format!("5000\n{}\n", values.join(" "));
        let started = std::time::Instant::now();
        let shrunk = shrink_with(&input, |text| {
            a_game_board(text).is_some_and(|b| b.contains(&200))
        });
        assert!(
            shrunk.input == "2\n1 200\n" || shrunk.input == "2\n200 1\n",
            "{}",
            shrunk.input
        );
        assert!(shrunk.tried < 2000, "{} candidates", shrunk.tried);
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn stopping_keeps_the_best_so_far() {
        let input = "12\n4 7 2 9\n5 2 11 3\n8 1 6 3\n";
        let mut oracle = Predicate {
            fails: |text: &str| a_game_board(text).is_some_and(|b| greedy(&b) != optimal(&b)),
            calls: 0,
            stop_after: Some(5),
        };
        let shrunk = shrink(input, &mut oracle);
        assert!(!shrunk.minimal);
        assert!(oracle.calls <= 5);
        let board = a_game_board(&shrunk.input).unwrap();
        assert_ne!(greedy(&board), optimal(&board));
    }

    #[test]
    fn an_input_that_only_fails_as_written_is_kept() {
        let input = "3  1\n";
        let shrunk = shrink_with(input, |text| text == input);
        assert_eq!(shrunk.input, input);
        assert_eq!(shrunk.steps, 0);
    }

    #[test]
    fn the_same_answers_give_the_same_result() {
        let fails = |text: &str| a_game_board(text).is_some_and(|b| greedy(&b) != optimal(&b));
        let input = "12\n4 7 2 9 5 2 11 3 8 1 6 3\n";
        assert!(fails(input));
        assert_eq!(shrink_with(input, fails), shrink_with(input, fails));
    }
}
