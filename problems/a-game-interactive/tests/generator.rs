//! The generator is deterministic, rejects bad arguments, and its traps are
//! what they say: boards on which the named strategy loses to the referee.

use a_game_interactive_tools::game::{Solved, greedy, odd_positions, play_against_referee};
use a_game_interactive_tools::parse;
use judge_kit::testing::{GeneratorCases, generate};

const BIN: &str = env!("CARGO_BIN_EXE_a-game-interactive-generator");

judge_kit::generator_tests!(BIN, {
    GeneratorCases::new(
        &[
            &["random", "100", "200", "7"],
            &["trap-greedy", "12", "20", "7"],
            &["trap-odd", "100", "200", "7"],
        ],
        [&["random", "50", "200", "1"], &["random", "50", "200", "2"]],
        &[
            &["random", "5", "200", "1"],
            &["random", "102", "200", "1"],
            &["random", "10", "201", "1"],
            &["random", "10", "0", "1"],
            &["trap-everything", "10", "200", "1"],
            &["random", "10", "200"],
            // Every board of equal values ties: no trap exists.
            &["trap-greedy", "10", "1", "1"],
        ],
    )
});

#[test]
fn traps_catch_their_strategy() {
    for (kind, strategy) in [
        ("trap-greedy", greedy as fn(&Solved, _) -> _),
        ("trap-odd", odd_positions),
    ] {
        for (n, seed) in [("4", "1"), ("20", "2"), ("100", "3")] {
            let text = String::from_utf8(generate(BIN, &[kind, n, "200", seed])).unwrap();
            let values = parse(&text).unwrap();
            let [first, second] = play_against_referee(&Solved::new(&values), strategy);
            assert!(first < second, "{kind} {n}: {first} {second}");
        }
    }
}
