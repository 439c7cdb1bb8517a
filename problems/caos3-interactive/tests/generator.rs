//! The generator is deterministic, gives only maps the first player wins,
//! traps the wrong strategies when asked, and rejects bad arguments.

use caos3_interactive_tools::game::{Rules, Strategy, first_player_wins};
use caos3_interactive_tools::parse;
use judge_kit::testing::{GeneratorCases, generate};

const BIN: &str = env!("CARGO_BIN_EXE_caos3-interactive-generator");

judge_kit::generator_tests!(BIN, {
    GeneratorCases::new(
        &[
            &["full", "9x7"],
            &["random", "5", "20", "5", "20", "50", "100", "1"],
            &["holes", "20", "20", "1", "10", "1"],
            &["crosses", "20", "20", "5", "10", "1"],
            &["trap", "odd", "6", "10", "6", "10", "70", "100", "1"],
        ],
        [
            &["random", "10", "20", "10", "20", "50", "100", "1"],
            &["random", "10", "20", "10", "20", "50", "100", "2"],
        ],
        &[
            &[],
            &["bogus"],
            &["full", "6x6"], // the first player loses it
            &["full", "21x5"],
            &["full", "5"],
            &["random", "5", "20", "5", "20", "50", "101", "1"],
            &["random", "5", "20", "5", "20", "50", "100"],
            &["trap", "even", "6", "10", "6", "10", "70", "100", "1"],
            &["holes", "20", "0", "1", "10", "1"],
            // Walls only: no map in range has a monster.
            &["random", "5", "8", "5", "8", "0", "0", "1"],
        ],
    )
});

#[test]
fn traps_trap_and_the_perfect_strategy_still_wins() {
    for (strategy, name) in [(Strategy::Odd, "odd"), (Strategy::Parity, "parity")] {
        for seed in ["1", "2"] {
            let input = generate(
                BIN,
                &["trap", name, "6", "12", "6", "12", "70", "100", seed],
            );
            let board = parse(std::str::from_utf8(&input).unwrap()).unwrap();
            let rules = Rules::new(&board);
            assert!(!first_player_wins(&rules, strategy), "{name} won {board:?}");
            assert!(first_player_wins(&rules, Strategy::Perfect), "{board:?}");
        }
    }
}
