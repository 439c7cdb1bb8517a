//! The real problem set through the CLI: Stone Game VI end to end.

use predicates::prelude::*;

use crate::support::*;

#[test]
fn stone_game_vi_verifies() {
    judge_at(workspace_root())
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
            judge_at(workspace_root())
                .args(["test", "stone-game-vi"])
                .arg(&file)
                .assert()
                .code(code)
                .stdout(predicate::str::contains(format!(": {folder}")));
        }
    }
}

/// The learner's loop works on every package: each reference, submitted as
/// a single Rust file the way a learner would, is accepted.
#[test]
fn every_package_accepts_its_reference_as_a_single_file() {
    if !have(&["rustc"]) {
        return;
    }
    let root = workspace_root();
    let mut ids: Vec<String> = std::fs::read_dir(root.join("problems"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("problem.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    assert!(ids.len() >= 10, "the ten packages: {ids:?}");
    let mut failures = Vec::new();
    for id in &ids {
        let reference = root.join("solutions").join(id).join("src/main.rs");
        let output = judge_at(&root)
            .args(["test", id.as_str()])
            .arg(&reference)
            .output()
            .unwrap();
        if !output.status.success() {
            failures.push(format!(
                "{id}: {}",
                String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .last()
                    .unwrap_or_default()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
