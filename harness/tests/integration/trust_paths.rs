//! Trust, round three: the judge itself never follows, waits on or writes
//! through a path a submission controls. Each test reproduces one hole of
//! the issue with the programs and build scripts of
//! `submissions/hostile-paths/` and the links, FIFOs and names it makes at
//! test time (a link cannot be committed as a fixture without every other
//! test that lists the fixtures tripping over it).
//!
//! Against a judge with the hole, each of these gets AC without solving,
//! leaks a file into a report, hangs, writes into a file of the host's,
//! keeps hundreds of megabytes, or prints a forged row.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::hostile::{JUDGE_DEADLINE, grade, grade_with_env};
use crate::support::*;

fn program(name: &str) -> PathBuf {
    fixtures().join("submissions/hostile-paths").join(name)
}

fn answer() -> PathBuf {
    fixtures().join("problems/hostile/data/secret/1.ans")
}

fn mkfifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
}

/// A copy of `name` in `dir`.
fn copy_into(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(program(name), &to).unwrap();
    to
}

/// The `message` of each submission in a JSON report, in order.
fn messages(json: &serde_json::Value) -> Vec<String> {
    json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_link_beside_a_submission_or_as_one_is_never_followed() {
    if !have(&["gcc"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The header link leads to the answer; a second copy's to the
    // judge's environment; a third submission is itself a link.
    let to_answer = copy_into(dir.path(), "include_link.c");
    symlink(answer(), dir.path().join("h.txt")).unwrap();
    let environ_dir = dir.path().join("environ");
    std::fs::create_dir(&environ_dir).unwrap();
    let to_environ = copy_into(&environ_dir, "include_link.c");
    symlink("/proc/self/environ", environ_dir.join("h.txt")).unwrap();
    let linked = dir.path().join("alias.c");
    symlink(&to_answer, &linked).unwrap();

    let secret = "gj-grader-secret-71d3c5";
    let judged = grade_with_env(
        &[to_answer, to_environ, linked],
        2,
        &[("GJ_GRADER_TOKEN", secret)],
    );
    let verdicts: Vec<&str> = judged.verdicts.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(verdicts, ["CE", "CE", "CE"], "{}", judged.output);
    let messages = messages(&judged.json);
    assert!(
        messages[0].contains("h.txt is a symbolic link")
            && messages[1].contains("h.txt is a symbolic link"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("alias.c is a symbolic link"),
        "{messages:?}"
    );
    let everything = format!("{}{}", judged.output, judged.json);
    let answer = std::fs::read_to_string(answer()).unwrap();
    assert!(
        !everything.contains(answer.trim()),
        "the answer leaked:\n{everything}"
    );
    assert!(
        !everything.contains(secret),
        "the environment leaked:\n{everything}"
    );
}

#[test]
fn a_students_link_to_anothers_file_is_not_graded_as_theirs() {
    if !have(&["gcc"]) {
        return;
    }
    let class = tempfile::tempdir().unwrap();
    let db = class.path().join("judge.db");
    let students = class.path().join("class");
    let bob = students.join("bob");
    std::fs::create_dir_all(&bob).unwrap();
    std::fs::copy(
        fixtures().join("submissions/sum/AC/sum.c"),
        bob.join("sum.c"),
    )
    .unwrap();
    let mallory = students.join("mallory");
    std::fs::create_dir_all(&mallory).unwrap();
    symlink(bob.join("sum.c"), mallory.join("sum.c")).unwrap();
    // A whole folder that is a link to Bob's.
    symlink(&bob, students.join("eve")).unwrap();
    let output = judge_fixtures()
        .args(["grade", "--class"])
        .arg(&students)
        .args(["sum", "--db"])
        .arg(&db)
        .timeout(JUDGE_DEADLINE)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("bob").contains("AC"), "{stdout}");
    assert!(
        !row("mallory").contains("AC") && row("eve").is_empty(),
        "a link was graded:\n{stdout}"
    );
    assert!(
        stdout.contains("mallory/sum.c: a symbolic link: not graded")
            && stdout.contains("eve: a symbolic link: not followed"),
        "{stdout}"
    );
}

#[test]
fn a_fifo_or_a_device_in_a_submission_holds_nothing_up() {
    if !have(&["gcc"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo_source = dir.path().join("fifo.c");
    mkfifo(&fifo_source);
    let zero_source = dir.path().join("zero.c");
    symlink("/dev/zero", &zero_source).unwrap();
    let with_fifo_header = copy_into(dir.path(), "include_fifo.c");
    mkfifo(&dir.path().join("pipe.h"));
    // `grade` fails the test if the judge does not finish in time.
    let judged = grade(&[fifo_source, zero_source, with_fifo_header]);
    let verdicts: Vec<&str> = judged.verdicts.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(verdicts, ["CE", "CE", "CE"], "{}", judged.output);
    let messages = messages(&judged.json);
    assert!(messages[0].contains("fifo.c is a FIFO"), "{messages:?}");
    assert!(
        messages[1].contains("zero.c is a symbolic link"),
        "{messages:?}"
    );
    assert!(messages[2].contains("pipe.h is a FIFO"), "{messages:?}");

    // A student's FIFO is listed, not graded, and holds no class up.
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("trent")).unwrap();
    mkfifo(&class.join("trent/sum.c"));
    let output = judge_fixtures()
        .args(["grade", "--class"])
        .arg(&class)
        .args(["sum", "--db"])
        .arg(dir.path().join("judge.db"))
        .timeout(JUDGE_DEADLINE)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("trent/sum.c: a FIFO: not a regular file, not graded"),
        "{stdout}"
    );
}

#[test]
fn a_students_name_cannot_forge_a_gradebook_row() {
    if !have(&["gcc"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let forger = class.join("zed\nmallory  AC\x1b[2K");
    std::fs::create_dir_all(&forger).unwrap();
    std::fs::copy(
        fixtures().join("submissions/sum/CE/syntax.c"),
        forger.join("sum.c"),
    )
    .unwrap();
    let output = judge_fixtures()
        .args(["grade", "--class"])
        .arg(&class)
        .args(["sum", "--db"])
        .arg(dir.path().join("judge.db"))
        .timeout(JUDGE_DEADLINE)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !stdout.lines().any(|l| l.starts_with("mallory")),
        "a forged row:\n{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "a raw escape:\n{stdout}");
    assert!(stdout.contains("zed\\nmallory  AC\\x1b[2K"), "{stdout}");
}

/// A copy of the `nimmove` Kattis package whose `wrong_answer/` holds the
/// hostile build scripts named.
fn package_with_builds(builds: &[&str]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let package = root.path().join("problems/nimmove");
    copy_dir(&fixtures().join("ecosystem/problems/nimmove"), &package);
    for build in builds {
        let folder = package.join("submissions/wrong_answer").join(build);
        copy_dir(&program("builds").join(build), &folder);
    }
    root
}

/// `judge verify nimmove` in `root`: (submission, verdict, message) of the
/// hostile builds.
fn verify_builds(root: &Path) -> Vec<(String, String, String)> {
    let report = root.join("verify.json");
    // The root's own cache, which the test reads and alters.
    let output = judge_at(root)
        .env_remove(SHARED_CACHE_VAR)
        .args(["verify", "nimmove", "--json"])
        .arg(&report)
        .timeout(JUDGE_DEADLINE)
        .output()
        .unwrap();
    let json = read_json(&report);
    assert_eq!(json["interrupted"], false, "{output:?}");
    json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| {
            s["submission"]
                .as_str()
                .unwrap()
                .starts_with("wrong_answer/")
        })
        .map(|s| {
            (
                s["submission"].as_str().unwrap().to_string(),
                s["verdict"].as_str().unwrap().to_string(),
                s["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// A file of the host's that a build tries to make the judge write.
struct Victim(PathBuf);

impl Victim {
    fn new(path: &str) -> Victim {
        std::fs::write(path, "precious\n").unwrap();
        Victim(PathBuf::from(path))
    }

    fn intact(&self) -> bool {
        std::fs::read_to_string(&self.0).is_ok_and(|text| text == "precious\n")
    }
}

impl Drop for Victim {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_build_cannot_lead_the_judge_to_write_elsewhere() {
    // The nimmove package's programs need them.
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    // The fixtures' build scripts name these fixed paths: another test
    // process on this machine (another checkout's suite) must not remove
    // them under this one, so the two take turns.
    let turn = std::fs::File::create("/var/tmp/gj-hostile-victim.lock").unwrap();
    turn.lock().unwrap();
    let ok = Victim::new("/var/tmp/gj-hostile-victim-ok");
    let error = Victim::new("/var/tmp/gj-hostile-victim-error");
    let root = package_with_builds(&["plant-ok", "plant-error"]);
    let builds = verify_builds(root.path());
    assert!(ok.intact(), "the judge wrote through the link named `ok`");
    assert!(
        error.intact(),
        "the judge wrote the compile error through a link"
    );
    let verdict = |name: &str| {
        builds
            .iter()
            .find(|(s, ..)| s.ends_with(name))
            .map(|(_, v, m)| (v.clone(), m.clone()))
            .unwrap()
    };
    assert_eq!(verdict("plant-ok").0, "WA", "{builds:?}");
    assert_eq!(verdict("plant-error").0, "CE", "{builds:?}");
    assert!(verdict("plant-error").1.contains("planted"), "{builds:?}");
}

/// Every file under `dir` with its size.
fn files_under(dir: &Path) -> Vec<(PathBuf, u64)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), e.metadata().unwrap().len()))
        .collect()
}

#[test]
fn builds_are_bounded_and_a_stopped_compile_is_remembered() {
    // The nimmove package's programs need them.
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    let root = package_with_builds(&["fill", "flood"]);
    let huge = root
        .path()
        .join("problems/nimmove/submissions/wrong_answer/huge_array.c");
    std::fs::copy(program("huge_array.c"), &huge).unwrap();
    let builds = verify_builds(root.path());
    for (submission, verdict, _) in &builds {
        if !submission.ends_with("take_one.py") {
            assert_eq!(verdict, "CE", "{builds:?}");
        }
    }
    let message = |name: &str| {
        builds
            .iter()
            .find(|(s, ..)| s.ends_with(name))
            .map(|(.., m)| m.clone())
            .unwrap()
    };
    assert!(
        message("huge_array.c").contains("the build left more than 64"),
        "{builds:?}"
    );
    assert!(message("flood").contains("stopped"), "{builds:?}");
    // Nothing large stays: not the 100 MB program, not the 600 MB.
    let cache = root.path().join("target/judge-cache");
    let total: u64 = files_under(&cache).iter().map(|(_, size)| size).sum();
    assert!(
        total < 32 << 20,
        "the cache holds {total} bytes: {:?}",
        files_under(&cache)
    );

    // The stopped compile is remembered: its record, changed here, is
    // what the next verify reports, without compiling again.
    let record = std::fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("outcome"))
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("stopped")))
        .expect("a cached stopped compile");
    std::fs::write(&record, "outcome = \"stopped\"\nmessage = \"remembered\"\n").unwrap();
    let again = verify_builds(root.path());
    let flood = again.iter().find(|(s, ..)| s.ends_with("flood")).unwrap();
    assert_eq!((flood.1.as_str(), flood.2.as_str()), ("CE", "remembered"));
}

#[test]
fn a_tests_files_are_in_the_working_folder_at_every_isolation_level() {
    if !have(&["gcc"]) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let package = root.path().join("problems/files-here");
    let secret = package.join("data/secret");
    std::fs::create_dir_all(secret.join("1.files/sub")).unwrap();
    std::fs::write(
        package.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: Files here\nuuid: 0e4f3f4e-9c55-4a41-9d1b-8f1e7a2b6c10\nlimits:\n  time_limit: 1\n",
    )
    .unwrap();
    std::fs::write(secret.join("1.in"), "").unwrap();
    std::fs::write(secret.join("1.ans"), "notes.txt\nsub\n").unwrap();
    std::fs::write(secret.join("1.files/notes.txt"), "read me").unwrap();
    std::fs::write(secret.join("1.files/sub/more.txt"), "and me").unwrap();
    let accepted = package.join("submissions/accepted");
    std::fs::create_dir_all(&accepted).unwrap();
    std::fs::copy(program("list_folder.c"), accepted.join("list_folder.c")).unwrap();
    for isolation in ["full", "limits"] {
        let output = judge_at(root.path())
            .args(["--isolation", isolation, "test", "files-here"])
            .arg(program("list_folder.c"))
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("AC  secret/1"),
            "--isolation {isolation}:\n{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
