//! `judge serve` on a PostgreSQL store: two servers share one store, so
//! the web side scales past one process. A submission judged by one is
//! seen, with its verdict, through the other, and the other's open pages
//! are told live (LISTEN/NOTIFY).

use crate::postgres_server::postgres;
use crate::serve::follow_events;
use crate::serve_server::{JUDGE_DEADLINE, Server, Site, submitted_id};

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
