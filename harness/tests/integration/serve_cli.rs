//! The verbs around a real `judge serve`: `judge report` on the store of
//! several sessions, and what a session leaves beside `problems/`.

use crate::serve_server::{Server, Site, submitted_id};

const USERS: &str =
    "user,display name,team,role\nalice,Alice,red,participant\nteacher,Teacher,,jury\n";

/// `judge report ARGS` on the site's store: (exit code, stdout, stderr).
fn report(site: &Site, args: &[&str]) -> (i32, String, String) {
    let output = crate::support::judge_at(site.root())
        .arg("report")
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn report_says_which_session_it_shows_and_picks_one_by_name() {
    let site = Site::new(USERS);
    let first = site.write("lab-1.toml", "title = \"Lab 1\"\nproblems = [\"sum\"]\n");
    let server = Server::start(&site, &["--session", first.to_str().unwrap()]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.py")));
    assert_eq!(alice.verdict(id).0, "AC");
    drop(server);
    let second = site.write("lab-2.toml", "title = \"Lab 2\"\nproblems = [\"sum\"]\n");
    drop(Server::start(
        &site,
        &["--session", second.to_str().unwrap()],
    ));

    // Unasked, the latest session: said so, with the other one and how to pick it.
    let (code, said, _) = report(&site, &[]);
    assert_eq!(code, 0, "{said}");
    let mut lines = said.lines();
    let first_line = lines.next().unwrap();
    assert!(
        first_line.starts_with("run 2: session `lab-2` (\"Lab 2\") of judge serve, started 20"),
        "{said}"
    );
    assert_eq!(
        lines.next(),
        Some("other sessions: lab-1 (run 1); pick one with --session NAME"),
        "{said}"
    );
    assert_eq!(
        lines.next(),
        Some("run 2 holds no submission yet"),
        "{said}"
    );

    // By name: the first session's gradebook.
    let (code, said, _) = report(&site, &["--session", "lab-1"]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.starts_with("run 1: session `lab-1` (\"Lab 1\")"),
        "{said}"
    );
    assert!(
        !said.contains("other sessions"),
        "asked for, no hint: {said}"
    );
    let alice_row = said.lines().find(|l| l.starts_with("alice")).unwrap_or("");
    assert!(alice_row.contains("AC"), "{said}");

    // An unknown name is a usage error that lists the sessions.
    let (code, said, error) = report(&site, &["--session", "lab-3"]);
    assert_eq!(code, 2, "{said}{error}");
    assert!(
        error.contains("no session `lab-3` in ")
            && error.contains("its sessions: lab-1 (run 1), lab-2 (run 2)"),
        "{error}"
    );
}

/// `git ARGS` in `dir`, which must succeed; its stdout.
fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let mut command = std::process::Command::new("git");
    command.current_dir(dir).args(args);
    let output = crate::support::bounded(command)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_session_leaves_no_file_that_git_would_commit() {
    if !crate::support::have(&["git"]) {
        return;
    }
    // The walkthrough in a checkout: accounts imported (their passwords
    // beside the CSV), a server running on the store beside problems/.
    let site = Site::new(USERS);
    let gitignore = crate::support::workspace_root().join(".gitignore");
    std::fs::copy(gitignore, site.root().join(".gitignore")).unwrap();
    git(site.root(), &["init", "-q"]);
    let _server = Server::start(&site, &[]);
    for written in [
        "users-passwords.csv",
        "judge.db",
        "judge.db-wal",
        "judge.db-shm",
    ] {
        assert!(site.root().join(written).exists(), "no {written}");
    }
    let status = git(
        site.root(),
        &["status", "--porcelain", "--untracked-files=all"],
    );
    let theirs: Vec<&str> = status
        .lines()
        .filter(|line| {
            ![
                "?? .gitignore",
                "?? users.csv",
                "?? problems/",
                "?? submissions/",
            ]
            .iter()
            .any(|own| line.starts_with(own))
        })
        .collect();
    assert!(theirs.is_empty(), "not ignored: {theirs:?}");
}
