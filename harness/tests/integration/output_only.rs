//! Output-only problems: Kattis 2025-09 `submit-answer` packages and
//! `kind = "output-only"` in our own format. A submission is a folder of
//! answer files, judged by the output validator; no program runs.

use crate::ecosystem::{lacks, root_with, verify_package};
use std::path::Path;

use crate::support::*;

#[test]
fn a_kattis_submit_answer_package_judges_its_answer_folders() {
    let Some(stdout) = verify_package("squarepair", &["python3"], 3) else {
        return;
    };
    for name in [
        "accepted/mine",
        "wrong_answer/one-wrong",
        "wrong_answer/missing",
    ] {
        assert!(stdout.contains(name), "{stdout}");
    }
    // The format's own example puts programs there: reported, not run.
    assert!(
        stdout.contains("printer.py: a program; submit-answer submissions are answer files"),
        "{stdout}"
    );
}

#[test]
fn our_own_output_only_problem_verifies() {
    verify_package("sumsquares", &["python3"], 2);
}

/// `judge ARGS... FOLDER...` in `root`: (exit code, stdout).
fn run(root: &Path, args: &[&str], folders: &[&Path]) -> (Option<i32>, String) {
    let words = args.iter().map(std::ffi::OsStr::new);
    judge_output(root, words.chain(folders.iter().map(|f| f.as_os_str())))
}

/// A folder of answers named after `sumsquares`' tests.
fn answers(dir: &Path, secret_02: &str) -> std::path::PathBuf {
    let answers = dir.join("answers");
    std::fs::create_dir_all(answers.join("secret")).unwrap();
    std::fs::write(answers.join("1.ans"), "2 1\n").unwrap();
    std::fs::write(answers.join("secret/01.ans"), "4 3\n").unwrap();
    std::fs::write(answers.join("02.out"), secret_02).unwrap();
    answers
}

#[test]
fn judge_test_takes_a_folder_of_answers_and_says_what_is_wrong() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumsquares");
    let mine = tempfile::tempdir().unwrap();
    let right = answers(mine.path(), "800 600\n");
    let (code, stdout) = run(root.path(), &["test", "sumsquares"], &[&right]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("secret/02"), "{stdout}");

    // A wrong answer is the checker's WA, with its message.
    std::fs::write(right.join("02.out"), "1 1\n").unwrap();
    let (code, stdout) = run(root.path(), &["test", "sumsquares"], &[&right]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("1^2 + 1^2 is not 1000000"), "{stdout}");

    // A missing answer is an empty one, and said so; a stray file is named.
    std::fs::remove_file(right.join("02.out")).unwrap();
    std::fs::write(right.join("notes.txt"), "scratch\n").unwrap();
    let (code, stdout) = run(
        root.path(),
        &["test", "sumsquares", "--diffs", "all"],
        &[&right],
    );
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("no answer file for secret/02: judged as an empty answer"),
        "{stdout}"
    );
    assert!(
        stdout.contains("answer files for no test, not judged: notes.txt"),
        "{stdout}"
    );
}

#[test]
fn an_answer_above_the_output_limit_is_ole_and_a_link_is_the_submitters_error() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumsquares");
    let mine = tempfile::tempdir().unwrap();
    // problem.toml's output limit is 1 KiB.
    let big = answers(mine.path(), &"0 ".repeat(1000));
    let (code, stdout) = run(root.path(), &["test", "sumsquares"], &[&big]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("OLE"), "{stdout}");

    // A link to the judge's own answer is never followed.
    let linked = tempfile::tempdir().unwrap();
    let set = answers(linked.path(), "");
    std::fs::remove_file(set.join("02.out")).unwrap();
    std::os::unix::fs::symlink(
        root.path().join("problems/sumsquares/data/secret/02.ans"),
        set.join("02.out"),
    )
    .unwrap();
    let (code, stdout) = run(root.path(), &["test", "sumsquares"], &[&set]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("CE"), "{stdout}");
    assert!(stdout.contains("symbolic link"), "{stdout}");
}

#[test]
fn judge_grade_grades_answer_folders() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumsquares");
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let right = answers(one.path(), "600 800\n");
    let wrong = answers(two.path(), "600 801\n");
    let (code, stdout) = run(root.path(), &["grade", "sumsquares"], &[&right, &wrong]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("graded 2 submissions: 1 AC, 1 WA"),
        "{stdout}"
    );
}
