//! The reference agrees with the full game tree (and the seed's recurrence)
//! on random small boards.

use a_game_tools::testing::assert_matches_brute;

#[test]
fn reference_matches_brute_force() {
    // Small value ranges make ties common.
    assert_matches_brute(
        [2u32, 5, 200],
        env!("CARGO_BIN_EXE_a-game"),
        env!("CARGO_BIN_EXE_a-game-minimax"),
        env!("CARGO_BIN_EXE_a-game-recursion"),
    );
}
