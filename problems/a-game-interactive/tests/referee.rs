//! The referee against an independent brute force: the plain game tree,
//! with no table and none of the referee's code, on every part of many small
//! boards.

use a_game_interactive_tools::game::{
    End, Row, Solved, greedy, odd_positions, play_against_referee,
};
use rand::Rng;

/// The mover's best final score on `row`, by trying both ends all the way down.
fn brute(row: &[u32]) -> u32 {
    let Some((&first, rest)) = row.split_first() else {
        return 0;
    };
    let (&last, init) = row.split_last().unwrap();
    let total: u32 = row.iter().sum();
    let take_first = first + (total - first - brute(rest));
    let take_last = last + (total - last - brute(init));
    take_first.max(take_last)
}

/// Random boards of 2 to 12 numbers, even N; small value ranges make ties,
/// where the referee's choice among optimal moves matters, common.
fn boards() -> Vec<Vec<u32>> {
    let mut rng = judge_kit::generator::rng(96);
    (0..300)
        .map(|round| {
            let n = 2 * rng.random_range(1..=6);
            let max_v = [2, 3, 10, 200][round % 4];
            (0..n).map(|_| rng.random_range(1..=max_v)).collect()
        })
        .collect()
}

/// Every row reachable from the start: any contiguous part of the board.
fn rows(n: usize) -> impl Iterator<Item = Row> {
    (0..n).flat_map(move |left| (left + 1..=n).map(move |right| Row { left, right }))
}

#[test]
fn referee_plays_a_move_of_optimal_value_from_every_position() {
    let mut referee_rows = 0;
    for values in boards() {
        let solved = Solved::new(&values);
        for row in rows(values.len()) {
            let part = &values[row.left..row.right];
            let best = brute(part);
            assert_eq!(solved.best(row), best, "best on {part:?}");
            if solved.submission_to_move(row) {
                continue;
            }
            referee_rows += 1;
            let end = solved.referee_move(row);
            let taken = solved.value(row, end);
            let rest = match end {
                End::Left => &part[1..],
                End::Right => &part[..part.len() - 1],
            };
            let got = taken + (part.iter().sum::<u32>() - taken - brute(rest));
            assert_eq!(got, best, "referee took {end:?} on {part:?}");
        }
    }
    assert!(referee_rows > 2000, "{referee_rows}");
}

#[test]
fn optimal_moves_are_exactly_those_the_brute_force_finds() {
    for values in boards() {
        let solved = Solved::new(&values);
        for row in rows(values.len()) {
            let part = &values[row.left..row.right];
            let total: u32 = part.iter().sum();
            let left = part[0] + (total - part[0] - brute(&part[1..]));
            let last = part[part.len() - 1];
            let right = last + (total - last - brute(&part[..part.len() - 1]));
            assert_eq!(solved.move_value(row, End::Left), left, "{part:?}");
            assert_eq!(solved.move_value(row, End::Right), right, "{part:?}");
        }
    }
}

#[test]
fn the_optimal_line_reaches_the_brute_force_value() {
    for values in boards() {
        let solved = Solved::new(&values);
        let (moves, [first, second]) = solved.optimal_line();
        assert_eq!(moves.len(), values.len());
        assert_eq!(first, brute(&values), "{values:?}");
        assert_eq!(first + second, values.iter().sum::<u32>());
    }
}

/// [`Solved::traps`] by its definition, with brute-force values: the
/// submission's turns where the two ends differ in value, along the line
/// where it plays optimally (the fewest over its own ties) and the referee
/// plays optimally (the most over its ties).
fn brute_traps(part: &[u32], submission_to_move: bool) -> u32 {
    if part.is_empty() {
        return 0;
    }
    let total: u32 = part.iter().sum();
    let (first, last) = (part[0], part[part.len() - 1]);
    let (rest_l, rest_r) = (&part[1..], &part[..part.len() - 1]);
    let value_l = first + (total - first - brute(rest_l));
    let value_r = last + (total - last - brute(rest_r));
    let best = value_l.max(value_r);
    let after = [(value_l, rest_l), (value_r, rest_r)]
        .into_iter()
        .filter(|&(v, _)| v == best)
        .map(|(_, rest)| brute_traps(rest, !submission_to_move));
    if submission_to_move {
        u32::from(value_l != value_r) + after.min().unwrap()
    } else {
        after.max().unwrap()
    }
}

#[test]
fn traps_follow_their_definition() {
    for values in boards().into_iter().take(100) {
        let solved = Solved::new(&values);
        for row in rows(values.len()) {
            let part = &values[row.left..row.right];
            let expected = brute_traps(part, solved.submission_to_move(row));
            assert_eq!(solved.traps(row), expected, "{part:?}");
        }
    }
}

#[test]
fn traps_decide_between_equally_good_referee_moves() {
    // Search small boards for a referee row with two optimal moves that
    // leave different traps: the referee must take the one with more.
    let mut decided = 0;
    for values in boards() {
        let solved = Solved::new(&values);
        for row in rows(values.len()).filter(|&r| !solved.submission_to_move(r) && r.len() > 1) {
            let (l, r) = (End::Left, End::Right);
            if !(solved.is_optimal(row, l) && solved.is_optimal(row, r)) {
                continue;
            }
            let (tl, tr) = (solved.traps(row.after(l)), solved.traps(row.after(r)));
            if tl != tr {
                decided += 1;
                let want = if tl > tr { l } else { r };
                assert_eq!(solved.referee_move(row), want, "{values:?} {row:?}");
            }
        }
    }
    assert!(decided > 20, "only {decided} rows where the traps decide");
}

#[test]
fn known_wrong_strategies_lose_on_some_board_and_never_win_more_than_optimal() {
    let mut lost = [0, 0];
    for values in boards() {
        let solved = Solved::new(&values);
        let best = solved.optimal_line().1[0];
        for (k, strategy) in [greedy as fn(&Solved, Row) -> End, odd_positions]
            .into_iter()
            .enumerate()
        {
            let [first, second] = play_against_referee(&solved, strategy);
            assert!(first <= best);
            if first < second {
                lost[k] += 1;
            }
        }
    }
    assert!(lost.iter().all(|&n| n > 0), "{lost:?}");
}
