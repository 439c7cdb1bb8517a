//! Grading a class (`tests/fixtures/class/`: five students × `sum` and
//! `guess`, in Python, C, C++ and Rust, with a compile error, a missing
//! submission and files that match no problem) into a result store; the
//! gradebook as CSV, HTML (checked in headless Chromium) and JSON; the
//! store as a cache; shards merged.

use std::path::{Path, PathBuf};
use std::process::Command;

use harness::report::gradebook::Gradebook;
use harness::store::Store;
use predicates::prelude::*;

use crate::support::*;

/// Environment variables that pick a shard: cleared, so a test run inside
/// a Slurm array or an Indexed Job grades whole classes.
const SHARD_VARIABLES: [&str; 4] = [
    "JOB_COMPLETION_INDEX",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_COUNT",
];

fn class_dir() -> PathBuf {
    fixtures().join("class")
}

/// What the fixture class is written in needs.
const CLASS_TOOLS: [&str; 4] = ["gcc", "g++", "python3", "rustc"];

fn judge_in(root: &Path) -> assert_cmd::Command {
    let mut cmd = judge_at(root);
    for name in SHARD_VARIABLES {
        cmd.env_remove(name);
    }
    cmd
}

/// `judge grade --class <fixture class> sum guess --db DB` plus `extra`.
fn grade_class(root: &Path, db: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    judge_in(root)
        .args(["grade", "--class"])
        .arg(class_dir())
        .args(["sum", "guess", "--db"])
        .arg(db)
        .args(extra)
        .assert()
}

fn latest(db: &Path) -> (Store, i64) {
    let store = Store::open(db).unwrap();
    let run = store.runs().unwrap().last().unwrap().id;
    (store, run)
}

/// The CSV gradebook `judge report` writes of the store `db`.
pub fn csv_of(root: &Path, db: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("grades.csv");
    judge_in(root)
        .args(["report", "--db"])
        .arg(db)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    std::fs::read_to_string(csv).unwrap()
}

/// Without a grading policy: no total (raw points do not add up).
const GRADEBOOK: &str = "\u{feff}student,guess,guess points,sum,sum points,solved\r\n\
    alice,AC,1,AC,1,2\r\n\
    bob,WA,0,WA,0,0\r\n\
    carol,no submission,0,AC,1,1\r\n\
    dave,AC,1,CE,0,1\r\n\
    erin,RE,0,RE,0,0\r\n";

/// A PostgreSQL database of its own for a test (`None`: skipped, said so).
fn postgres_store(name: &str) -> Option<PathBuf> {
    let server = crate::postgres_server::postgres()?;
    Some(PathBuf::from(server.database(name)))
}

#[test]
fn a_class_is_graded_into_the_store_with_every_file_accounted_for() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    grade_into(&dir.path().join("judge.db"));
}

#[test]
fn a_class_is_graded_into_a_postgres_store_as_into_a_file() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let Some(db) = postgres_store("graded") else {
        return;
    };
    grade_into(&db);
}

/// Grades the class into `db` and checks every report of it.
fn grade_into(db: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let (db, csv, json) = (
        db.to_path_buf(),
        dir.path().join("grades.csv"),
        dir.path().join("grades.json"),
    );
    grade_class(
        &fixtures(),
        &db,
        &[
            "--csv",
            csv.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
    )
    .success()
    .stdout(
        predicate::str::contains("5 students × 2 problems")
            .and(predicate::str::contains(
                "README.txt: not in a student's folder",
            ))
            .and(predicate::str::contains(
                "carol/notes.txt: no problem `notes`",
            ))
            .and(predicate::str::contains(
                "graded 9 submissions: 40 tests run, 0 results reused",
            )),
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), GRADEBOOK);

    let report = read_json(&json);
    assert_eq!(report["command"], "grade");
    assert_eq!(report["submissions"].as_array().unwrap().len(), 9);
    let class = &report["class"];
    assert_eq!(
        class["students"],
        serde_json::json!(["alice", "bob", "carol", "dave", "erin"])
    );
    assert_eq!(
        class["no_submission"],
        serde_json::json!([{ "student": "carol", "problem": "guess" }])
    );
    assert_eq!(class["unmatched"].as_array().unwrap().len(), 2);
    let dave_sum = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["submission"] == "dave/sum.rs")
        .unwrap();
    assert_eq!(dave_sum["verdict"], "CE");
    assert!(
        dave_sum["message"]
            .as_str()
            .unwrap()
            .contains("expected expression")
    );

    // The store holds what the run said, read back as a gradebook.
    let (store, run) = latest(&db);
    let book = store.gradebook(run).unwrap();
    assert_eq!(book.rows.len(), 5);
    let bob_sum = book
        .submissions()
        .find(|(s, p, _)| *s == "bob" && p.id == "sum")
        .unwrap()
        .2;
    assert_eq!(bob_sum.language.as_deref(), Some("c"));
    assert_eq!(bob_sum.content_hash.as_ref().map(String::len), Some(64));
    let wrong = bob_sum
        .report
        .tests
        .iter()
        .find(|t| t.difference.is_some())
        .unwrap();
    assert_eq!(wrong.test, "secret/02");
}

#[test]
fn a_second_grading_is_served_from_the_store_and_fresh_runs_again() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    grade_again(&dir.path().join("judge.db"));
}

#[test]
fn a_postgres_store_is_the_cache_as_a_file_is() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let Some(db) = postgres_store("cache") else {
        return;
    };
    grade_again(&db);
}

fn grade_again(db: &Path) {
    let db = db.to_path_buf();
    grade_class(&fixtures(), &db, &[]).success();
    let (store, first) = latest(&db);
    assert_eq!(store.counts(first).unwrap(), (40, 0));
    drop(store);

    grade_class(&fixtures(), &db, &[])
        .success()
        .stdout(predicate::str::contains("0 tests run, 40 results reused"));
    let (store, second) = latest(&db);
    assert_eq!(
        store.counts(second).unwrap(),
        (0, 40),
        "every test from the store"
    );
    let csv = csv_of(&fixtures(), &db);
    assert_eq!(csv, GRADEBOOK, "the same gradebook from stored results");
    drop(store);

    grade_class(&fixtures(), &db, &["--fresh"]).success();
    let (store, third) = latest(&db);
    assert_eq!(
        store.counts(third).unwrap(),
        (40, 0),
        "--fresh runs everything"
    );
}

#[test]
fn a_changed_test_reruns_only_its_problem_and_changes_lists_who_lost_ac() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    for problem in ["sum", "guess"] {
        copy_dir(
            &fixtures().join("problems").join(problem),
            &root.path().join("problems").join(problem),
        );
    }
    let db = root.path().join("judge.db");
    grade_class(root.path(), &db, &[]).success();

    // A stronger (here: a deliberately unsatisfiable) secret/01 for `sum`.
    let secret = root.path().join("problems/sum/data/secret");
    std::fs::write(secret.join("01.in"), "1\n1 1\n").unwrap();
    std::fs::write(secret.join("01.ans"), "3\n").unwrap();
    grade_class(root.path(), &db, &[]).success();

    let (store, run) = latest(&db);
    let book: Gradebook = store.gradebook(run).unwrap();
    let mut rerun = Vec::new();
    for (student, problem, submission) in book.submissions() {
        for (test, reused) in submission.report.tests.iter().zip(&submission.reused) {
            if !reused {
                rerun.push(format!("{student} {} {}", problem.id, test.test));
            }
        }
    }
    // Every `sum` submission that built (not dave's CE) ran the changed test; nothing else ran.
    assert_eq!(
        rerun,
        [
            "alice sum secret/01",
            "bob sum secret/01",
            "carol sum secret/01",
            "erin sum secret/01"
        ]
    );
    judge_in(root.path())
        .args(["report", "--changes", "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(
            predicate::str::contains(": 2")
                .and(predicate::str::contains("alice / sum: AC -> WA  lost AC"))
                .and(predicate::str::contains("carol / sum: AC -> WA  lost AC")),
        );
}

#[test]
fn three_shards_merged_give_the_single_machine_gradebook() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.db");
    grade_class(&fixtures(), &whole, &[]).success();

    // One shard per way of naming it: the flag, a Kubernetes Indexed Job, a Slurm array.
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| dir.path().join(format!("shard-{k}.db")))
        .collect();
    let mut outputs = Vec::new();
    let output = grade_class(&fixtures(), &shards[0], &["--partition", "1/3"]).success();
    outputs.push(String::from_utf8(output.get_output().stdout.clone()).unwrap());
    let output = judge_in(&fixtures())
        .env("JOB_COMPLETION_INDEX", "1")
        .args(["grade", "--class"])
        .arg(class_dir())
        .args(["sum", "guess", "--partition-count", "3", "--db"])
        .arg(&shards[1])
        .assert()
        .success();
    outputs.push(String::from_utf8(output.get_output().stdout.clone()).unwrap());
    let output = judge_in(&fixtures())
        .envs([
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ])
        .args(["grade", "--class"])
        .arg(class_dir())
        .args(["sum", "guess", "--db"])
        .arg(&shards[2])
        .assert()
        .success();
    outputs.push(String::from_utf8(output.get_output().stdout.clone()).unwrap());
    let mut graded = 0;
    for (k, (output, from)) in outputs
        .iter()
        .zip(["--partition", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"])
        .enumerate()
    {
        assert!(
            output.contains(&format!("shard {}/3 (from {from})", k + 1)),
            "{output}"
        );
        let count = output
            .lines()
            .find_map(|line| line.strip_prefix("graded "))
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap();
        graded += count;
    }
    assert_eq!(graded, 9, "each submission in exactly one shard");

    let merged = dir.path().join("merged.db");
    judge_in(&fixtures())
        .arg("merge")
        .args(&shards)
        .arg("--db")
        .arg(&merged)
        .assert()
        .success()
        .stdout(predicate::str::contains("merged 3 stores"));
    assert_eq!(csv_of(&fixtures(), &merged), csv_of(&fixtures(), &whole));
    assert_eq!(csv_of(&fixtures(), &merged), GRADEBOOK);

    // Every report, apart from timings: the JSON's verdicts test by test.
    let verdicts = |db: &Path| {
        let json = db.with_extension("json");
        judge_in(&fixtures())
            .args(["report", "--db"])
            .arg(db)
            .arg("--json")
            .arg(&json)
            .assert()
            .success();
        let report = read_json(&json);
        let mut all: Vec<String> = report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| {
                s["tests"].as_array().unwrap().iter().map(move |t| {
                    format!(
                        "{} {} {} {}",
                        s["submission"], s["verdict"], t["test"], t["verdict"]
                    )
                })
            })
            .collect();
        all.sort();
        (
            all,
            report["class"]["unmatched"].clone(),
            report["class"]["no_submission"].clone(),
        )
    };
    assert_eq!(verdicts(&merged), verdicts(&whole));

    // A missing shard is said, and fails the merge's exit code.
    judge_in(&fixtures())
        .arg("merge")
        .args(&shards[..2])
        .arg("--db")
        .arg(dir.path().join("partial.db"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("shard 3/3 is missing"));
}

#[test]
fn shards_merge_into_and_out_of_postgres() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let Some(server) = crate::postgres_server::postgres() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // One shard in PostgreSQL, one in a file; merged into PostgreSQL, and
    // that merged back out into a file.
    let first = PathBuf::from(server.database("shard1"));
    let second = dir.path().join("shard-2.db");
    grade_class(&fixtures(), &first, &["--partition", "1/2"]).success();
    grade_class(&fixtures(), &second, &["--partition", "2/2"]).success();
    let merged = PathBuf::from(server.database("merged"));
    judge_in(&fixtures())
        .arg("merge")
        .arg(&first)
        .arg(&second)
        .arg("--db")
        .arg(&merged)
        .assert()
        .success()
        .stdout(predicate::str::contains("merged 2 stores"));
    assert_eq!(csv_of(&fixtures(), &merged), GRADEBOOK);
    let back = dir.path().join("back.db");
    judge_in(&fixtures())
        .arg("merge")
        .arg(&merged)
        .arg("--db")
        .arg(&back)
        .assert()
        .success();
    assert_eq!(csv_of(&fixtures(), &back), GRADEBOOK);
    // The merged store is a cache in either engine.
    grade_class(&fixtures(), &merged, &[])
        .success()
        .stdout(predicate::str::contains("0 tests run, 40 results reused"));
}

#[test]
fn a_manifest_grades_files_from_anywhere() {
    if !have(&CLASS_TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("class.csv");
    let class = class_dir();
    std::fs::write(
        &manifest,
        format!(
            "student,problem,path\n\"Doe, Ann\",sum,{0}/alice/sum.py\nBen,sum,{0}/bob/sum.c\nBen,guess,{0}/nowhere.py\n",
            class.display()
        ),
    )
    .unwrap();
    let (db, csv) = (dir.path().join("judge.db"), dir.path().join("grades.csv"));
    judge_in(&fixtures())
        .args(["grade", "--manifest"])
        .arg(&manifest)
        .args(["sum", "guess", "--db"])
        .arg(&db)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success()
        .stdout(predicate::str::contains("nowhere.py: no such file"));
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "\u{feff}student,guess,guess points,sum,sum points,solved\r\n\
         Ben,no submission,0,WA,0,0\r\n\
         \"Doe, Ann\",no submission,0,AC,1,1\r\n"
    );
}

#[test]
fn verify_reuses_stored_results_unless_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("judge.db");
    let verify = |extra: &[&str]| {
        let output = judge_in(&fixtures())
            .args(["verify", "sum", "--db"])
            .arg(&db)
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success());
        // The package checks hold whether remembered or run.
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            stdout.contains("5 inputs valid") && stdout.contains("1 generated input reproduced"),
            "{stdout}"
        );
        String::from_utf8(output.stderr).unwrap()
    };
    let cold = verify(&[]);
    assert!(
        cold.contains("results reused") && cold.contains(" 0 results reused"),
        "{cold}"
    );
    let warm = verify(&[]);
    let (store, run) = latest(&db);
    let (ran, reused) = store.counts(run).unwrap();
    // Only a timing-unstable result (a busy machine) may run again.
    assert!(reused > 0 && ran <= 1, "{warm}: {ran} run, {reused} reused");
    verify(&["--fresh"]);
    let (store, run) = latest(&db);
    assert_eq!(store.counts(run).unwrap().1, 0);
}

/// Runs headless Chromium on `page`; its stdout and stderr.
fn headless(browser: &Path, args: &[&str], page: &str) -> (String, String) {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=3000",
        ])
        .args(args)
        .arg(page);
    let output = bounded(command).output().unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The students in the gradebook table's row order, as the first cell's
/// text (escaped as the DOM serializes text).
fn student_order(dom: &str) -> Vec<String> {
    dom.split("<tr data-search=\"")
        .skip(1)
        .filter_map(|row| row.split("</td>").next())
        .filter_map(|cell| cell.rsplit("\">").next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_html_gradebook_works_in_headless_chromium() {
    if !have(&["chromium"]) || !have(&CLASS_TOOLS) {
        return;
    }
    let browser = which("chromium").unwrap();
    // The class plus a student whose folder name is markup.
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    copy_dir(&class_dir(), &class);
    let hostile = "<img src=x onerror=alert(1)>";
    std::fs::create_dir(class.join(hostile)).unwrap();
    std::fs::copy(
        class.join("alice/sum.py"),
        class.join(hostile).join("sum.py"),
    )
    .unwrap();
    let (db, html) = (dir.path().join("judge.db"), dir.path().join("grades.html"));
    judge_in(&fixtures())
        .args(["grade", "--class"])
        .arg(&class)
        .args(["sum", "guess", "--db"])
        .arg(&db)
        .arg("--html")
        .arg(&html)
        .assert()
        .success();
    let page = format!("file://{}", html.display());

    let (dom, log) = headless(
        &browser,
        &["--dump-dom"],
        &format!("{page}#sort=student:desc"),
    );
    assert!(dom.contains("data-ready=\"yes\""), "the page's script ran");
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    let escaped = "&lt;img src=x onerror=alert(1)&gt;";
    assert_eq!(
        student_order(&dom),
        ["erin", "dave", "carol", "bob", "alice", escaped],
        "every student, sorted by name descending"
    );
    // A folder name is text, never markup: `<img` only inside attribute values.
    for (at, _) in dom.match_indices("<img") {
        assert!(
            dom[..at].ends_with("=\""),
            "markup from a name: {}",
            &dom[at..at + 40]
        );
    }
    assert!(dom.contains("aria-sort=\"descending\""));

    let (dom, _) = headless(
        &browser,
        &["--dump-dom"],
        &format!("{page}#sort=solved:desc"),
    );
    assert_eq!(
        student_order(&dom),
        ["alice", escaped, "carol", "dave", "bob", "erin"],
        "most solved first, ties by name"
    );

    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("class-gradebook.png");
    let _ = std::fs::remove_file(&shot);
    let screenshot = format!("--screenshot={}", shot.display());
    headless(&browser, &[&screenshot, "--window-size=1280,1600"], &page);
    let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(size > 10_000, "a screenshot at {}", shot.display());
    println!("screenshot: {}", shot.display());
}
