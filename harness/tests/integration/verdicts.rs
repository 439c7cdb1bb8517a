//! Every fixture submission gets the verdict its folder is named after
//! (`submissions/<problem>/<VERDICT>[-why]/<file>`), in every language.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::support::*;

/// Grades every runnable submission of `problem` in one judge call and
/// returns the mismatches.
fn grade_folder(problem: &str) -> Vec<String> {
    let base = fixtures().join("submissions").join(problem);
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    folders.sort();
    for folder in folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let verdict = name.split('-').next().unwrap().to_string();
        for file in runnable_files(&folder) {
            expected.insert(file.display().to_string(), verdict.clone());
            files.push(file);
        }
    }
    if files.is_empty() {
        return Vec::new();
    }
    let report = tempfile::NamedTempFile::new().unwrap();
    // A submission's verdict is its first rejected test's, so the tests
    // after it are not run: a TLE is not timed out again on every test.
    judge_fixtures()
        .args(["-j", "2", "grade", "--fail-fast", problem])
        .args(&files)
        .arg("--json")
        .arg(report.path())
        .assert()
        .code(predicates::ord::le(1));
    let json = read_json(report.path());
    let submissions = json["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), files.len(), "one report per submission");
    let mut mismatches = Vec::new();
    for submission in submissions {
        let file = submission["submission"].as_str().unwrap();
        let got = submission["verdict"].as_str().unwrap();
        let want = &expected[file];
        if got != want {
            mismatches.push(format!(
                "{file}: expected {want}, got {got} ({})",
                submission
            ));
        }
    }
    mismatches
}

#[test]
fn sum_submissions_get_their_folder_verdicts() {
    let mismatches = grade_folder("sum");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn whitespace_is_judged_only_where_asked() {
    let mismatches = grade_folder("sum-strict");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn checker_verdicts_and_scores() {
    let mismatches = grade_folder("divisor");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    let Some(file) = runnable_files(&fixtures().join("submissions/divisor/AC")).pop() else {
        return;
    };
    let report = tempfile::NamedTempFile::new().unwrap();
    judge_fixtures()
        .args(["test", "divisor"])
        .arg(&file)
        .arg("--json")
        .arg(report.path())
        .assert()
        .success();
    let json = read_json(report.path());
    assert_eq!(
        json["submissions"][0]["score"], 4.0,
        "one point per secret test from score.txt"
    );
}

#[test]
fn a_broken_checker_is_a_judge_error_not_the_submissions_fault() {
    let file = fixtures().join("submissions/sum/AC/sum.rs");
    let report = tempfile::NamedTempFile::new().unwrap();
    judge_fixtures()
        .args(["test", "bad-checker"])
        .arg(&file)
        .arg("--json")
        .arg(report.path())
        .assert()
        .code(1);
    let json = read_json(report.path());
    assert_eq!(json["submissions"][0]["verdict"], "JE");
    let detail = json["submissions"][0]["tests"][0]["detail"]
        .as_str()
        .unwrap();
    assert!(detail.contains("expected exit 42 or 43"), "{detail}");
}

#[test]
fn testlib_checkers_and_validators_speak_their_protocol() {
    if !have(&["g++"]) {
        return;
    }
    // AC, WA (exit 1) and PE (exit 2) from the testlib checker, which
    // includes the testlib.h beside it; the validator accepts every input.
    judge_fixtures()
        .args(["verify", "pebbles-testlib", "--fresh"])
        .assert()
        .success();

    let root = scratch_root_with("pebbles-testlib");
    // Its programs are the Polygon fixture's, referred to by relative path.
    copy_dir(
        &fixtures().join("ecosystem/problems/pebbles/files"),
        &root.path().join("ecosystem/problems/pebbles/files"),
    );
    let problem = root.path().join("problems/pebbles-testlib");
    // A wrong jury answer: the checker fails (exit 3), a judge error.
    std::fs::write(problem.join("data/sample/01.ans"), "second\n").unwrap();
    // An input the testlib validator rejects (n = 0).
    std::fs::write(problem.join("data/secret/1-small/99-bad.in"), "0 3\n\n").unwrap();
    std::fs::write(problem.join("data/secret/1-small/99-bad.ans"), "second\n").unwrap();
    let output = judge_at(root.path())
        .args(["verify", "pebbles-testlib"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("99-bad"),
        "the validator rejects the bad input:\n{text}"
    );
    let report = tempfile::NamedTempFile::new().unwrap();
    judge_at(root.path())
        .args(["test", "pebbles-testlib"])
        .arg(fixtures().join("ecosystem/problems/pebbles/solutions/main.cpp"))
        .arg("--json")
        .arg(report.path())
        .assert()
        .code(1);
    let json = read_json(report.path());
    let main = &json["submissions"][0];
    assert_eq!(main["verdict"], "JE", "{main:#}");
    assert!(
        main["tests"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("checker failed"),
        "{main:#}"
    );
}
