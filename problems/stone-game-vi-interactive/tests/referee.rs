//! The referee against an independent brute force: minimax over the sets of
//! stones taken, with the real scores (not the weights a + b the referee
//! reasons with), from every position of many small games.

use rand::Rng;
use stone_game_vi_interactive_tools::game::{
    DENY, DIFF, Game, OWN, greedy_pick, optimal_line, play_against_referee,
};

/// `best[mask]`: the mover's total minus the other's over the stones not in
/// `mask`, under optimal play; the mover is Alice when `mask` has an even
/// count. Each stone is worth its mover's own value.
fn brute(alice: &[u32], bob: &[u32]) -> Vec<i64> {
    let n = alice.len();
    let full = (1usize << n) - 1;
    let mut best = vec![0i64; full + 1];
    for mask in (0..full).rev() {
        let mover = if mask.count_ones() % 2 == 0 {
            alice
        } else {
            bob
        };
        best[mask] = (0..n)
            .filter(|&i| mask & (1 << i) == 0)
            .map(|i| i64::from(mover[i]) - best[mask | (1 << i)])
            .max()
            .unwrap();
    }
    best
}

/// Random games of 1 to 9 stones; small value ranges make ties common.
fn games() -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut rng = judge_kit::generator::rng(1686);
    (0..200)
        .map(|round| {
            let n = rng.random_range(1..=9);
            let max_v = [2, 3, 5, 100][round % 4];
            let mut row = || -> Vec<u32> { (0..n).map(|_| rng.random_range(1..=max_v)).collect() };
            (row(), row())
        })
        .collect()
}

/// The position after taking the stones of `mask`, in index order, turns
/// alternating from Alice.
fn position(alice: &[u32], bob: &[u32], mask: usize) -> Game {
    let mut game = Game::new(alice, bob);
    for i in (0..alice.len()).filter(|&i| mask & (1 << i) != 0) {
        game.take(i);
    }
    game
}

#[test]
fn referee_plays_a_move_of_optimal_value_from_every_position() {
    let mut positions = 0;
    for (alice, bob) in games() {
        let best = brute(&alice, &bob);
        for mask in 0..(1usize << alice.len()) - 1 {
            if mask.count_ones() % 2 == 0 {
                continue;
            }
            positions += 1;
            let mut game = position(&alice, &bob, mask);
            let stone = game.referee_move().unwrap();
            assert_eq!(mask & (1 << stone), 0, "took a taken stone");
            let got = i64::from(bob[stone]) - best[mask | (1 << stone)];
            assert_eq!(got, best[mask], "{alice:?} {bob:?} mask {mask:b}");
        }
    }
    assert!(positions > 5000, "{positions}");
}

#[test]
fn optimal_moves_and_values_match_the_brute_force() {
    for (alice, bob) in games() {
        let best = brute(&alice, &bob);
        for mask in 0..(1usize << alice.len()) {
            let game = position(&alice, &bob, mask);
            let sign = if game.alice_to_move() { 1 } else { -1 };
            assert_eq!(game.optimal_final_diff(), game.diff() + sign * best[mask]);
            let mover = if game.alice_to_move() { &alice } else { &bob };
            for i in (0..alice.len()).filter(|&i| mask & (1 << i) == 0) {
                let value = i64::from(mover[i]) - best[mask | (1 << i)];
                assert_eq!(
                    game.is_optimal(i),
                    value == best[mask],
                    "{alice:?} {bob:?} mask {mask:b} stone {i}"
                );
            }
        }
    }
}

#[test]
fn the_optimal_line_reaches_the_value_of_the_game() {
    for (alice, bob) in games() {
        let (line, diff) = optimal_line(&alice, &bob);
        assert_eq!(line.len(), alice.len());
        assert_eq!(diff, brute(&alice, &bob)[0], "{alice:?} {bob:?}");
    }
}

/// Among its optimal moves the referee takes the one that leaves Alice the
/// most moves that lose value, counted by the brute force.
#[test]
fn referee_leaves_the_most_mistakes_among_its_optimal_moves() {
    let mut decided = 0;
    for (alice, bob) in games() {
        let n = alice.len();
        let best = brute(&alice, &bob);
        let mistakes = |mask: usize| {
            (0..n)
                .filter(|&i| mask & (1 << i) == 0)
                .filter(|&i| i64::from(alice[i]) - best[mask | (1 << i)] != best[mask])
                .count()
        };
        for mask in (0..(1usize << n) - 1).filter(|m| m.count_ones() % 2 == 1) {
            let optimal: Vec<usize> = (0..n)
                .filter(|&i| mask & (1 << i) == 0)
                .filter(|&i| i64::from(bob[i]) - best[mask | (1 << i)] == best[mask])
                .collect();
            let most = optimal
                .iter()
                .map(|&i| mistakes(mask | (1 << i)))
                .max()
                .unwrap();
            let least = optimal
                .iter()
                .map(|&i| mistakes(mask | (1 << i)))
                .min()
                .unwrap();
            let stone = position(&alice, &bob, mask).referee_move().unwrap();
            assert_eq!(
                mistakes(mask | (1 << stone)),
                most,
                "{alice:?} {bob:?} {mask:b}"
            );
            if most > least {
                decided += 1;
            }
        }
    }
    assert!(
        decided > 100,
        "only {decided} positions where the count decides"
    );
}

#[test]
fn each_greedy_ends_below_the_optimal_value_on_some_game() {
    for key in [OWN, DENY, DIFF] {
        let fooled = games()
            .iter()
            .filter(|(alice, bob)| {
                let got = play_against_referee(alice, bob, |g| greedy_pick(g, key).unwrap());
                got < optimal_line(alice, bob).1
            })
            .count();
        assert!(fooled > 0);
    }
}
