//! Helpers for the play tests in `solutions/grid-game-interactive`.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

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

/// `bin` of the workspace package `package`, built with the `judge` profile
/// into the running test's target folder.
pub fn judge_binary(package: &str, bin: &str) -> PathBuf {
    // The test runs as <target>/<profile>/deps/<test>.
    let exe = std::env::current_exe().expect("the test's path");
    let target = exe.ancestors().nth(3).expect("<target>/<profile>/deps/");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--profile",
            "judge",
            "-p",
            package,
            "--bin",
            bin,
        ])
        .env("CARGO_TARGET_DIR", target)
        .status()
        .expect("run cargo");
    assert!(
        status.success(),
        "cargo build -p {package} --bin {bin} failed"
    );
    target.join("judge").join(bin)
}
