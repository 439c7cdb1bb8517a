//! Helpers for the play tests in `solutions/caos3-interactive`.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The interactor binary, built on first use with the running test's
/// profile: Cargo builds only the binaries of the package under test, and
/// the play tests live with the solutions.
pub fn interactor() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| workspace_binary("caos3-interactive-tools", "caos3-interactive-interactor"))
        .clone()
}

/// `bin` of the workspace package `package`, built with `cargo build` into
/// the running test's target folder and profile.
pub fn workspace_binary(package: &str, bin: &str) -> PathBuf {
    let path = judge_kit::testing::sibling_binary(bin);
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .expect("target/<profile>/");
    let profile = match folder.to_str().expect("a UTF-8 profile") {
        "debug" => "dev",
        other => other,
    };
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--profile",
            profile,
            "-p",
            package,
            "--bin",
            bin,
        ])
        .status()
        .expect("run cargo");
    assert!(
        status.success(),
        "cargo build -p {package} --bin {bin} failed"
    );
    path
}
