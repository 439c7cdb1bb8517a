//! A grading policy gives the total (CSV, table, page), is kept with the
//! run, and `judge report --db` renders it all from the store alone, in a
//! folder with no `problems/`.

use predicates::prelude::*;

use super::*;

const POLICY: &str = "out-of = 10\ndecimals = 1\n[problems.sum]\nweight = 3\n";

#[test]
fn a_policy_gives_the_total_and_report_needs_no_problem_set() {
    if class_tools_missing() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (db, csv, policy) = (
        dir.path().join("judge.db"),
        dir.path().join("grades.csv"),
        dir.path().join("grading.toml"),
    );
    std::fs::write(&policy, POLICY).unwrap();
    let graded = grade(
        &class_dir(),
        &db,
        &[
            "--policy",
            policy.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ],
    )
    .success();
    let out = stdout_of(&graded);
    assert!(out.contains("solved  total"), "{out}");
    assert!(out.contains("total: out of 10"), "{out}");
    // sum is worth 3 of 4 weights: 7.5 of 10; guess 2.5.
    let expected = "\u{feff}student,guess,guess points,sum,sum points,solved,total (of 10)\r\n\
        alice,AC,2.5,AC,7.5,2,10\r\n\
        bob,WA,0,WA,0,0,0\r\n\
        carol,no submission,0,AC,7.5,1,7.5\r\n\
        dave,AC,2.5,CE,0,1,2.5\r\n\
        erin,RE,0,RE,0,0,0\r\n";
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), expected);

    // From the store alone: no problems/ here or above, no --root.
    let elsewhere = tempfile::tempdir().unwrap();
    let again = elsewhere.path().join("again.csv");
    let report = |extra: &[&std::ffi::OsStr]| {
        judge()
            .current_dir(elsewhere.path())
            .args(["report", "--db"])
            .arg(&db)
            .arg("--csv")
            .arg(&again)
            .args(extra)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
    };
    report(&[])
        .success()
        .stdout(predicate::str::contains("alice"));
    assert_eq!(
        std::fs::read_to_string(&again).unwrap(),
        expected,
        "the stored policy is applied again"
    );

    // Another policy for the same run; then a broken one, named by line and key.
    let other = elsewhere.path().join("other.toml");
    std::fs::write(&other, "[problems.guess]\nweight = 0\n").unwrap();
    report(&["--policy".as_ref(), other.as_os_str()]).success();
    let csv = std::fs::read_to_string(&again).unwrap();
    assert!(csv.contains("dave,AC,0,CE,0,1,0\r\n"), "{csv}");
    assert!(csv.contains("total (of 1)"), "{csv}");
    std::fs::write(&other, "decimals = 1\n\n[problems.sum]\nweigth = 2\n").unwrap();
    report(&["--policy".as_ref(), other.as_os_str()])
        .code(2)
        .stderr(predicate::str::contains("other.toml:4:").and(predicate::str::contains("weigth")));
}
