//! Every solution declared in problem.toml plays every committed test
//! against the built interactor and gets the verdict it declares.

use std::path::Path;
use std::time::Duration;

use a_game_interactive_tools::testing::assert_expected_verdicts;

#[test]
fn every_solution_gets_its_expected_verdict() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/a-game-interactive");
    assert_expected_verdicts(
        &package,
        "a-game-interactive-tools",
        "a-game-interactive-interactor",
        9,
        Duration::from_secs(3),
    );
}

#[test]
fn each_wrong_strategy_loses_on_every_board_built_to_trap_it() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/a-game-interactive");
    a_game_interactive_tools::testing::assert_traps_catch(
        &package,
        "a-game-interactive-tools",
        "a-game-interactive-interactor",
        &[
            ("a-game-interactive-greedy", "trap-greedy"),
            ("a-game-interactive-odd", "trap-odd"),
        ],
    );
}
