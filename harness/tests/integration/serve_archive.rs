//! A served session's archive: its clarifications beside its gradebook,
//! downloaded by the jury (`/jury/clarifications.csv`, a section of
//! `/jury/gradebook.html`) and written by `judge report` from the store.

use std::time::Duration;

use crate::serve_server::{Client, Server, Site};

const USERS: &str = "user,display name,team,role\n\
                     alice,Alice Liddell,red,participant\n\
                     bob,Bob Builder,blue,participant\n\
                     teacher,The Teacher,,jury\n";

fn logged_in(site: &Site, server: &Server, user: &str) -> Client {
    let mut client = server.client();
    client.login(user, &site.password(user));
    client
}

fn ask(client: &mut Client, problem: &str, text: &str) {
    let csrf = client.csrf();
    let asked = client.post_form(
        "/clarifications",
        &[("csrf", &csrf), ("problem", problem), ("text", text)],
    );
    assert_eq!(asked.status, 303, "{}", asked.body);
}

/// The rows of a CSV the judge wrote (byte order mark, CRLF), the header
/// first; no field of these holds a line break.
fn rows(csv: &str) -> Vec<String> {
    let csv = csv.strip_prefix('\u{feff}').expect("a byte order mark");
    csv.split("\r\n")
        .filter(|l| !l.is_empty())
        .map(|l| {
            // The time leads each row and differs run to run.
            l.split_once(',').map_or(l, |(_, rest)| rest).to_string()
        })
        .collect()
}

/// alice asks about sum (a formula-like text) and is answered; bob asks
/// in general and is not; the jury announces a formula-like text.
fn a_session_with_questions(site: &Site, server: &Server) {
    let mut alice = logged_in(site, server, "alice");
    let mut bob = logged_in(site, server, "bob");
    ask(&mut alice, "sum", "=1+1");
    ask(&mut bob, "", "May I use Python?");
    let mut teacher = logged_in(site, server, "teacher");
    let csrf = teacher.csrf();
    for fields in [
        [("reply_to", "1"), ("to", "asker"), ("text", "Yes: 2.")],
        [
            ("reply_to", ""),
            ("to", "everybody"),
            ("text", "@all: ends at noon"),
        ],
    ] {
        let mut form = vec![("csrf", csrf.as_str())];
        form.extend(fields.iter().filter(|(_, v)| !v.is_empty()));
        let sent = teacher.post_form("/jury/clarifications", &form);
        assert_eq!(sent.status, 303, "{}", sent.body);
    }
}

/// The rows without their first and last field (the times).
const EXPECTED: [&str; 4] = [
    "from,to,problem,question,answer,answered by,",
    "alice,alice,sum,'=1+1,Yes: 2.,teacher,",
    "bob,jury,,May I use Python?,,,",
    "jury,everybody,,,'@all: ends at noon,teacher,",
];

/// `rows` with each "answered at" time cut off (it ends the row).
fn without_answer_times(rows: &[String]) -> Vec<String> {
    rows.iter()
        .map(|r| r[..=r.rfind(',').unwrap()].to_string())
        .collect()
}

#[test]
fn the_jury_downloads_the_sessions_clarifications_beside_its_gradebook() {
    let site = Site::new(USERS);
    let session = site.write("lab5.toml", "title = \"Lab 5\"\nproblems = [\"sum\"]\n");
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    a_session_with_questions(&site, &server);
    let mut teacher = logged_in(&site, &server, "teacher");
    assert!(
        teacher
            .get("/jury")
            .body
            .contains("href=\"/jury/clarifications.csv\"")
    );
    let download = teacher.get("/jury/clarifications.csv");
    assert_eq!(download.status, 200, "{}", download.body);
    assert!(download.content_type.starts_with("text/csv"));
    assert_eq!(
        download.header("content-disposition"),
        Some("attachment; filename=\"lab5-clarifications.csv\"")
    );
    let found = rows(&download.body);
    assert_eq!(
        download.body.split("\r\n").next(),
        Some("\u{feff}time,from,to,problem,question,answer,answered by,answered at")
    );
    // Every answered line ends with when it was answered.
    assert!(
        found[1].ends_with('Z') && found[3].ends_with('Z'),
        "{found:?}"
    );
    assert_eq!(without_answer_times(&found), EXPECTED);

    let page = teacher.get("/jury/gradebook.html").body;
    let section = &page[page.find("id=\"clarifications\"").expect("a section")..];
    assert!(
        section.contains("<td>=1+1</td>") && section.contains("<td>May I use Python?</td>"),
        "{section}"
    );
    let mut alice = logged_in(&site, &server, "alice");
    assert_eq!(alice.get("/jury/clarifications.csv").status, 403);
}

#[test]
fn judge_report_writes_a_sessions_clarifications_beside_the_gradebook() {
    let site = Site::new(USERS);
    let session = site.write("lab6.toml", "title = \"Lab 6\"\nproblems = [\"sum\"]\n");
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    a_session_with_questions(&site, &server);
    drop(server);
    let archive = site.root().join("archive");
    std::fs::create_dir(&archive).unwrap();
    let out = crate::support::judge_at(site.root())
        .args(["report", "--session", "lab6", "--csv"])
        .arg(archive.join("grades.csv"))
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        said.contains("3 clarifications written to") && said.contains("clarifications.csv"),
        "{said}"
    );
    let csv = std::fs::read_to_string(archive.join("clarifications.csv")).unwrap();
    assert_eq!(without_answer_times(&rows(&csv)), EXPECTED);

    // Asked for the web page alone: the file beside it, and a section in it.
    std::fs::remove_file(archive.join("clarifications.csv")).unwrap();
    crate::support::judge_at(site.root())
        .args(["report", "--session", "lab6", "--html"])
        .arg(archive.join("grades.html"))
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let html = std::fs::read_to_string(archive.join("grades.html")).unwrap();
    assert!(html.contains("id=\"clarifications\""), "{html}");
    assert!(archive.join("clarifications.csv").is_file());
}
