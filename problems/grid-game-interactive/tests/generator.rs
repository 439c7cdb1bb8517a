//! The generator is deterministic, stays within the limits, traps the
//! greedy Bob when asked, and rejects bad arguments.

use grid_game_interactive_tools::{greedy_loses, parse};
use judge_kit::testing::{GeneratorCases, generate};

const BIN: &str = env!("CARGO_BIN_EXE_grid-game-interactive-generator");

judge_kit::generator_tests!(BIN, {
    let kinds = [
        "random",
        "equal",
        "extremes",
        "rowcol",
        "product",
        "decoy",
        "greedy-trap",
    ];
    let same: Vec<[&str; 6]> = kinds
        .iter()
        .map(|&kind| [kind, "3", "30", "-1000", "1000", "7"])
        .collect();
    let same: Vec<&[&str]> = same.iter().map(|a| &a[..]).collect();
    GeneratorCases::new(
        &same,
        [
            &["random", "50", "50", "-1000", "1000", "1"],
            &["random", "50", "50", "-1000", "1000", "2"],
        ],
        &[
            &[],
            &["random", "1", "8", "-10", "10"],
            &["bogus", "1", "8", "-10", "10", "1"],
            &["random", "0", "8", "-10", "10", "1"],
            &["random", "9", "8", "-10", "10", "1"],
            &["random", "1", "101", "-10", "10", "1"],
            &["random", "1", "8", "-1001", "10", "1"],
            &["random", "1", "8", "10", "-10", "1"],
            &["random", "1", "8", "-10", "10", "x"],
            // A 1x1 board cannot trap anyone.
            &["greedy-trap", "1", "1", "-10", "10", "1"],
        ],
    )
});

#[test]
fn greedy_traps_trap_the_greedy_bob() {
    for seed in ["1", "2", "3"] {
        let input = generate(BIN, &["greedy-trap", "2", "5", "-3", "3", seed]);
        let board = parse(std::str::from_utf8(&input).unwrap()).unwrap();
        assert!(greedy_loses(&board), "{board:?}");
    }
}
