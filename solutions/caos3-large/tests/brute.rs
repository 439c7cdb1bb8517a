//! The exhaustive lava search against the Grundy reference on 1000 random
//! small boards made by the generator's board makers.

use caos3_large_tools::testing::assert_brute_agrees;
use caos3_large_tools::{Board, asuna_wins, format};
use judge_kit::testing::solve;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn brute_force_agrees_with_reference() {
    assert_brute_agrees(
        env!("CARGO_BIN_EXE_caos3-large"),
        env!("CARGO_BIN_EXE_caos3-large-brute"),
    );
}

/// Boards too big for the search, against the generator's plain sub-rectangle
/// DP. At sides 28-30 with few walls some rectangles have Grundy values of 65
/// to 71 (measured), so the reference's wider bit sets come into play, and
/// walls make it drop monster-free rows and columns.
#[test]
fn reference_agrees_with_plain_dp_on_big_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let boards: Vec<Board> = (0..3)
        .map(|_| {
            let (r, c) = (rng.random_range(28..=30), rng.random_range(28..=30));
            let count = rng.random_range(0..=12);
            caos3_large_tools::holes(&mut rng, r, c, count)
        })
        .collect();
    let expected: String = boards
        .iter()
        .map(|b| if asuna_wins(b) { "Asuna\n" } else { "Kirito\n" })
        .collect();
    assert_eq!(
        solve(env!("CARGO_BIN_EXE_caos3-large"), &format(&boards)),
        expected
    );
}
