//! IOI-style tasks as CMS reads them: CMS's Italian layout (`task.yaml`,
//! fixture `cmssum`) and TPS (`problem.json`, fixture `tpsmax`), their
//! subtasks scored by GroupMin, a checker in CMS's protocol, a C++ grader.

use crate::ecosystem::{root_with, verify_package};
use crate::support::*;

#[test]
fn a_cms_italian_task_verifies_and_scores_by_group_min() {
    if !have(&["g++", "python3"]) {
        return;
    }
    let root = root_with("cmssum");
    let (code, stdout) = judge_output(root.path(), ["verify", "cmssum"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("1 solution: 1 as expected, 0 unexpected"),
        "{stdout}"
    );
    assert!(
        stdout.contains("CMS (Italian) package; 4 tests"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sol/almost.py: the format declares no verdict for it: not run"),
        "{stdout}"
    );
    // Off by one on the second subtask's first test: the checker gives it
    // half its points, and GroupMin the subtask its lowest: 40 + 60 / 2.
    let file = root.path().join("problems/cmssum/sol/almost.py");
    let report = root.path().join("report.json");
    judge_at(root.path())
        .args(["test", "cmssum"])
        .arg(&file)
        .arg("--json")
        .arg(&report)
        .assert()
        .code(predicates::ord::le(1));
    let report = read_json(&report);
    let submission = &report["submissions"][0];
    assert_eq!(submission["score"], 70.0, "{report:#}");
    assert_eq!(submission["verdict"], "AC", "{report:#}");
}

#[test]
fn a_tps_task_with_a_grader_and_shared_tests_verifies_its_solution_verdicts() {
    let Some(stdout) = verify_package("tpsmax", &["g++"], 3) else {
        return;
    };
    assert!(stdout.contains("TPS package; 8 tests"), "{stdout}");
    // The checker (built with the header beside it) judges; correct on the
    // subtasks `except` names, wrong on the rest: 30 points.
    assert!(
        stdout.contains("solution/from-zero.cpp  rules     WA  30"),
        "{stdout}"
    );
}

#[test]
fn a_task_that_reads_files_is_refused_on_its_line() {
    let root = root_with("cmssum");
    let yaml = root.path().join("problems/cmssum/task.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, text.replace("infile: \"\"\n", "")).unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "cmssum"]);
    assert_ne!(code, Some(0), "{stdout}");
    let output = judge_at(root.path())
        .args(["verify", "cmssum"])
        .output()
        .unwrap();
    let all = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        all.contains("task.yaml")
            && all.contains("`infile`: reading and writing files (`input.txt`"),
        "{all}"
    );
}
