//! IOI-style tasks as CMS reads them: CMS's Italian layout (`task.yaml`,
//! fixtures `cmssum` and `cmsguess`) and TPS (`problem.json`, fixtures
//! `tpsmax`, `tpsguess` and `tpsreport`), their subtasks scored by GroupMin, a checker
//! in CMS's protocol, a C++ grader; Communication tasks (`cmsguess`,
//! `tpsguess`, `cmsreversed`), whose manager talks to the solution
//! through FIFOs.

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
    assert_eq!(
        tested(root.path(), "test", "cmssum", &file),
        ("AC".to_string(), 70.0)
    );
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

/// `judge verify NAME` on the fixture `NAME` with its `task.yaml` made
/// `edit`ed, which must fail: all it printed.
fn refused_with_task_yaml(name: &str, edit: impl Fn(String) -> String) -> String {
    let root = root_with(name);
    let yaml = root.path().join(format!("problems/{name}/task.yaml"));
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, edit(text)).unwrap();
    let output = judge_at(root.path())
        .args(["verify", name])
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_ne!(output.status.code(), Some(0), "{all}");
    all
}

#[test]
fn a_task_that_reads_files_is_refused_on_its_line() {
    let all = refused_with_task_yaml("cmssum", |text| text.replace("infile: \"\"\n", ""));
    assert!(
        all.contains("task.yaml")
            && all.contains("`infile`: reading and writing files (`input.txt`"),
        "{all}"
    );
}

/// The official solution of `cmsguess` replaced by `sol/NAME.cpp`: its
/// verdict and score, from `judge verify`'s report (the Italian layout
/// declares nothing of its other solutions).
fn cmsguess_as_official(name: &str) -> (String, f64) {
    let root = root_with("cmsguess");
    let sol = root.path().join("problems/cmsguess/sol");
    std::fs::copy(sol.join(format!("{name}.cpp")), sol.join("soluzione.cpp")).unwrap();
    let report = root.path().join("report.json");
    judge_at(root.path())
        .args(["verify", "cmsguess", "--json"])
        .arg(&report)
        .assert()
        .code(predicates::ord::le(1));
    let report = read_json(&report);
    let expectation = &report["expectations"][0];
    let verdict = expectation["got"].as_str().unwrap_or_default().to_string();
    (verdict, expectation["score"].as_f64().unwrap_or(-1.0))
}

#[test]
fn a_cms_communication_task_runs_its_manager_against_each_solution() {
    if !have(&["g++"]) {
        return;
    }
    let root = root_with("cmsguess");
    let (code, stdout) = judge_output(root.path(), ["verify", "cmsguess"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("1 solution: 1 as expected, 0 unexpected")
            && stdout.contains("sol/soluzione.cpp  AC        AC  100"),
        "{stdout}"
    );
    // Only the first subtask's ten numbers are found in ten guesses one by
    // one; a solution that thinks forever is stopped at the CPU limit
    // while the manager waits on it; one that gives up gets the
    // manager's 0.
    for (name, verdict, score) in [
        ("linear", "WA", 40.0),
        ("forever", "TLE", 0.0),
        ("give_up", "WA", 0.0),
    ] {
        assert_eq!(
            cmsguess_as_official(name),
            (verdict.to_string(), score),
            "{name}"
        );
    }
}

/// The manager of `cmsreversed` writes to the path it is given first and
/// reads the second, its stub likewise: the reverse of CMS's names, which
/// CMS's plain FIFOs allow (each carries the way its two sides open it).
#[test]
fn a_manager_and_stub_may_use_the_fifos_the_other_way_round() {
    if !have(&["g++"]) {
        return;
    }
    let root = root_with("cmsreversed");
    let (code, stdout) = judge_output(root.path(), ["verify", "cmsreversed"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("sol/soluzione.cpp  AC        AC  100"),
        "{stdout}"
    );
}

#[test]
fn a_tps_communication_task_verifies_its_solution_verdicts() {
    let Some(stdout) = verify_package("tpsguess", &["g++"], 4) else {
        return;
    };
    assert!(stdout.contains("TPS package; 8 tests"), "{stdout}");
    // The grader reaches the manager by the FIFO paths it is given
    // (`fifo_io`); one question at a time is enough for the small subtask.
    assert!(
        stdout.contains("solution/one-by-one.cpp  rules     WA  40"),
        "{stdout}"
    );
    assert!(
        stdout.contains("solution/stuck.cpp       rules     TLE 0"),
        "{stdout}"
    );
}

/// TPS's `has_checker` in a Communication task: the manager only reports
/// (`found Q`, `lost Q`), and the checker judges that report against the
/// test's answer (`checker input answer manager_output`, as TPS's
/// `check_test.sh` runs it), in CMS's protocol.
#[test]
fn a_tps_communication_task_with_a_checker_judges_the_managers_report() {
    let Some(stdout) = verify_package("tpsreport", &["g++"], 2) else {
        return;
    };
    // One question at a time: half the small subtask's points (more
    // questions than needed), none of the large one's (lost).
    assert!(
        stdout.contains("solution/one-by-one.cpp  rules     WA  20"),
        "{stdout}"
    );
    assert!(
        stdout.contains("solution/model.cpp       rules     AC  100"),
        "{stdout}"
    );
    // A manager that fails after its report is the judge's error, never
    // the solution's.
    let root = root_with("tpsreport");
    let manager = root.path().join("problems/tpsreport/grader/manager.cpp");
    let text = std::fs::read_to_string(&manager).unwrap();
    std::fs::write(&manager, text.replace("return 0;", "return 2;")).unwrap();
    let model = root.path().join("problems/tpsreport/solution/model.cpp");
    assert_eq!(tested(root.path(), "test", "tpsreport", &model).0, "JE");
}

#[test]
fn more_than_one_solution_process_is_refused_on_its_line() {
    let all = refused_with_task_yaml("cmsguess", |text| format!("{text}num_processes: 2\n"));
    assert!(
        all.contains("task.yaml:13") && all.contains("`num_processes`: 2 solution processes"),
        "{all}"
    );
}

/// A contestant's file holds the task's functions and no `main`: handed
/// in from outside the package, it is built with the task's grader (a
/// Batch grader, CMS's `sol/stub.cpp`, TPS's stub) as the task's own
/// solutions are; a file in another language than the grader's is a
/// compile error naming both, and a link one refused.
#[test]
fn a_file_handed_in_for_a_task_with_a_grader_is_built_with_it() {
    if !have(&["g++"]) {
        return;
    }
    for (task, solution) in [
        ("tpsmax", "solution/model.cpp"),
        ("cmsguess", "sol/soluzione.cpp"),
        ("tpsguess", "solution/model.cpp"),
    ] {
        let root = root_with(task);
        let elsewhere = root.path().join("mine.cpp");
        std::fs::copy(
            root.path().join("problems").join(task).join(solution),
            &elsewhere,
        )
        .unwrap();
        for verb in ["test", "grade"] {
            let (verdict, score) = tested(root.path(), verb, task, &elsewhere);
            assert_eq!((verdict.as_str(), score), ("AC", 100.0), "{verb} {task}");
        }
    }
    let root = root_with("tpsmax");
    let python = root.path().join("mine.py");
    std::fs::write(&python, "print(1)\n").unwrap();
    let stdout = test_stdout(root.path(), &python);
    assert!(
        stdout.contains("mine.py: CE")
            && stdout.contains("the task's grader, which every solution is built with, is in cpp"),
        "{stdout}"
    );
    // Read as any file handed in is: a link is the submitter's error.
    let link = root.path().join("link.cpp");
    std::os::unix::fs::symlink(
        root.path().join("problems/tpsmax/solution/model.cpp"),
        &link,
    )
    .unwrap();
    let stdout = test_stdout(root.path(), &link);
    assert!(
        stdout.contains("link.cpp: CE") && stdout.contains("is a symbolic link"),
        "{stdout}"
    );
}

/// What `judge test tpsmax FILE` prints.
fn test_stdout(root: &std::path::Path, file: &std::path::Path) -> String {
    let output = judge_at(root)
        .args(["test", "tpsmax"])
        .arg(file)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `judge VERB TASK FILE` (`test` or `grade`): the file's verdict and
/// score.
fn tested(root: &std::path::Path, verb: &str, task: &str, file: &std::path::Path) -> (String, f64) {
    let report = root.join("report.json");
    judge_at(root)
        .args([verb, task])
        .arg(file)
        .arg("--json")
        .arg(&report)
        .assert()
        .code(predicates::ord::le(1));
    let report = read_json(&report);
    let submission = &report["submissions"][0];
    let verdict = submission["verdict"].as_str().unwrap_or_default();
    (
        verdict.to_string(),
        submission["score"].as_f64().unwrap_or(-1.0),
    )
}

/// A server's submission for an IOI task is built with the task's grader
/// too (the same one place as `judge test`'s).
#[test]
fn a_submission_to_a_server_is_built_with_the_tasks_grader() {
    if !have(&["g++"]) {
        return;
    }
    let site = crate::serve_server::Site::new(
        "user,display name,team,role\nalice,Alice,red,participant\n",
    );
    copy_dir(
        &fixtures().join("ecosystem/problems/tpsmax"),
        &site.root().join("problems/tpsmax"),
    );
    let session = site.write("ioi.toml", "title = \"IOI\"\nproblems = [\"tpsmax\"]\n");
    let server =
        crate::serve_server::Server::start(&site, &["--session", session.to_str().unwrap()]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let mine = site.write(
        "max.cpp",
        &std::fs::read_to_string(site.root().join("problems/tpsmax/solution/model.cpp")).unwrap(),
    );
    let id = crate::serve_server::submitted_id(&alice.submit("tpsmax", &mine));
    assert_eq!(alice.verdict(id).0, "AC");
}
