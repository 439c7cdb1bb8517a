//! `grade --class DIR --deadline WHEN`: real Git repositories made with
//! `git` and fixed commit dates, before and after the deadline; a folder
//! that is not a repository goes by file times. The students' checkouts
//! are never changed, and their hooks and configured programs never run.

use std::process::{Command, Stdio};

use wait_timeout::ChildExt;

use super::*;

const DEADLINE: &str = "2026-12-01T23:59Z";

/// `git ARGS` in `dir`, with no user or system configuration, the given
/// dates, and a 30 s bound; its stdout.
fn git(dir: &Path, date: &str, args: &[&str]) -> String {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Student")
        .env("GIT_AUTHOR_EMAIL", "student@school.edu")
        .env("GIT_COMMITTER_NAME", "Student")
        .env("GIT_COMMITTER_EMAIL", "student@school.edu")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).ok();
        text
    });
    let status = match child.wait_timeout(Duration::from_secs(30)).unwrap() {
        Some(status) => status,
        None => {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("git {args:?} took over 30 s");
        }
    };
    assert!(status.success(), "git {args:?} failed");
    reader.join().unwrap()
}

fn commit(repo: &Path, date: &str, files: &[(&str, &Path)]) -> String {
    for (name, from) in files {
        std::fs::copy(from, repo.join(name)).unwrap();
    }
    git(repo, date, &["add", "-A"]);
    git(repo, date, &["commit", "-q", "-m", "work"]);
    git(repo, date, &["rev-parse", "HEAD"]).trim().to_string()
}

fn set_mtime(path: &Path, rfc3339: &str) {
    let time: std::time::SystemTime = humantime::parse_rfc3339(rfc3339).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

/// ann: a repository with a wrong sum before the deadline and a right one
/// after (and a wrong one uncommitted), a committed link and folder, and
/// a hook and an fsmonitor program that would leave a mark if run. ben: a
/// repository whose only commit is 30 s late. cid: a plain folder, sum
/// before the deadline and guess three days and an hour after.
fn class_with_repositories(dir: &Path) -> (PathBuf, String, PathBuf) {
    let class = dir.join("class");
    let fixture = class_dir();
    let (ann, ben, cid) = (class.join("ann"), class.join("ben"), class.join("cid"));
    for folder in [&ann, &ben, &cid] {
        std::fs::create_dir_all(folder).unwrap();
    }
    git(&ann, DEADLINE, &["init", "-q", "-b", "main"]);
    std::os::unix::fs::symlink("/etc/passwd", ann.join("guess.py")).unwrap();
    std::fs::create_dir(ann.join("old")).unwrap();
    std::fs::copy(fixture.join("alice/sum.py"), ann.join("old/sum.py")).unwrap();
    let before = commit(
        &ann,
        "2026-11-30T10:00:00Z",
        &[("sum.py", &fixture.join("erin/sum.py"))],
    );
    commit(
        &ann,
        "2026-12-02T10:00:00Z",
        &[("sum.py", &fixture.join("alice/sum.py"))],
    );
    std::fs::write(ann.join("sum.py"), "print(\"uncommitted\")\n").unwrap();
    let mark = dir.join("hook-ran");
    let hook = format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\n", mark.display());
    for name in [
        "post-checkout",
        "pre-commit",
        "post-index-change",
        "reference-transaction",
    ] {
        let path = ann.join(".git/hooks").join(name);
        std::fs::write(&path, &hook).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let config = ann.join(".git/config");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "[core]\n\tfsmonitor = {}\n",
        ann.join(".git/hooks/pre-commit").display()
    ));
    std::fs::write(&config, text).unwrap();

    git(&ben, DEADLINE, &["init", "-q", "-b", "main"]);
    commit(
        &ben,
        "2026-12-01T23:59:30Z",
        &[("sum.py", &fixture.join("alice/sum.py"))],
    );

    std::fs::copy(fixture.join("alice/sum.py"), cid.join("sum.py")).unwrap();
    std::fs::copy(fixture.join("alice/guess.py"), cid.join("guess.py")).unwrap();
    set_mtime(&cid.join("sum.py"), "2026-11-20T08:00:00Z");
    set_mtime(&cid.join("guess.py"), "2026-12-05T00:59:00Z");
    (class, before, mark)
}

/// What a student's checkout looks like: HEAD, the index and work tree's
/// status, and the file's bytes.
fn checkout_state(repo: &Path) -> (String, String, Vec<u8>) {
    (
        git(repo, DEADLINE, &["rev-parse", "HEAD"]),
        // (Without running the repository's fsmonitor program or hooks, as git would.)
        git(
            repo,
            DEADLINE,
            &[
                "-c",
                "core.fsmonitor=false",
                "-c",
                "core.hooksPath=/dev/null",
                "status",
                "--porcelain",
                "--ignored",
            ],
        ),
        std::fs::read(repo.join("sum.py")).unwrap(),
    )
}

#[test]
fn a_deadline_grades_each_repository_at_its_last_commit_before_it() {
    if which("git").is_none() {
        skipped("git");
        return;
    }
    if class_tools_missing() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (class, before, mark) = class_with_repositories(dir.path());
    let ann = class.join("ann");
    let state = checkout_state(&ann);
    assert!(
        !mark.exists(),
        "the hooks were set up after the commits: {:?}",
        std::fs::read_to_string(&mark)
    );
    let (db, csv) = (dir.path().join("judge.db"), dir.path().join("grades.csv"));
    let graded = grade(
        &class,
        &db,
        &["--deadline", DEADLINE, "--csv", csv.to_str().unwrap()],
    )
    .success();
    let out = stdout_of(&graded);
    assert!(
        out.contains("deadline 2026-12-01T23:59:00+00:00: 2 Git repositories"),
        "{out}"
    );
    assert!(
        out.contains("graded by their files' modification times: cid"),
        "{out}"
    );
    assert!(out.contains("ann/guess.py: a symbolic link"), "{out}");
    assert!(out.contains("ann/old: a folder"), "{out}");
    assert!(
        out.contains("ben: no commit at or before the deadline"),
        "{out}"
    );
    assert!(
        out.contains("cid/guess.py: modified after the deadline"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "\u{feff}student,guess,guess points,sum,sum points,solved\r\n\
         ann,no submission,0,RE,0,0\r\n\
         ben,no submission,0,no submission,0,0\r\n\
         cid,no submission,0,AC,1,1\r\n"
    );
    // The commit graded is recorded; the checkout is as it was; nothing ran.
    let store = harness::store::Store::open(&db).unwrap();
    let run = store.runs().unwrap().last().unwrap().clone();
    assert_eq!(run.deadline.as_deref(), Some("2026-12-01T23:59:00+00:00"));
    let book = store.gradebook(run.id).unwrap();
    let ann_sum = book
        .submissions()
        .find(|(s, p, _)| *s == "ann" && p.id == "sum")
        .unwrap()
        .2;
    let handin = ann_sum.handin.as_ref().unwrap();
    assert_eq!(handin.commit.as_deref(), Some(before.as_str()));
    assert_eq!(handin.at, "2026-11-30T10:00:00Z");
    assert_eq!(handin.late_seconds, Some(-(37 * 3600 + 59 * 60)));
    let cid_sum = book
        .submissions()
        .find(|(s, p, _)| *s == "cid" && p.id == "sum")
        .unwrap()
        .2;
    assert_eq!(cid_sum.handin.as_ref().unwrap().from, "file time");
    assert_eq!(
        checkout_state(&ann),
        state,
        "the student's checkout changed"
    );
    assert!(
        !mark.exists(),
        "a hook or configured program of the student ran"
    );

    // Late work accepted: HEAD of each repository, a penalty per started day.
    let graded = grade(
        &class,
        &db,
        &[
            "--deadline",
            DEADLINE,
            "--late",
            "10%/day",
            "--late-cap",
            "30%",
            "--csv",
            csv.to_str().unwrap(),
        ],
    )
    .success();
    let out = stdout_of(&graded);
    assert!(
        out.contains("late work accepted (10%/day, at most 30%)"),
        "{out}"
    );
    let late_csv = "\u{feff}student,guess,guess points,sum,sum points,solved,total (of 2)\r\n\
         ann,no submission,0,AC,0.9,1,0.9\r\n\
         ben,no submission,0,AC,0.9,1,0.9\r\n\
         cid,AC,0.7,AC,1,2,1.7\r\n";
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), late_csv);
    // The same rule from the grading policy instead of --late.
    let policy = dir.path().join("grading.toml");
    std::fs::write(&policy, "late = \"10%/day\"\nlate-cap = \"30%\"\n").unwrap();
    let graded = grade(
        &class,
        &db,
        &[
            "--deadline",
            DEADLINE,
            "--policy",
            policy.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ],
    )
    .success();
    assert!(
        stdout_of(&graded).contains("late work accepted (10%/day, at most 30%)"),
        "{}",
        stdout_of(&graded)
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), late_csv);
    assert_eq!(
        checkout_state(&ann),
        state,
        "the student's checkout changed"
    );
    assert!(
        !mark.exists(),
        "a hook or configured program of the student ran"
    );
}

/// The hand-ins of a grading against a deadline are kept in a PostgreSQL
/// store as in a file, also when `judge worker`s judge the class from the
/// queue (the grading fills them in once every job is done).
#[test]
fn a_deadline_grading_through_the_queue_keeps_its_handins_in_postgres() {
    if which("git").is_none() {
        skipped("git");
        return;
    }
    if class_tools_missing() {
        return;
    }
    let Some(server) = crate::postgres_server::postgres() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (class, before, _) = class_with_repositories(dir.path());
    let url = server.database("deadline");
    let mut worker = {
        let log = std::fs::File::create(dir.path().join("worker.log")).unwrap();
        let mut command = Command::new(judge_binary());
        command
            .args(["--color", "never", "--root"])
            .arg(fixtures())
            .args(["-j", "1", "worker", "sum", "guess", "--db", &url])
            .args(["--name", "w1"])
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        Background::start(&mut command)
    };
    let csv = dir.path().join("grades.csv");
    let graded = grade(
        &class,
        Path::new(&url),
        &[
            "--queue",
            "--deadline",
            DEADLINE,
            "--csv",
            csv.to_str().unwrap(),
        ],
    );
    let said = format!(
        "{}{}",
        stdout_of(&graded),
        String::from_utf8_lossy(&graded.get_output().stderr)
    );
    worker.signal(libc::SIGTERM);
    worker.wait_within(Duration::from_secs(60));
    graded.success();
    assert!(said.contains("by the workers"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "\u{feff}student,guess,guess points,sum,sum points,solved\r\n\
         ann,no submission,0,RE,0,0\r\n\
         ben,no submission,0,no submission,0,0\r\n\
         cid,no submission,0,AC,1,1\r\n",
        "{said}"
    );
    let store = harness::store::Store::open(Path::new(&url)).unwrap();
    let run = store.runs().unwrap().last().unwrap().clone();
    assert_eq!(run.deadline.as_deref(), Some("2026-12-01T23:59:00+00:00"));
    let book = store.gradebook(run.id).unwrap();
    let handin = |student: &str| {
        book.submissions()
            .find(|(s, p, _)| *s == student && p.id == "sum")
            .and_then(|(_, _, s)| s.handin.clone())
            .unwrap_or_else(|| panic!("no hand-in stored for {student}: {said}"))
    };
    let ann = handin("ann");
    assert_eq!(ann.commit.as_deref(), Some(before.as_str()));
    assert_eq!(ann.at, "2026-11-30T10:00:00Z");
    assert_eq!(ann.late_seconds, Some(-(37 * 3600 + 59 * 60)));
    assert_eq!(handin("cid").from, "file time");
}
