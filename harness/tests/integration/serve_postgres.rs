//! `judge serve` on a PostgreSQL store: two servers share one store, so
//! the web side scales past one process. A submission judged by one is
//! seen, with its verdict, through the other.

use crate::postgres_server::postgres;
use crate::serve_server::{Server, Site, submitted_id};

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
    let mut on_first = first.client();
    let login = on_first.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let id = submitted_id(&on_first.submit("sum", &site.submission("sum/AC/sum.rs")));
    let (verdict, _) = on_first.verdict(id);
    assert_eq!(verdict, "AC");
    // The same account, the same submission, through the other server.
    let mut on_second = second.client();
    let login = on_second.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let (verdict, page) = on_second.verdict(id);
    assert_eq!(verdict, "AC", "{}", page.body);
}
