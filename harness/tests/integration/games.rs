//! The real problem set through the CLI: Stone Game VI end to end.

use predicates::prelude::*;

use crate::support::*;

#[test]
fn stone_game_vi_verifies() {
    judge()
        .arg("--root")
        .arg(workspace_root())
        .args(["verify", "stone-game-vi"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("0 unexpected").and(predicate::str::contains("inputs valid")),
        );
}

#[test]
fn stone_game_vi_practice_in_other_languages() {
    let base = fixtures().join("submissions/stone-game-vi");
    for (folder, code) in [("AC", 0), ("WA", 1)] {
        for file in runnable_files(&base.join(folder)) {
            judge()
                .arg("--root")
                .arg(workspace_root())
                .args(["test", "stone-game-vi"])
                .arg(&file)
                .assert()
                .code(code)
                .stdout(predicate::str::contains(format!(": {folder}")));
        }
    }
}
