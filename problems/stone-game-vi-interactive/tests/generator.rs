//! The generator is deterministic, rejects bad arguments, and its traps are
//! what they say: games on which the named greedy ends below the optimal
//! value against the referee.

use judge_kit::testing::{GeneratorCases, generate};
use stone_game_vi_interactive_tools::game::{
    DENY, DIFF, OWN, greedy_pick, optimal_line, play_against_referee,
};
use stone_game_vi_interactive_tools::parse;
use stone_game_vi_tools::testing::{BAD_ARGS, SEEDS};

const BIN: &str = env!("CARGO_BIN_EXE_stone-game-vi-interactive-generator");

judge_kit::generator_tests!(
    BIN,
    GeneratorCases::new(
        &[
            &["random", "20000", "100", "7"],
            &["nudge", "100", "3", "7"],
            &["trap-diff", "7", "100", "7"],
        ],
        SEEDS,
        BAD_ARGS,
    )
    .refusing(&[
        &["random", "20001", "100", "1"],
        &["const-sum", "7", "1", "1"],
        &["trap-all", "10", "100", "1"],
        // One stone: Alice's only move is optimal, no trap exists.
        &["trap-own", "1", "100", "1"],
    ]),
);

#[test]
fn traps_catch_their_greedy() {
    for (kind, key) in [("trap-own", OWN), ("trap-deny", DENY), ("trap-diff", DIFF)] {
        for (n, seed) in [("3", "1"), ("10", "2"), ("100", "3")] {
            let text = String::from_utf8(generate(BIN, &[kind, n, "5", seed])).unwrap();
            let case = parse(&text).unwrap();
            let got = play_against_referee(&case.alice, &case.bob, |game| {
                greedy_pick(game, key).unwrap()
            });
            let optimal = optimal_line(&case.alice, &case.bob).1;
            assert!(got < optimal, "{kind} {n}: {got} vs {optimal}");
        }
    }
}
