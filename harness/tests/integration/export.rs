//! `judge export ID --kattis DIR`: our packages as legacy Kattis packages,
//! checked by problemtools' `verifyproblem` where it is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use predicates::prelude::*;

use crate::support::*;

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap();
                found.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

fn export(id: &str, dir: &Path) -> String {
    let output = judge_at(workspace_root())
        .args(["export", id, "--kattis"])
        .arg(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "export {id} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The package's tests, as `data/...` paths of the Kattis package.
fn data_files(id: &str) -> Vec<String> {
    let data = workspace_root().join("problems").join(id).join("data");
    files_under(&data)
        .into_iter()
        .map(|f| format!("data/{f}"))
        .collect()
}

/// Checks a written package against what its problem.toml says.
fn assert_layout(dir: &Path, id: &str, validation: &str, submissions: &[&str]) {
    let files = files_under(dir);
    for data in data_files(id) {
        assert!(files.contains(&data), "{data} missing from {files:?}");
        let ours = std::fs::read(workspace_root().join("problems").join(id).join(&data)).unwrap();
        assert_eq!(
            std::fs::read(dir.join(&data)).unwrap(),
            ours,
            "{data} differs"
        );
    }
    let yaml = std::fs::read_to_string(dir.join("problem.yaml")).unwrap();
    assert!(!yaml.contains("problem_format_version"), "{yaml}");
    assert!(
        yaml.contains(&format!("validation: {validation}\n")),
        "{yaml}"
    );
    assert!(yaml.contains("limits:\n  memory: 64\n"), "{yaml}");
    assert!(yaml.contains("\nuuid: "), "{yaml}");
    assert!(!dir.join(".timelimit").exists());
    let validator = format!("input_validators/{}_validator.rs", id.replace('-', "_"));
    assert!(files.contains(&validator), "{validator} missing: {files:?}");
    let source = std::fs::read_to_string(dir.join(&validator)).unwrap();
    assert!(
        source.contains("mod judge_kit {") && !source.contains("rand::"),
        "the validator carries judge-kit and no rand"
    );
    for submission in submissions {
        assert!(
            files.contains(&format!("submissions/{submission}")),
            "{submission} missing: {files:?}"
        );
    }
    assert!(files.contains(&"problem_statement/problem.en.tex".to_string()));
}

/// Where `verifyproblem` finds a Python 3: problemtools runs `.py` with
/// `pypy3`; without it, a languages.yaml that runs `python3` instead (the
/// override problemtools reads from `$XDG_CONFIG_HOME/problemtools/`).
fn python_config(scratch: &Path) -> Option<PathBuf> {
    if which("pypy3").is_some() {
        return None;
    }
    let config = scratch.join("config");
    std::fs::create_dir_all(config.join("problemtools")).unwrap();
    std::fs::write(
        config.join("problemtools/languages.yaml"),
        "python3:\n    name: 'Python 3'\n    priority: 850\n    files: '*.py *.py3'\n    \
         compile: 'python3 -m py_compile {files}'\n    run: 'python3 \"{mainfile}\"'\n",
    )
    .unwrap();
    Some(config)
}

/// One batch and one interactive package go out as Kattis packages with
/// the layout problemtools reads, and `verifyproblem` (where installed)
/// finds no error in them: every submission gets its folder's verdict.
#[test]
fn exported_packages_pass_verifyproblem() {
    let scratch = tempfile::tempdir().unwrap();
    let batch = scratch.path().join("agame");
    let interactive = scratch.path().join("agameinteractive");

    let said = export("a-game", &batch);
    assert!(said.contains("validation default"), "{said}");
    assert_layout(
        &batch,
        "a-game",
        "default",
        &[
            "accepted/a_game.rs",
            "wrong_answer/a_game_greedy.rs",
            "wrong_answer/a_game_parity.rs",
            "time_limit_exceeded/a_game_recursion.rs",
            "time_limit_exceeded/a_game_minimax.rs",
        ],
    );
    assert!(
        !files_under(&batch)
            .iter()
            .any(|f| f.starts_with("output_validators"))
    );

    let said = export("a-game-interactive", &interactive);
    assert!(said.contains("validation custom interactive"), "{said}");
    assert_layout(
        &interactive,
        "a-game-interactive",
        "custom interactive",
        &[
            "accepted/a_game_interactive.rs",
            "accepted/reference.py",
            "wrong_answer/a_game_interactive_garbage.rs",
            "time_limit_exceeded/a_game_interactive_silent.rs",
            "run_time_error/a_game_interactive_crash.rs",
        ],
    );
    assert!(
        files_under(&interactive)
            .contains(&"output_validators/a_game_interactive_interactor.rs".to_string())
    );

    // The uuid is the problem's, not the export's.
    let uuid = |dir: &Path| {
        let yaml = std::fs::read_to_string(dir.join("problem.yaml")).unwrap();
        yaml.lines()
            .find(|l| l.starts_with("uuid: "))
            .unwrap()
            .to_string()
    };
    let again = scratch.path().join("again").join("agame");
    export("a-game", &again);
    assert_eq!(uuid(&batch), uuid(&again));
    assert_ne!(uuid(&batch), uuid(&interactive));

    if !have(&["verifyproblem"]) {
        return;
    }
    let verifyproblem = which("verifyproblem").unwrap();
    let config = python_config(scratch.path());
    for dir in [&batch, &interactive] {
        let mut command = Command::new(&verifyproblem);
        command
            .arg(dir)
            .args(["-p", "config", "data", "submissions", "validators"]);
        if let Some(config) = &config {
            command.env("XDG_CONFIG_HOME", config);
        }
        let output = bounded(command).output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        println!("{text}");
        let name = dir.file_name().unwrap().to_string_lossy();
        assert!(
            text.contains(&format!("{name} tested: 0 errors")),
            "verifyproblem found errors in {name}:\n{text}"
        );
        assert!(output.status.success(), "{text}");
    }
}

/// A solution Kattis has no folder for is left out, and said so.
#[test]
fn export_leaves_out_what_kattis_cannot_expect() {
    let scratch = tempfile::tempdir().unwrap();
    let said = export("a-game-large", &scratch.path().join("agamelarge"));
    assert!(
        said.contains("left out a-game-large-table: it expects MLE"),
        "{said}"
    );
    assert!(
        !files_under(&scratch.path().join("agamelarge"))
            .iter()
            .any(|f| f.contains("a_game_large_table"))
    );
}

#[test]
fn export_refuses_a_non_empty_folder_without_force() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("stonegamevi");
    std::fs::create_dir_all(dir.join("data/secret/stale")).unwrap();
    std::fs::write(dir.join("data/secret/stale/01.in"), "old\n").unwrap();
    std::fs::write(dir.join("NOTES.txt"), "mine\n").unwrap();
    judge_at(workspace_root())
        .args(["export", "stone-game-vi", "--kattis"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not empty").and(predicate::str::contains("--force")));
    assert!(
        dir.join("data/secret/stale/01.in").exists(),
        "nothing written"
    );

    judge_at(workspace_root())
        .args(["export", "stone-game-vi", "--force", "--kattis"])
        .arg(&dir)
        .assert()
        .success();
    assert!(
        !dir.join("data/secret/stale").exists(),
        "export's folders replaced"
    );
    assert!(dir.join("NOTES.txt").exists(), "other files kept");
    assert!(dir.join("problem.yaml").exists());
}

#[test]
fn export_names_the_file_and_reason_when_it_cannot() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("spiesrevised");
    judge_at(workspace_root())
        .args(["export", "spies-revised", "--kattis"])
        .arg(&dir)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "cannot export problems/spies-revised/problem.toml: a scored problem",
        ));
    assert!(!dir.exists(), "nothing written");
}
