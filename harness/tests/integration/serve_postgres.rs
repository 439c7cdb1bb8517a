//! `judge serve` on a PostgreSQL store: two servers share one store, so
//! the web side scales past one process. A submission judged by one is
//! seen, with its verdict, through the other, and the other's open pages
//! are told live (LISTEN/NOTIFY).

use crate::postgres_server::postgres;
use crate::serve::follow_events;
use crate::serve_server::{JUDGE_DEADLINE, Server, Site, submitted_id};
use crate::support::{Background, judge_binary};

const USERS: &str = "user,display name,team,role\nalice,Alice,,participant\n";

#[test]
fn two_servers_share_one_postgres_store() {
    let Some(server) = postgres() else {
        return;
    };
    let url = server.database("serve");
    let site = Site::with_store(USERS, Some(&url));
    let first = Server::start(&site, &["--db", &url]);
    let second = Server::start(&site, &["--db", &url]);
    // Alice follows the second server's live events...
    let mut on_second = second.client();
    let login = on_second.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let cookie = login.header("set-cookie").unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let events = follow_events(&second.url, cookie, "\"verdict\":\"AC\"");
    std::thread::sleep(std::time::Duration::from_millis(300));
    // ...and submits through the first, which judges it.
    let mut on_first = first.client();
    let login = on_first.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let id = submitted_id(&on_first.submit("sum", &site.submission("sum/AC/sum.rs")));
    let (verdict, _) = on_first.verdict(id);
    assert_eq!(verdict, "AC");
    let (verdict, page) = on_second.verdict(id);
    assert_eq!(verdict, "AC", "{}", page.body);
    let seen = events.recv_timeout(JUDGE_DEADLINE).unwrap();
    assert!(
        seen.contains(&format!("\"entry\":{id}")) && seen.contains("\"verdict\":\"AC\""),
        "the second server's events: {seen}"
    );

    // The jury's page of the store's workers, its names escaped; not
    // for participants.
    server
        .client(url.rsplit('/').next().unwrap())
        .execute(
            "INSERT INTO workers (name, machine, judge_version, isolation, threads, judged, \
             state, started_at, heartbeat_at) VALUES ('<b>w1</b>', 'lab-3', 'v', 'full', 2, 7, \
             'running', 0, 0)",
            &[],
        )
        .unwrap();
    assert_eq!(on_second.get("/jury/workers").status, 403);
    let mut jury = second.client();
    let password = first
        .jury_password
        .clone()
        .expect("the first start made the jury");
    assert_eq!(jury.login("jury", &password).status, 303);
    let page = jury.get("/jury/workers");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("&#60;b&#62;w1")
            && !page.body.contains("<b>w1")
            && page.body.contains("lab-3"),
        "{}",
        page.body
    );
}

/// `judge serve --workers 0` only receives: its submissions wait on the
/// store's queue until a `judge worker` (another process, as on another
/// machine) judges them, and the server's pages are told the verdict.
#[test]
fn a_server_without_judges_leaves_its_submissions_to_workers() {
    let Some(server) = postgres() else {
        return;
    };
    let url = server.database("serve_workers");
    let site = Site::with_store(USERS, Some(&url));
    let web = Server::start(&site, &["--db", &url, "--workers", "0"]);
    let mut alice = web.client();
    let login = alice.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let cookie = login.header("set-cookie").unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let events = follow_events(&web.url, cookie, "\"verdict\":\"WA\"");
    let right = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));

    // No worker yet: the submission waits as a job naming it.
    let mut db = server.client(url.rsplit('/').next().unwrap());
    let deadline = std::time::Instant::now() + JUDGE_DEADLINE;
    let state: String = loop {
        let row = db
            .query_opt("SELECT state FROM jobs WHERE entry_id = $1", &[&right])
            .unwrap();
        if let Some(row) = row {
            break row.get(0);
        }
        assert!(std::time::Instant::now() < deadline, "no job for {right}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(state, "queued");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let page = alice.get(&format!("/submissions/{right}"));
    assert!(
        crate::serve_server::status_of(&page.body).contains("queued"),
        "judged with no worker: {}",
        page.body
    );

    let log = site.root().join("worker.log");
    let _worker = Background::start(
        std::process::Command::new(judge_binary())
            .args(["--color", "never", "--root"])
            .arg(site.root())
            .args(["-j", "1", "worker", "--db", &url, "--name", "lab-1"])
            .stdin(std::process::Stdio::null())
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::process::Stdio::inherit()),
    );
    let (verdict, page) = alice.verdict(right);
    assert_eq!(verdict, "AC", "{}", page.body);
    // A second one, submitted while the worker waits, wakes it.
    let wrong = submitted_id(&alice.submit("sum", &site.submission("sum/WA/off_by_one.rs")));
    let (verdict, page) = alice.verdict(wrong);
    assert_eq!(verdict, "WA", "{}", page.body);
    let seen = events.recv_timeout(JUDGE_DEADLINE).unwrap();
    assert!(
        seen.contains(&format!("\"entry\":{wrong}")),
        "the server's live events: {seen}"
    );
    // Each judged once, by the worker, and recorded in the session's run.
    let judged: Vec<(i64, String)> = db
        .query(
            "SELECT j.entry_id, s.worker FROM judgings j JOIN submissions s \
             ON s.id = j.submission_id ORDER BY j.entry_id",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    assert_eq!(
        judged,
        vec![(right, "lab-1".to_string()), (wrong, "lab-1".to_string())]
    );
}

/// On SQLite the server is the only judge: `--workers 0` is refused with
/// what to do instead.
#[test]
fn a_server_without_judges_needs_a_shared_store() {
    let site = Site::new(USERS);
    let out = crate::support::judge_at(site.root())
        .args(["serve", "--bind", "127.0.0.1:0", "--workers", "0"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure();
    let said = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        said.contains("--workers 0") && said.contains("postgres://"),
        "{said}"
    );
}
