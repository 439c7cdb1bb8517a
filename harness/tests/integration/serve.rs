//! `judge serve`: a real server on a loopback port with a fresh store,
//! driven over HTTP as a browser without script would (and the SSE stream
//! as the live-update script reads it).

use std::io::BufRead;
use std::time::Duration;

use crate::serve_server::{Server, Site, hidden, submitted_id};

const USERS: &str = "user,display name,team,role\n\
                     alice,Alice Liddell,red,participant\n\
                     bob,Bob <b>Bold</b>,blue,participant\n\
                     teacher,The Teacher,,jury\n";

const SESSION: &str = "title = \"Lab 3\"\nproblems = [\"sum\", \"guess\"]\n\
                       feedback = \"tests\"\n[limits]\nsource = \"4KiB\"\n\
                       submissions-per-minute = 5\n";

fn lab() -> (Site, Server) {
    let site = Site::new(USERS);
    let session = site.write("lab3.toml", SESSION);
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    (site, server)
}

/// The live events of a logged-in client, read on a thread until `until`
/// appears (or the deadline passes); what it read.
pub fn follow_events(
    url: &str,
    cookie: String,
    until: &'static str,
) -> std::sync::mpsc::Receiver<String> {
    let (send, receive) = std::sync::mpsc::channel();
    let url = format!("{url}/events");
    std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .proxy(None)
            .timeout_global(Some(crate::serve_server::JUDGE_DEADLINE))
            .build()
            .into();
        let mut seen = String::new();
        if let Ok(response) = agent.get(&url).header("Cookie", &cookie).call() {
            let reader = std::io::BufReader::new(response.into_body().into_reader());
            for line in reader.lines().map_while(Result::ok) {
                seen.push_str(&line);
                seen.push('\n');
                if line.contains(until) {
                    break;
                }
            }
        }
        let _ = send.send(seen);
    });
    receive
}

#[test]
fn a_participant_submits_wrong_then_right_and_follows_the_verdicts_live() {
    let (site, server) = lab();
    // The first start says each step while it prepares the problems.
    for step in ["preparing 1/2: sum", "preparing 2/2: guess"] {
        assert!(
            server.said.iter().any(|l| l.starts_with(step)),
            "{:?}",
            server.said
        );
    }
    let mut alice = server.client();
    let login = alice.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let cookie = login.header("set-cookie").unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );

    let statement = alice.get("/problems/sum");
    assert_eq!(statement.status, 200);
    assert!(
        statement.body.contains("Sum of pairs"),
        "{}",
        statement.body
    );
    let sample = alice.get("/problems/sum/samples/1.in");
    assert_eq!(sample.status, 200);
    let expected =
        std::fs::read_to_string(site.root().join("problems/sum/data/sample/1.in")).unwrap();
    assert_eq!(sample.body, expected);

    let login_cookie = cookie.split(';').next().unwrap().to_string();
    let events = follow_events(&server.url, login_cookie, "\"verdict\":\"AC\"");
    std::thread::sleep(Duration::from_millis(300));

    let wrong = submitted_id(&alice.submit("sum", &site.submission("sum/WA/off_by_one.rs")));
    let (verdict, page) = alice.verdict(wrong);
    assert_eq!(verdict, "WA");
    // Samples in full, secret tests as a verdict and a time each.
    assert!(
        page.body.contains("sample 1") && page.body.contains("expected"),
        "{}",
        page.body
    );
    let right = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    let (verdict, page) = alice.verdict(right);
    assert_eq!(verdict, "AC");
    assert!(page.body.contains("secret test 4"), "{}", page.body);
    assert!(
        !page.body.contains("secret/04"),
        "a secret test's name is not shown"
    );

    let seen = events
        .recv_timeout(crate::serve_server::JUDGE_DEADLINE)
        .unwrap();
    for status in [
        "\"status\":\"queued\"",
        "\"status\":\"compiling\"",
        "of 5\"",
        "\"verdict\":\"WA\"",
        "\"verdict\":\"AC\"",
    ] {
        assert!(
            seen.contains(status),
            "no {status} in the live events:\n{seen}"
        );
    }

    let board = alice.get("/scoreboard");
    let row = board.body.split("data-user=\"alice\"").nth(1).unwrap();
    let row = &row[..row.find("</tr>").unwrap()];
    // Open practice: solved in two tries, and the first to solve it.
    assert!(row.contains("✓ 2 ★"), "{row}");
    assert!(
        board.body.contains("Bob &#60;b&#62;Bold&#60;/b&#62;"),
        "names are escaped: {}",
        board.body
    );

    let mine = alice.get("/submissions");
    assert_eq!(mine.body.matches("data-entry=").count(), 2);
}

#[test]
fn participants_see_only_their_own_submissions_and_never_secret_data() {
    let (site, server) = lab();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/WA/off_by_one.rs")));
    let (_, page) = alice.verdict(id);
    let secret_input =
        std::fs::read_to_string(site.root().join("problems/sum/data/secret/02.in")).unwrap();
    assert!(
        !page.body.contains(secret_input.trim()),
        "secret input shown"
    );

    let mut bob = server.client();
    bob.login("bob", &site.password("bob"));
    assert_eq!(bob.get(&format!("/submissions/{id}")).status, 404);
    assert_eq!(
        bob.get("/submissions").body.matches("data-entry=").count(),
        0
    );

    let mut nobody = server.client();
    let page = nobody.get(&format!("/submissions/{id}"));
    assert_eq!(
        (page.status, page.location.as_deref()),
        (303, Some("/login"))
    );
    // Only samples can be downloaded, by number; no URL reaches a file.
    for path in [
        "/problems/sum/samples/2.in",
        "/problems/sum/samples/0.in",
        "/problems/sum/samples/1.out",
        "/problems/sum/samples/1.interaction",
        "/problems/sum/samples/..%2F..%2Fproblem.toml",
        "/problems/..%2Fsum/samples/1.in",
        "/static/..%2F..%2FCargo.toml",
    ] {
        assert_eq!(nobody.get(path).status, 404, "{path}");
    }

    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    let page = teacher.get(&format!("/submissions/{id}"));
    assert!(
        page.body.contains("sample/1") && page.body.contains("Rejudge"),
        "the jury sees every test by its name: {}",
        page.body
    );

    // Every page carries the strict policy and no inline script.
    let home = nobody.get("/");
    let policy = home.header("content-security-policy").unwrap();
    assert!(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"));
    assert!(!home.body.contains("<script>"));
}

#[test]
fn forms_without_their_csrf_token_are_refused() {
    let (site, server) = lab();
    let mut alice = server.client();
    // A login form posted without the token its cookie goes with.
    let refused = alice.post_form(
        "/login",
        &[
            ("csrf", "forged"),
            ("username", "alice"),
            ("password", &site.password("alice")),
        ],
    );
    assert_eq!(refused.status, 403);
    alice.login("alice", &site.password("alice"));
    let source = std::fs::read(site.submission("sum/AC/sum.rs")).unwrap();
    let refused = alice.post_multipart(
        "/submit",
        &[("csrf", "0000"), ("problem", "sum"), ("language", "auto")],
        Some(("sum.rs", &source)),
    );
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(alice.post_form("/logout", &[("csrf", "0000")]).status, 403);
    assert_eq!(
        alice
            .get("/submissions")
            .body
            .matches("data-entry=")
            .count(),
        0
    );
    let csrf = alice.csrf();
    let out = alice.post_form("/logout", &[("csrf", &csrf)]);
    assert_eq!(out.status, 303);
    assert_eq!(alice.get("/submissions").status, 303, "logged out");
}

#[test]
fn logins_submissions_and_uploads_are_limited() {
    let (site, server) = lab();
    let mut mallory = server.client();
    // Five tries a minute per user: the limit refills one try every 12 s,
    // so on a slow machine a sixth or seventh may still be let through.
    let mut statuses: Vec<u16> = Vec::new();
    while statuses.last() != Some(&429) && statuses.len() < 30 {
        statuses.push(mallory.login("alice", "guess").status);
    }
    assert_eq!(&statuses[..5], [401; 5], "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    let mut bob = server.client();
    assert_eq!(bob.login("bob", &site.password("bob")).status, 303);

    let big = site.write("big.py", &"#".repeat(5000));
    assert_eq!(bob.submit("sum", &big).status, 413);
    let huge = site.write("huge.py", &"#".repeat(200_000));
    let refused = bob.submit("sum", &huge).status;
    assert!(
        matches!(refused, 413 | 0),
        "{refused}: a 200 kB upload is refused"
    );
    let file = site.submission("sum/WA/off_by_one.rs");
    let statuses: Vec<u16> = (0..6).map(|_| bob.submit("sum", &file).status).collect();
    assert_eq!(statuses, [303, 303, 303, 303, 303, 429]);
}

#[test]
fn a_bad_session_file_names_its_line_and_key() {
    let site = Site::new(USERS);
    // What `judge serve` says on stderr, failing, about this session file.
    let refused = |name: &str, text: &str| {
        let session = site.write(name, text);
        let out = crate::support::judge_at(site.root())
            .args(["serve", "--bind", "127.0.0.1:0", "--session"])
            .arg(&session)
            .timeout(Duration::from_secs(60))
            .assert()
            .failure();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    let stderr = refused(
        "bad.toml",
        "title = \"x\"\nproblems = [\"sum\", \"nope\"]\n",
    );
    assert!(
        stderr.contains("bad.toml:2: key `problems`: no problem `nope`"),
        "{stderr}"
    );
    let stderr = refused("worse.toml", "title = \"x\"\nfeedback = \"everything\"\n");
    assert!(stderr.contains("worse.toml:2: key `feedback`"), "{stderr}");
    let stderr = refused(
        "tongues.toml",
        "title = \"x\"\nlanguages = [\"python\",\n  \"cobol\"]\n",
    );
    assert!(
        stderr.contains("tongues.toml:3: key `languages`: no language `cobol`"),
        "{stderr}"
    );
}

#[test]
fn users_import_writes_passwords_once_and_names_bad_rows() {
    let site = Site::new(USERS);
    let written = site.root().join("users-passwords.csv");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&written).unwrap().permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    // Importing again updates names, makes no password, overwrites nothing.
    let csv = site.write(
        "more.csv",
        "user,display name,role\nalice,Alice L.,participant\ncarol,Carol,student\n",
    );
    let out = crate::support::judge_at(site.root())
        .args(["users", "import"])
        .arg(&csv)
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("1 accounts created, 1 updated"), "{said}");
    let more = std::fs::read_to_string(site.root().join("more-passwords.csv")).unwrap();
    assert!(
        more.contains("carol,") && !more.contains("alice,"),
        "{more}"
    );
    let bad = site.write("bad.csv", "user,role\nzed,jury\n\"x y\",participant\n");
    let out = crate::support::judge_at(site.root())
        .args(["users", "import"])
        .arg(&bad)
        .timeout(Duration::from_secs(60))
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("bad.csv:3: key `user`"), "{stderr}");
    assert!(hidden("<input name=\"a\" value=\"b\">", "a").is_some());
}

/// (entry, status, finished judgings) of every submission in the store.
fn judgings(db: &std::path::Path) -> Vec<(i64, String, i64)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(30)).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT e.id, e.status, (SELECT COUNT(*) FROM judgings j WHERE j.entry_id = e.id \
             AND j.finished_at IS NOT NULL) FROM entries e ORDER BY e.id",
        )
        .unwrap();
    statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

const RELAXED: &str =
    "title = \"Lab\"\nproblems = [\"sum\"]\n[limits]\nsubmissions-per-minute = 100\n";

#[test]
fn a_killed_server_judges_every_queued_submission_once_after_a_restart() {
    let site = Site::new(USERS);
    let session = site.write("lab.toml", RELAXED);
    let args = ["--session", session.to_str().unwrap(), "--jobs", "1"];
    let server = Server::start(&site, &args);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let slow = site.submission("sum/TLE/busy_loop.rs");
    let received: Vec<i64> = (0..5)
        .map(|_| submitted_id(&alice.submit("sum", &slow)))
        .collect();
    let right = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    // Killed while the first is judged and the rest wait.
    let deadline = std::time::Instant::now() + crate::serve_server::JUDGE_DEADLINE;
    while !judgings(&site.db())
        .iter()
        .any(|(_, status, _)| status == "running")
    {
        assert!(std::time::Instant::now() < deadline, "nothing started");
        std::thread::sleep(Duration::from_millis(50));
    }
    server.kill();
    let before = judgings(&site.db());
    let ids: Vec<i64> = before.iter().map(|(id, _, _)| *id).collect();
    assert_eq!(
        ids,
        [received.clone(), vec![right]].concat(),
        "every received submission is stored"
    );
    assert!(
        before
            .iter()
            .filter(|(_, status, _)| status != "judged")
            .count()
            >= 4,
        "{before:?}"
    );

    let server = Server::start(&site, &args);
    assert!(
        server.jury_password.is_none(),
        "the jury account is made once"
    );
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    assert_eq!(alice.verdict(right).0, "AC");
    for id in &received {
        assert_eq!(alice.verdict(*id).0, "TLE");
    }
    let after = judgings(&site.db());
    assert!(
        after
            .iter()
            .all(|(_, status, finished)| status == "judged" && *finished == 1),
        "each judged exactly once: {after:?}"
    );
    drop(server);

    // The session is a run of the store: `judge report` reads it.
    let out = crate::support::judge_at(site.root())
        .args(["report", "--csv"])
        .arg(site.root().join("grades.csv"))
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("alice"), "{said}");
    let csv = std::fs::read_to_string(site.root().join("grades.csv")).unwrap();
    let alice_row = csv.lines().find(|l| l.starts_with("alice")).unwrap();
    assert!(
        alice_row.contains("AC"),
        "the best submission counts: {csv}"
    );
}

#[test]
fn one_participants_twenty_submissions_do_not_hold_back_anothers_first() {
    let site = Site::new(USERS);
    let session = site.write("lab.toml", RELAXED);
    let server = Server::start(
        &site,
        &["--session", session.to_str().unwrap(), "--jobs", "1"],
    );
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let slow = site.submission("sum/TLE/busy_loop.rs");
    let hers: Vec<i64> = (0..8)
        .map(|_| submitted_id(&alice.submit("sum", &slow)))
        .collect();
    let mut bob = server.client();
    bob.login("bob", &site.password("bob"));
    let his = submitted_id(&bob.submit("sum", &site.submission("sum/AC/sum.rs")));
    assert_eq!(bob.verdict(his).0, "AC");
    let conn = rusqlite::Connection::open(site.db()).unwrap();
    let his_judging: i64 = conn
        .query_row(
            "SELECT MIN(id) FROM judgings WHERE entry_id = ?1",
            [his],
            |r| r.get(0),
        )
        .unwrap();
    let hers_list = hers
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let count = |condition: &str, params: &[i64]| -> i64 {
        let sql = format!(
            "SELECT COUNT(*) FROM judgings j WHERE j.entry_id IN ({hers_list}) AND {condition}"
        );
        conn.query_row(&sql, rusqlite::params_from_iter(params), |r| r.get(0))
            .unwrap()
    };
    // From the moment he submitted, at most one of hers (her turn came
    // first) started before his; some of hers waited behind his.
    let between = count(
        "j.id < ?1 AND j.started_at >= (SELECT submitted_at FROM entries WHERE id = ?2)",
        &[his_judging, his],
    );
    assert!(
        between <= 1,
        "{between} of hers started between his submission and his judging"
    );
    let after = count("j.id > ?1", &[his_judging]);
    assert!(after > 0, "none of hers waited: the test proved nothing");
}

#[test]
fn the_jury_rejudges_and_exports_the_gradebook() {
    let (site, server) = lab();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    assert_eq!(alice.verdict(id).0, "AC");
    // Every jury page refuses a participant, the rejudge form even with
    // her own valid CSRF token; nobody logged in is sent to log in.
    let jury_pages = [
        "/jury",
        "/jury/participants/alice",
        "/jury/workers",
        "/jury/gradebook.csv",
        "/jury/gradebook.html",
    ];
    let mut nobody = server.client();
    for path in jury_pages {
        assert_eq!(alice.get(path).status, 403, "{path}");
        let anonymous = nobody.get(path);
        assert_eq!(anonymous.status, 303, "{path}");
        assert_eq!(anonymous.header("location"), Some("/login"), "{path}");
    }
    let csrf = alice.csrf();
    let refused = alice.post_form("/jury/rejudge", &[("csrf", &csrf), ("problem", "sum")]);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(judgings(&site.db())[0].2, 1, "nothing was rejudged");

    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    assert!(
        teacher
            .get("/jury")
            .body
            .contains("/jury/participants/alice")
    );
    let page = teacher.get("/jury/participants/alice");
    assert!(
        page.body.contains(&format!("data-entry=\"{id}\"")),
        "{}",
        page.body
    );
    let csrf = teacher.csrf();
    let again = teacher.post_form("/jury/rejudge", &[("csrf", &csrf), ("problem", "sum")]);
    assert_eq!(again.status, 303, "{}", again.body);
    let deadline = std::time::Instant::now() + crate::serve_server::JUDGE_DEADLINE;
    while judgings(&site.db())[0].2 < 2 {
        assert!(std::time::Instant::now() < deadline, "not rejudged");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(teacher.verdict(id).0, "AC");
    let csv = teacher.get("/jury/gradebook.csv");
    assert!(csv.content_type.starts_with("text/csv"));
    let rows: Vec<&str> = csv
        .body
        .lines()
        .filter(|l| l.starts_with("alice"))
        .collect();
    assert_eq!(
        rows.len(),
        1,
        "one row, the rejudged result only: {}",
        csv.body
    );
    let html = teacher.get("/jury/gradebook.html");
    assert!(html.body.contains("alice") && html.header("content-disposition").is_some());
}

#[test]
fn open_registration_only_where_the_session_file_allows_it() {
    let (_site, server) = lab();
    let mut visitor = server.client();
    assert_eq!(visitor.get("/register").status, 404);

    let site = Site::new(USERS);
    let session = site.write("open.toml", "title = \"Club\"\nregistration = true\n");
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    let mut carol = server.client();
    let form = carol.get("/register");
    assert_eq!(form.status, 200);
    let token = hidden(&form.body, "csrf").unwrap();
    let fields = |name: &'static str, password: &'static str| {
        [
            ("csrf", token.clone()),
            ("username", name.to_string()),
            ("display_name", "Carol".to_string()),
            ("password", password.to_string()),
        ]
    };
    let short = fields("carol", "short");
    let refused = carol.post_form(
        "/register",
        &short
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect::<Vec<_>>(),
    );
    assert_eq!(refused.status, 400);
    let token = hidden(&refused.body, "csrf").unwrap();
    let taken = [
        ("csrf", token.as_str()),
        ("username", "alice"),
        ("display_name", "Not Alice"),
        ("password", "long enough password"),
    ];
    let refused = carol.post_form("/register", &taken);
    assert!(refused.body.contains("taken"), "{}", refused.body);
    let token = hidden(&refused.body, "csrf").unwrap();
    let good = [
        ("csrf", token.as_str()),
        ("username", "carol"),
        ("display_name", "Carol"),
        ("password", "long enough password"),
    ];
    let created = carol.post_form("/register", &good);
    assert_eq!(created.status, 303, "{}", created.body);
    assert_eq!(carol.get("/submissions").status, 200, "logged in");
    assert!(
        carol
            .get("/scoreboard")
            .body
            .contains("data-user=\"carol\"")
    );
}

#[test]
fn a_private_session_shows_nothing_before_login() {
    let site = Site::new(USERS);
    let session = site.write("private.toml", "title = \"Exam\"\nprivate = true\n");
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    let mut nobody = server.client();
    for path in [
        "/",
        "/problems/sum",
        "/scoreboard",
        "/problems/sum/samples/1.in",
    ] {
        let page = nobody.get(path);
        assert_eq!(
            (page.status, page.location.as_deref()),
            (303, Some("/login")),
            "{path}"
        );
    }
    assert_eq!(nobody.get("/api/v1/problems").status, 401);
    assert_eq!(nobody.get("/api/contests").status, 401);
    assert_eq!(nobody.get("/login").status, 200);
    assert_eq!(nobody.get("/static/live.js").status, 200);
    nobody.login("bob", &site.password("bob"));
    assert_eq!(nobody.get("/scoreboard").status, 200);
}

#[test]
fn languages_this_machine_cannot_build_are_not_offered() {
    let site = Site::new(USERS);
    let table = site.write(
        "ghost.toml",
        "[ghost]\nname = \"Ghost\"\nextensions = [\"gh\"]\n\
         compile = [\"no-such-compiler-for-ghost\", \"{source}\"]\nrun = [\"{binary}\"]\n",
    );
    let languages = ["--languages", table.to_str().unwrap()];
    let everything = Server::start_with(&site, &[], |command| {
        command.args(languages);
    });
    let mut alice = everything.client();
    alice.login("alice", &site.password("alice"));
    let page = alice.get("/problems/sum").body;
    assert!(
        page.contains("value=\"python\"") || page.contains("value=\"rust\""),
        "{page}"
    );
    assert!(
        !page.contains("Ghost"),
        "an unbuildable language is offered: {page}"
    );
    drop(everything);

    let named = site.write("ghost-lab.toml", "languages = [\"rust\", \"ghost\"]\n");
    let server = Server::start_with(&site, &["--session", named.to_str().unwrap()], |command| {
        command.args(languages);
    });
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let page = alice.get("/problems/sum").body;
    assert!(
        page.contains("disabled>Ghost (gh): not on this server"),
        "{page}"
    );
    let csrf = alice.csrf();
    let refused = alice.post_multipart(
        "/submit",
        &[("csrf", &csrf), ("problem", "sum"), ("language", "ghost")],
        Some(("a.gh", b"boo")),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(
        refused.body.contains("cannot be built on this server"),
        "{}",
        refused.body
    );
}

#[test]
fn every_statement_on_one_page_to_print() {
    let (site, server) = lab();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let set = alice.get("/problems/all");
    assert_eq!(set.status, 200);
    for title in ["A. Sum of pairs", "B. Guess the number"] {
        assert!(set.body.contains(title), "{title}: {}", set.body);
    }
    assert!(set.body.contains("class=\"set-problem\""));
    let style = alice.get("/static/style.css").body;
    assert!(style.contains("@media print") && style.contains("break-before: page"));
}

#[test]
fn the_jury_reads_each_tests_data_every_judging_and_the_change_since_the_last_try() {
    let (site, server) = lab();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let first = submitted_id(&alice.submit("sum", &site.submission("sum/WA/off_by_one.rs")));
    alice.verdict(first);
    let second = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    alice.verdict(second);
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    let csrf = teacher.csrf();
    let rejudged = teacher.post_form(
        "/jury/rejudge",
        &[("csrf", &csrf), ("entry", &second.to_string())],
    );
    assert_eq!(rejudged.status, 303);
    teacher.verdict(second);
    let deadline = std::time::Instant::now() + crate::serve_server::JUDGE_DEADLINE;
    let page = loop {
        let page = teacher.get(&format!("/submissions/{second}"));
        if page.body.matches("<td>AC").count() >= 2 || std::time::Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    // Both judgings, the first replaced by the rejudge.
    assert!(page.body.contains("(replaced)"), "{}", page.body);
    assert!(page.body.contains(&format!(
        "Changes since submission <a href=\"/submissions/{first}\">"
    )));
    assert!(
        page.body.contains("--- #1"),
        "a unified diff: {}",
        page.body
    );
    // Each test's input and answer, shown and downloadable, by number.
    let secret =
        std::fs::read_to_string(site.root().join("problems/sum/data/secret/02.in")).unwrap();
    assert!(
        page.body.contains(secret.lines().next().unwrap()),
        "{}",
        page.body
    );
    let links: Vec<&str> = page
        .body
        .split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|l| l.starts_with("/jury/problems/sum/tests/"))
        .collect();
    assert!(links.len() >= 10, "{links:?}");
    let input = teacher.get(links[0]);
    assert_eq!(input.status, 200);
    assert_eq!(
        alice.get(links[0]).status,
        403,
        "the test data is the jury's"
    );
    assert_eq!(teacher.get("/jury/problems/sum/tests/99/input").status, 404);
    assert_eq!(
        teacher
            .get("/jury/problems/sum/tests/1/..%2Fproblem.toml")
            .status,
        404
    );
    // The participant's own page has none of it.
    let own = alice.get(&format!("/submissions/{second}")).body;
    assert!(!own.contains("Judgings") && !own.contains("/jury/problems"));
}

#[test]
fn the_jury_moves_the_times_and_releases_the_frozen_scoreboard() {
    let site = Site::new(USERS);
    let now = std::time::SystemTime::now();
    let text = |t: std::time::SystemTime| humantime::format_rfc3339_seconds(t).to_string();
    let start = now - Duration::from_secs(3600);
    let lab = site.write(
        "contest.toml",
        &format!(
            "name = \"contest\"\nproblems = [\"sum\"]\nstart = \"{}\"\nduration = \"2h\"\nfreeze = \"30m\"\n",
            text(start)
        ),
    );
    let args = ["--session", lab.to_str().unwrap()];
    let server = Server::start(&site, &args);
    let mut nobody = server.client();
    assert!(!nobody.get("/scoreboard").body.contains("Frozen since"));
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    let csrf = teacher.csrf();
    let end = start + Duration::from_secs(7200);
    let set = |teacher: &mut crate::serve_server::Client, freeze: &str, end: &str| {
        teacher.post_form(
            "/jury/session",
            &[
                ("csrf", &csrf),
                ("action", "times"),
                ("start", &text(start)),
                ("end", end),
                ("freeze", freeze),
            ],
        )
    };
    // The freeze moved to ten minutes after the start: frozen now.
    let moved = set(
        &mut teacher,
        &text(start + Duration::from_secs(600)),
        &text(end),
    );
    assert_eq!(moved.status, 303, "{}", moved.body);
    assert!(nobody.get("/scoreboard").body.contains("Frozen since"));
    let refused = set(&mut teacher, "", &text(start - Duration::from_secs(60)));
    assert_eq!(refused.status, 400, "an end before the start");
    let released = teacher.post_form("/jury/session", &[("csrf", &csrf), ("action", "release")]);
    assert_eq!(released.status, 303);
    assert!(!nobody.get("/scoreboard").body.contains("Frozen since"));
    // A restart keeps what the jury set.
    server.kill();
    let server = Server::start(&site, &args);
    let jury = server.client().get("/scoreboard").body;
    assert!(!jury.contains("Frozen since"), "{jury}");
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    let overview = teacher.get("/jury").body;
    assert!(
        overview.contains(&text(start + Duration::from_secs(600))),
        "{overview}"
    );
    assert!(overview.contains("was released at"), "{overview}");
}

#[test]
fn the_jury_downloads_every_source_as_one_archive() {
    let (site, server) = lab();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into();
    let reply = agent
        .get(&format!("{}/jury/sources.zip", server.url))
        .header("Cookie", &teacher.cookie_header())
        .call()
        .unwrap();
    assert_eq!(reply.status().as_u16(), 200);
    let bytes = reply.into_body().read_to_vec().unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut file = archive.by_name(&format!("alice/{id}-sum-sum.rs")).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut file, &mut text).unwrap();
    assert_eq!(
        text,
        std::fs::read_to_string(site.submission("sum/AC/sum.rs")).unwrap()
    );
    assert_eq!(alice.get("/jury/sources.zip").status, 403);
}

#[test]
fn a_review_shows_which_verdicts_would_change_before_they_do() {
    let (site, server) = lab();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    assert_eq!(alice.verdict(id).0, "AC");
    // A test's answer mended after the contest (here: made wrong).
    std::fs::write(site.root().join("problems/sum/data/secret/02.ans"), "0\n").unwrap();
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    let csrf = teacher.csrf();
    let started = teacher.post_form("/jury/reviews", &[("csrf", &csrf), ("problem", "sum")]);
    assert_eq!(started.status, 303, "{}", started.body);
    let review = started.location.clone().unwrap();
    let deadline = std::time::Instant::now() + crate::serve_server::JUDGE_DEADLINE;
    let page = loop {
        let page = teacher.get(&review).body;
        if page.contains("1 of 1 judged") || std::time::Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        page.contains("1 would change") && page.contains("(changes)"),
        "{page}"
    );
    // Nothing changed for anybody yet.
    assert_eq!(alice.verdict(id).0, "AC");
    let applied = teacher.post_form(&review, &[("csrf", &csrf), ("action", "apply")]);
    assert_eq!(applied.status, 303);
    assert_eq!(alice.verdict(id).0, "WA");
    let told = alice.get("/clarifications").body;
    assert!(
        told.contains(&format!("#{id} of sum was judged again: AC is now WA")),
        "{told}"
    );
    // A cancelled review changes nothing.
    std::fs::write(
        site.root().join("problems/sum/data/secret/02.ans"),
        std::fs::read(site.root().join("problems/sum/data/secret/02.in"))
            .map(|_| b"".to_vec())
            .unwrap(),
    )
    .unwrap();
    let again = teacher.post_form("/jury/reviews", &[("csrf", &csrf), ("problem", "sum")]);
    let second = again.location.clone().unwrap();
    let cancelled = teacher.post_form(&second, &[("csrf", &csrf), ("action", "cancel")]);
    assert_eq!(cancelled.status, 303);
    assert!(teacher.get(&second).body.contains("cancelled"));
    assert_eq!(alice.verdict(id).0, "WA");
}
