//! The reference agrees with two independent brute forces on random small
//! inputs: every column permutation (the assignment view) and the plain game
//! tree (the game itself, which also re-proves that Alice's order is moot).

use grid_game_tools::{Case, Kind, board};
use judge_kit::testing::solve;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

#[test]
fn reference_matches_brute_force() {
    const KINDS: [Kind; 6] = [
        Kind::Random,
        Kind::Equal,
        Kind::Extremes,
        Kind::RowCol,
        Kind::Product,
        Kind::Decoy,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(11553);
    for round in 0..1000 {
        // Narrow value ranges make ties common; wide ones exercise magnitudes.
        let (lo, hi) = [(-2, 2), (0, 5), (-10, 10), (-1000, 1000)][round % 4];
        let t = rng.random_range(1..=4);
        let boards = (0..t)
            .map(|_| {
                let kind = KINDS[rng.random_range(0..KINDS.len())];
                let n = rng.random_range(1..=5);
                board(&mut rng, kind, n, lo, hi)
            })
            .collect();
        let input = Case { boards }.render();
        let expected = solve(env!("CARGO_BIN_EXE_grid-game-permutations"), &input);
        assert_eq!(
            solve(env!("CARGO_BIN_EXE_grid-game-gametree"), &input),
            expected,
            "brute forces disagree on\n{input}"
        );
        assert_eq!(
            solve(env!("CARGO_BIN_EXE_grid-game"), &input),
            expected,
            "on\n{input}"
        );
    }
}

#[test]
fn seed_example() {
    let input = "1\n3\n1 -2 -3\n-3 4 -5\n-2 1 3\n";
    assert_eq!(solve(env!("CARGO_BIN_EXE_grid-game"), input), "-9\n");
    assert_eq!(solve(env!("CARGO_BIN_EXE_grid-game-greedy"), input), "-5\n");
}
