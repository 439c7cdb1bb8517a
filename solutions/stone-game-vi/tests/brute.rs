//! The reference agrees with exhaustive minimax on random small games.

use judge_kit::testing::solve;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use stone_game_vi_tools::{Case, const_sum, mirror, random};

#[test]
fn reference_matches_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(1686);
    for round in 0..1000 {
        // Small value ranges make ties and draws common.
        let max_v = [2, 3, 5, 100][round % 4];
        let n = rng.random_range(1..=7);
        let case: Case = match round % 5 {
            0 | 1 => random(&mut rng, n, max_v),
            2 => const_sum(&mut rng, n, max_v),
            3 => mirror(&mut rng, 2 * n.div_ceil(2), max_v, false),
            _ => mirror(&mut rng, 2 * n.div_ceil(2), max_v, true),
        };
        let input = case.render();
        let expected = solve(env!("CARGO_BIN_EXE_stone-game-vi-minimax"), &input);
        let got = solve(env!("CARGO_BIN_EXE_stone-game-vi"), &input);
        assert_eq!(got, expected, "on\n{input}");
    }
}
