//! `judge report --feedback DIR` (a page per student under visibility
//! rules, file names safe from the students' names) and the LMS exports
//! (Moodle, Canvas, Gradescope) through a roster.

use predicates::prelude::*;

use super::*;

const ROSTER: &str = "student,name,email,id,lms_id,login,section\n\
    alice,\"Liddell, Alice\",alice@school.edu,S001,1001,aliddell,A\n\
    bob,\"Builder, Bob\",bob@school.edu,S002,1002,bbuilder,A\n\
    carol,\"Singer, Carol\",carol@school.edu,S003,1003,csinger,B\n\
    dave,\"Doe, Dave\",dave@school.edu,S004,1004,ddoe,B\n\
    zed,\"Zed, Zed\",zed@school.edu,S099,1099,zzed,B\n";

/// The fixture class plus a student whose folder name is markup.
fn hostile_class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    copy_dir(&class_dir(), &class);
    let hostile = class.join("<img src=x onerror=alert(1)>");
    std::fs::create_dir(&hostile).unwrap();
    std::fs::copy(class.join("bob/sum.c"), hostile.join("sum.c")).unwrap();
    class
}

#[test]
fn feedback_pages_and_lms_files_come_from_the_store() {
    if class_tools_missing() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let class = hostile_class(dir.path());
    let db = dir.path().join("judge.db");
    let policy = dir.path().join("grading.toml");
    std::fs::write(
        &policy,
        "out-of = 10\ndecimals = 1\n[problems.sum]\nweight = 3\n",
    )
    .unwrap();
    grade(&class, &db, &["--policy", policy.to_str().unwrap()]).success();
    let roster = dir.path().join("roster.csv");
    std::fs::write(&roster, ROSTER).unwrap();
    let (feedback, moodle, canvas, gradescope) = (
        dir.path().join("feedback"),
        dir.path().join("moodle.csv"),
        dir.path().join("canvas.csv"),
        dir.path().join("gradescope"),
    );
    judge()
        .current_dir(dir.path())
        .args(["report", "--db"])
        .arg(&db)
        .arg("--feedback")
        .arg(&feedback)
        .arg("--roster")
        .arg(&roster)
        .arg("--moodle")
        .arg(&moodle)
        .arg("--canvas")
        .arg(&canvas)
        .arg("--gradescope")
        .arg(&gradescope)
        .args(["--item", "Lab 3"])
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stdout(predicate::str::contains("feedback: 6 students"))
        .stderr(
            predicate::str::contains("erin: not in the roster").and(predicate::str::contains(
                "zed: in the roster but not graded",
            )),
        );

    // Moodle: mapped by e-mail; the total and a line of feedback.
    assert_eq!(
        std::fs::read_to_string(&moodle).unwrap(),
        "Email address,ID number,Username,Full name,Lab 3,Feedback\r\n\
         alice@school.edu,S001,aliddell,\"Liddell, Alice\",10,guess: AC; sum: AC\r\n\
         bob@school.edu,S002,bbuilder,\"Builder, Bob\",0,guess: WA; sum: WA\r\n\
         carol@school.edu,S003,csinger,\"Singer, Carol\",7.5,guess: no submission; sum: AC\r\n\
         dave@school.edu,S004,ddoe,\"Doe, Dave\",2.5,guess: AC; sum: CE\r\n"
    );
    // Canvas: its identity columns and the Points Possible row.
    assert_eq!(
        std::fs::read_to_string(&canvas).unwrap(),
        "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3\r\n\
         \x20   Points Possible,,,,,10\r\n\
         \"Liddell, Alice\",1001,S001,aliddell,A,10\r\n\
         \"Builder, Bob\",1002,S002,bbuilder,A,0\r\n\
         \"Singer, Carol\",1003,S003,csinger,B,7.5\r\n\
         \"Doe, Dave\",1004,S004,ddoe,B,2.5\r\n"
    );
    // Gradescope: a results.json per student, secret tests as verdicts only.
    let results = read_json(&gradescope.join("bob/results.json"));
    assert_eq!(results["score"], 0.0);
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests[0]["name"], "guess");
    assert_eq!(tests[0]["max_score"], 2.5);
    let secret = tests
        .iter()
        .find(|t| t["name"] == "sum: secret/02")
        .unwrap();
    assert_eq!(secret["status"], "failed");
    assert!(!secret["output"].as_str().unwrap().contains("expected"));
    let index = std::fs::read_to_string(gradescope.join("students.csv")).unwrap();
    assert!(index.contains("bob,bob@school.edu,S002,bob\r\n"), "{index}");

    // Feedback: a page per student, named safely; secret tests as verdicts.
    let bob = std::fs::read_to_string(feedback.join("bob.md")).unwrap();
    assert!(bob.contains("# Feedback: bob"), "{bob}");
    assert!(bob.contains("**Total: 0 of 10**"), "{bob}");
    assert!(bob.contains("| secret/02 | WA |"), "{bob}");
    assert!(
        !bob.contains("expected"),
        "a secret test's answer leaked: {bob}"
    );
    let dave = std::fs::read_to_string(feedback.join("dave.md")).unwrap();
    assert!(
        dave.contains("expected expression"),
        "the compile error: {dave}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&feedback)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 12, "{names:?}");
    let hostile = names.iter().find(|n| n.starts_with("_img")).unwrap();
    assert!(
        hostile
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
        "{hostile}"
    );
    let hostile_md =
        std::fs::read_to_string(feedback.join(hostile.replace(".html", ".md"))).unwrap();
    assert!(hostile_md.contains("# Feedback: \\<img src\\=x onerror\\=alert\\(1\\)\\>"));

    // Secret tests in full on request: the first difference is shown.
    judge()
        .current_dir(dir.path())
        .args(["report", "--db"])
        .arg(&db)
        .arg("--feedback")
        .arg(&feedback)
        .args(["--secret", "full", "--samples", "hidden"])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let bob = std::fs::read_to_string(feedback.join("bob.md")).unwrap();
    assert!(bob.contains("First difference on secret/02"), "{bob}");
    assert!(!bob.contains("| sample/"), "{bob}");
    assert!(bob.contains("not shown"), "{bob}");

    // The hostile student's page in a browser: text, never markup.
    let Some(browser) = chromium() else {
        skipped("chromium");
        return;
    };
    let page = feedback.join(hostile);
    let (dom, log) = headless_dom(&browser, &page);
    assert!(
        dom.contains("Feedback: &lt;img src=x onerror=alert(1)&gt;"),
        "{dom}"
    );
    assert!(!dom.contains("<img"), "markup from a name: {dom}");
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
}
