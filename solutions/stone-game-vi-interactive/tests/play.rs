//! Every solution declared in problem.toml plays every committed test
//! against the built interactor and gets the verdict it declares; each
//! greedy loses on every game built to trap it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use a_game_interactive_tools::testing::{assert_expected_verdicts, assert_traps_catch};

const TOOLS: &str = "stone-game-vi-interactive-tools";
const INTERACTOR: &str = "stone-game-vi-interactive-interactor";

fn package() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/stone-game-vi-interactive")
}

#[test]
fn every_solution_gets_its_expected_verdict() {
    assert_expected_verdicts(&package(), TOOLS, INTERACTOR, 9, Duration::from_secs(5));
}

#[test]
fn each_greedy_loses_on_every_game_built_to_trap_it() {
    assert_traps_catch(
        &package(),
        TOOLS,
        INTERACTOR,
        &[
            ("stone-game-vi-interactive-greedy-own", "trap-own"),
            ("stone-game-vi-interactive-greedy-deny", "trap-deny"),
            ("stone-game-vi-interactive-greedy-diff", "trap-diff"),
        ],
    );
}
