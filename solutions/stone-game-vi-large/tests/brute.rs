//! The reference agrees with exhaustive minimax on random small games.

use judge_kit::testing::solve;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use stone_game_vi_large_tools::{Game, Kind, game, render};

#[test]
fn reference_matches_minimax() {
    let kinds = [
        Kind::Random,
        Kind::High,
        Kind::Mirror,
        Kind::Nudge,
        Kind::ConstSum,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1686);
    for round in 0..1000 {
        // Small value ranges make ties and draws common; 10^9 checks the sums.
        let max_v = [2, 3, 100, 1_000_000_000][round % 4];
        let kind = kinds[round / 4 % kinds.len()];
        let t = rng.random_range(1..=3);
        let games: Vec<Game> = (0..t)
            .map(|_| {
                let n = rng.random_range(1..=7);
                game(&mut rng, kind, n, max_v)
            })
            .collect();
        let input = render(&games);
        let expected = solve(env!("CARGO_BIN_EXE_stone-game-vi-large-minimax"), &input);
        let got = solve(env!("CARGO_BIN_EXE_stone-game-vi-large"), &input);
        assert_eq!(got, expected, "on\n{input}");
    }
}
