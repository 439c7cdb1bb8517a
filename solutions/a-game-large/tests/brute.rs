//! The reference agrees with the full game tree and with the N x N table on
//! random small boards.

use a_game_large_tools::testing::assert_matches_brute;

#[test]
fn reference_matches_brute_force() {
    // Small value ranges make ties common; 10^9 needs 64-bit sums.
    assert_matches_brute(
        [2u64, 5, 1_000_000_000],
        env!("CARGO_BIN_EXE_a-game-large"),
        env!("CARGO_BIN_EXE_a-game-large-minimax"),
        env!("CARGO_BIN_EXE_a-game-large-table"),
    );
}
