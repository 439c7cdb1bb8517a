//! Helpers for the play tests in `solutions/grid-game-interactive`.

use std::path::PathBuf;
use std::sync::OnceLock;

use judge_kit::testing::judge_binary;

/// The interactor binary, built on first use as the judge builds it
/// (`cargo build --profile judge`): Cargo builds only the binaries of the
/// package under test, and the play tests live with the solutions.
pub fn interactor() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            judge_binary(
                "grid-game-interactive-tools",
                "grid-game-interactive-interactor",
            )
        })
        .clone()
}
