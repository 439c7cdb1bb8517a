//! `judge serve` on an open network: each test performs an attack a class
//! on a real network meets (from a lab PC, from a participant's account)
//! against a real server on a loopback port, and the attack must fail.
//! A second client machine is another loopback address (127.0.0.2...):
//! every packet still goes to 127.0.0.1's server, bounded in count and
//! time.

use std::io::{Read, Write};
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};

use crate::serve::follow_events;
use crate::serve_server::{
    Server, Site, connect_from, hidden, login_from, raw_request, status_of, submitted_id,
};
use crate::support::judge_at;

const ALICE_PC: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
const LAB_PC: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

const USERS: &str = "user,display name,team,role\n\
                     alice,Alice Liddell,red,participant\n\
                     bob,Bob Bright,blue,participant\n\
                     teacher,The Teacher,,jury\n";

fn session(site: &Site, text: &str) -> String {
    site.write("lab.toml", text).to_str().unwrap().to_string()
}

/// Reads from `stream` until the server closes it (or `limit` passes):
/// whether it was closed, and after how long.
fn closed_within(stream: &mut std::net::TcpStream, limit: Duration) -> (bool, Duration) {
    let started = Instant::now();
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return (true, started.elapsed()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (true, started.elapsed());
            }
            Err(_) => return (false, started.elapsed()),
        }
        if started.elapsed() >= limit {
            return (false, started.elapsed());
        }
    }
}

#[test]
fn connections_that_never_finish_their_headers_or_idle_are_closed() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let mut slow = connect_from(LAB_PC, server.address());
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .unwrap();
    let mut idle = connect_from(LAB_PC, server.address());
    idle.write_all(b"GET /static/style.css HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    // The header-read deadline is 10 s; a kept-alive connection without a
    // new request is closed after as long.
    let (closed, after) = closed_within(&mut slow, Duration::from_secs(30));
    assert!(
        closed,
        "a connection stuck in its headers stayed open {after:?}"
    );
    let (closed, after) = closed_within(&mut idle, Duration::from_secs(30));
    assert!(
        closed,
        "an idle kept-alive connection stayed open {after:?}"
    );
}

/// Sets the test process's own descriptor limit high enough for a flood.
fn enough_descriptors_here(needed: u64) {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let hard = limit.maximum.unwrap_or(u64::MAX);
    assert!(
        hard >= needed,
        "this machine allows {hard} descriptors, the test needs {needed}"
    );
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(hard),
            maximum: limit.maximum,
        },
    );
}

#[test]
fn a_descriptor_flood_from_one_address_leaves_the_class_judged() {
    enough_descriptors_here(1400);
    let site = Site::new(USERS);
    // The common service limit: 1024 descriptors, soft and hard.
    let server = Server::start_with(&site, &[], |command| {
        use std::os::unix::process::CommandExt;
        // SAFETY: setrlimit is async-signal-safe and allocates nothing.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 1024,
                    rlim_max: 1024,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raw const limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    });
    // 1100 connections that never send a byte, from one lab PC.
    let flood: Vec<std::net::TcpStream> = (0..1100)
        .map(|_| connect_from(LAB_PC, server.address()))
        .collect();
    std::thread::sleep(Duration::from_millis(500));

    let mut alice = server.client();
    let login = alice.login("alice", &site.password("alice"));
    assert_eq!(login.status, 303, "{}", login.body);
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    let (verdict, page) = alice.verdict(id);
    assert_eq!(verdict, "AC", "judged meanwhile: {}", page.body);
    assert_eq!(alice.get("/scoreboard").status, 200);
    drop(flood);
}

/// The server's resident memory in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_flood_of_wrong_passwords_keeps_the_servers_memory_flat() {
    let mut users = String::from("user,display name,team,role\n");
    for n in 0..12 {
        users.push_str(&format!("user{n},User {n},,participant\n"));
    }
    let site = Site::new(&users);
    let server = Server::start(&site, &[]);
    let pid = server.pid();
    let before = resident_kib(pid);
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(before));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                peak.fetch_max(resident_kib(pid), std::sync::atomic::Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    // 60 wrong passwords at once: 5 for each of 12 real accounts (each
    // pair of user and address has 5 before any back-off).
    let url = server.url.clone();
    let attempts: Vec<_> = (0..60)
        .map(|n| {
            let url = url.clone();
            std::thread::spawn(move || {
                // A busy machine checks 60 passwords slowly: the client
                // waits longer than a page's usual time.
                let mut client =
                    crate::serve_server::Client::with_timeout(&url, Duration::from_secs(180));
                client
                    .login(&format!("user{}", n % 12), "not-the-password")
                    .status
            })
        })
        .collect();
    let statuses: Vec<u16> = attempts.into_iter().map(|t| t.join().unwrap()).collect();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    sampler.join().unwrap();
    let grown_mib = peak
        .load(std::sync::atomic::Ordering::SeqCst)
        .saturating_sub(before)
        / 1024;
    eprintln!("60 wrong passwords at once: the server grew {grown_mib} MiB; {statuses:?}");
    assert!(
        statuses.iter().all(|s| *s == 401 || *s == 429),
        "{statuses:?}"
    );
    // argon2id takes ~19 MiB a hash: a thread a login grew the server by
    // more than a gigabyte; a few threads, by a few tens of MiB.
    assert!(grown_mib < 200, "the server grew {grown_mib} MiB");
}

#[test]
fn wrong_passwords_from_another_address_never_lock_out_the_right_one() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let to = server.address();
    let statuses: Vec<u16> = (0..8)
        .map(|_| login_from(LAB_PC, to, "teacher", "guessing", &[]))
        .collect();
    assert_eq!(&statuses[..5], &[401; 5], "{statuses:?}");
    assert!(
        statuses[5..].iter().all(|s| *s == 429),
        "the guesser is made to wait: {statuses:?}"
    );
    let right = login_from(ALICE_PC, to, "teacher", &site.password("teacher"), &[]);
    assert_eq!(right, 303, "the jury's own login from elsewhere is refused");
    // A user name no account may have is refused before any limiter sees it.
    let long = "x".repeat(60_000);
    let (status, _) = raw_request(
        LAB_PC,
        to,
        "POST",
        "/api/v1/token",
        &[("Content-Type", "application/json")],
        &format!("{{\"username\":\"{long}\",\"password\":\"p\"}}"),
    );
    assert_eq!(status, 401);
}

#[test]
fn behind_a_trusted_proxy_each_client_has_its_own_limits() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &["--trusted-proxy", "127.0.0.1"]);
    let to = server.address();
    // The proxy (127.0.0.1) forwards two clients: one guesses, the other
    // logs in; the guesser's back-off is its own.
    let guesser = [("X-Forwarded-For", "203.0.113.9")];
    for _ in 0..6 {
        login_from(ALICE_PC, to, "teacher", "guessing", &guesser);
    }
    assert_eq!(
        login_from(ALICE_PC, to, "teacher", "guessing", &guesser),
        429
    );
    let teacher = [("X-Forwarded-For", "198.51.100.7")];
    let right = login_from(ALICE_PC, to, "teacher", &site.password("teacher"), &teacher);
    assert_eq!(right, 303);
    // A client that is no proxy cannot choose its address by the header.
    for n in 0..6 {
        let forged = format!("192.0.2.{n}");
        login_from(
            LAB_PC,
            to,
            "bob",
            "guessing",
            &[("X-Forwarded-For", &forged)],
        );
    }
    let forged = [("X-Forwarded-For", "192.0.2.99")];
    assert_eq!(login_from(LAB_PC, to, "bob", "guessing", &forged), 429);
}

#[test]
fn the_time_of_a_wrong_password_does_not_tell_which_accounts_exist() {
    let mut users = String::from("user,display name,team,role\n");
    for n in 0..4 {
        users.push_str(&format!("real{n},Real {n},,participant\n"));
    }
    let site = Site::new(&users);
    let server = Server::start(&site, &[]);
    let to = server.address();
    let time = |user: &str| {
        let started = Instant::now();
        let status = login_from(LAB_PC, to, user, "wrong-password", &[]);
        assert_eq!(status, 401);
        started.elapsed()
    };
    let mut existing = Vec::new();
    let mut missing = Vec::new();
    for round in 0..3 {
        for n in 0..4 {
            existing.push(time(&format!("real{n}")));
            missing.push(time(&format!("ghost{round}{n}")));
        }
    }
    existing.sort();
    missing.sort();
    let (e, m) = (existing[existing.len() / 2], missing[missing.len() / 2]);
    let ratio = e.as_secs_f64().max(m.as_secs_f64()) / e.as_secs_f64().min(m.as_secs_f64());
    eprintln!("median wrong password: existing {e:?}, missing {m:?} (ratio {ratio:.2})");
    assert!(ratio < 3.0, "existing {e:?} against missing {m:?}");
}

#[test]
fn sign_ups_need_the_invitation_and_are_limited_per_address() {
    let site = Site::new(USERS);
    let lab = session(
        &site,
        "registration = true\ninvitation = \"lab-3-code\"\n\
         [limits]\nsignups-per-hour = 2\nsubmissions-per-minute-per-address = 2\n",
    );
    let server = Server::start(&site, &["--session", &lab]);
    let sign_up = |user: &str, name: &str, code: &str| {
        let mut client = server.client();
        let form = client.get("/register");
        let token = hidden(&form.body, "csrf").unwrap();
        let reply = client.post_form(
            "/register",
            &[
                ("csrf", &token),
                ("username", user),
                ("display_name", name),
                ("password", "a-long-password"),
                ("invitation", code),
            ],
        );
        (reply.status, client)
    };
    assert_eq!(sign_up("mallory", "Mallory", "guess").0, 400, "no code");
    assert_eq!(
        sign_up("..", "Dots", "lab-3-code").0,
        400,
        "`..` is no user name"
    );
    assert_eq!(
        sign_up("eve", "Eve\u{202e}evE", "lab-3-code").0,
        400,
        "a bidi override in a name"
    );
    assert_eq!(sign_up("eve", "Eve\u{1b}[31m", "lab-3-code").0, 400, "ESC");
    let (first, mut carol) = sign_up("carol", "Carol", "lab-3-code");
    let (second, mut dave) = sign_up("dave", "Dave", "lab-3-code");
    assert_eq!((first, second), (303, 303));
    assert_eq!(
        sign_up("erin", "Erin", "lab-3-code").0,
        429,
        "a third account"
    );
    // Two accounts from one address share its submission rate.
    let file = site.submission("sum/AC/sum.rs");
    assert_eq!(carol.submit("sum", &file).status, 303);
    assert_eq!(dave.submit("sum", &file).status, 303);
    assert_eq!(carol.submit("sum", &file).status, 429);
}

/// A new API token for `user`.
fn api_token(server: &Server, user: &str, password: &str) -> String {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let mut response = agent
        .post(&format!("{}/api/v1/token", server.url))
        .send_json(serde_json::json!({"username": user, "password": password}))
        .unwrap();
    let body: serde_json::Value = response.body_mut().read_json().unwrap();
    body["token"].as_str().expect("a token").to_string()
}

/// The status of `GET /api/v1/submissions` with `token`.
fn with_token(server: &Server, token: &str) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    agent
        .get(&format!("{}/api/v1/submissions", server.url))
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn a_reset_or_a_disable_ends_every_login_and_token() {
    let site = Site::new(USERS);
    let lab = session(&site, "[limits]\ntoken-lifetime = \"8s\"\n");
    let server = Server::start(&site, &["--session", &lab]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let token = api_token(&server, "alice", &site.password("alice"));
    assert_eq!(
        (
            alice.get("/submissions").status,
            with_token(&server, &token)
        ),
        (200, 200)
    );
    // The teacher hands out new passwords: the old logins and tokens end.
    let csv = site.write("users.csv", USERS);
    judge_at(site.root())
        .args(["users", "import", "--reset-passwords", "--passwords"])
        .arg(site.root().join("new-passwords.csv"))
        .arg(&csv)
        .assert()
        .success();
    assert_eq!(
        alice.get("/submissions").status,
        303,
        "the cookie still logs in"
    );
    assert_eq!(with_token(&server, &token), 401, "the token still works");

    // Disabled: no login, even with the right password.
    let bob_password = std::fs::read_to_string(site.root().join("new-passwords.csv"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("bob,").map(str::to_string))
        .unwrap();
    let mut bob = server.client();
    assert_eq!(bob.login("bob", &bob_password).status, 303);
    judge_at(site.root())
        .args(["users", "disable", "bob"])
        .assert()
        .success();
    assert_eq!(bob.get("/submissions").status, 303);
    assert_eq!(server.client().login("bob", &bob_password).status, 401);
    judge_at(site.root())
        .args(["users", "enable", "bob"])
        .assert()
        .success();
    assert_eq!(server.client().login("bob", &bob_password).status, 303);

    // A token expires, and its owner can list and revoke one.
    let reset = judge_at(site.root())
        .args(["users", "reset", "alice"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&reset.get_output().stdout).into_owned();
    let password = said
        .split_whitespace()
        .nth(4)
        .expect("the new password is printed")
        .to_string();
    let mut alice = server.client();
    assert_eq!(alice.login("alice", &password).status, 303);
    let kept = api_token(&server, "alice", &password);
    let made = Instant::now();
    let revoked = api_token(&server, "alice", &password);
    let page = alice.get("/account");
    assert_eq!(
        page.body.matches("name=\"token\" value=\"").count(),
        2,
        "{}",
        page.body
    );
    let csrf = alice.csrf();
    let hash = blake3::hash(revoked.as_bytes()).to_hex().to_string();
    let reply = alice.post_form(
        "/account",
        &[
            ("csrf", &csrf),
            ("action", "revoke-token"),
            ("token", &hash[..12]),
        ],
    );
    assert_eq!(reply.status, 303);
    assert_eq!(
        (with_token(&server, &kept), with_token(&server, &revoked)),
        (200, 401)
    );
    std::thread::sleep(Duration::from_secs(9).saturating_sub(made.elapsed()));
    assert_eq!(
        with_token(&server, &kept),
        401,
        "the token outlived its lifetime"
    );
}

#[test]
fn before_the_start_only_the_jury_sees_the_problems() {
    let site = Site::new(USERS);
    let start =
        humantime::format_rfc3339_seconds(std::time::SystemTime::now() + Duration::from_secs(7200));
    let lab = session(
        &site,
        &format!("name = \"lab\"\nstart = \"{start}\"\nduration = \"2h\"\n"),
    );
    let server = Server::start(&site, &["--session", &lab]);
    let mut nobody = server.client();
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    for client in [&mut nobody, &mut alice] {
        let home = client.get("/");
        assert!(!home.body.contains("/problems/sum"), "{}", home.body);
        assert!(home.body.contains("starts at"), "{}", home.body);
        for path in ["/problems/sum", "/problems/sum/samples/1.in"] {
            assert_eq!(client.get(path).status, 404, "{path}");
        }
        // The play page asks somebody not logged in to log in first.
        let play = client.get("/problems/guess/play").status;
        assert!(play == 404 || play == 303, "{play}");
        for path in ["/api/v1/problems", "/api/contests/lab/problems"] {
            let reply = client.get(path);
            assert!(
                !reply.body.contains("Sum of pairs") && !reply.body.contains("\"sum\""),
                "{path}: {}",
                reply.body
            );
        }
    }
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    assert_eq!(teacher.get("/problems/sum").status, 200);
}

#[test]
fn a_problem_without_samples_is_never_played() {
    let site = Site::new(USERS);
    let secret_only = site.root().join("problems/guess-secret");
    crate::support::copy_dir(&site.root().join("problems/guess"), &secret_only);
    std::fs::remove_dir_all(secret_only.join("data/sample")).unwrap();
    let toml = std::fs::read_to_string(secret_only.join("problem.toml"))
        .unwrap()
        .replace("id = \"guess\"", "id = \"guess-secret\"");
    std::fs::write(secret_only.join("problem.toml"), toml).unwrap();
    let lab = session(&site, "problems = [\"guess\", \"guess-secret\"]\n");
    let server = Server::start(&site, &["--session", &lab]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    assert_eq!(alice.get("/problems/guess/play").status, 200);
    assert_eq!(alice.get("/problems/guess-secret/play").status, 404);
    let csrf = alice.csrf();
    let start = alice.post_form(
        "/problems/guess-secret/play",
        &[("csrf", &csrf), ("action", "start")],
    );
    assert_eq!(start.status, 404);
    let page = alice.get("/problems/guess-secret");
    assert!(!page.body.contains("/play"), "{}", page.body);
}

#[test]
fn secret_tests_show_their_resources_only_coarsely() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    let (verdict, page) = alice.verdict(id);
    assert_eq!(verdict, "AC");
    let rows: Vec<&str> = page.body.split("<tr><td>").skip(1).collect();
    let secret: Vec<&&str> = rows.iter().filter(|r| r.starts_with("secret")).collect();
    assert!(!secret.is_empty(), "{}", page.body);
    for row in secret {
        assert!(
            row.contains("within limit") && !row.contains(" ms") && !row.contains("MiB"),
            "{row}"
        );
    }
    let sample = rows.iter().find(|r| r.starts_with("sample")).unwrap();
    assert!(sample.contains(" ms"), "{sample}");
}

#[test]
fn verdict_only_feedback_never_shows_how_far_a_submission_got() {
    let site = Site::new(USERS);
    let lab = session(&site, "feedback = \"verdict\"\n");
    let server = Server::start(&site, &["--session", &lab]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let cookie = alice.cookie_header();
    let events = follow_events(&server.url, cookie, "\"verdict\":\"");
    std::thread::sleep(Duration::from_millis(300));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/WA/off_by_one.rs")));
    let mut seen_statuses = Vec::new();
    let deadline = Instant::now() + crate::serve_server::JUDGE_DEADLINE;
    loop {
        let page = alice.get(&format!("/submissions/{id}"));
        let status = status_of(&page.body);
        seen_statuses.push(status.clone());
        if status.len() <= 3 || Instant::now() > deadline {
            break;
        }
    }
    let seen = events
        .recv_timeout(crate::serve_server::JUDGE_DEADLINE)
        .unwrap();
    assert!(seen.contains("\"verdict\":\"WA\""), "{seen}");
    assert!(
        !seen.contains("test "),
        "the events told the test count:\n{seen}"
    );
    assert!(
        seen_statuses.iter().all(|s| !s.starts_with("test ")),
        "{seen_statuses:?}"
    );
}

#[test]
fn sigterm_with_an_event_stream_open_stops_the_server_at_once() {
    let site = Site::new(USERS);
    let mut server = Server::start(&site, &[]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let cookie = alice.cookie_header();
    let _events = follow_events(&server.url, cookie, "never said");
    std::thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    server.signal(libc::SIGTERM);
    server.wait_within(Duration::from_secs(10));
    let took = asked.elapsed();
    eprintln!("stopped {took:?} after SIGTERM with a stream open");
    // The server gives its connections 1.5 s; a busy machine adds some.
    assert!(took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn sigterm_during_the_first_builds_stops_the_server_at_once() {
    // The repository's own problem set, built from nothing: its packages'
    // programs are workspace crates, one `cargo build` of a minute or more
    // into a target folder of this test's.
    let target = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(crate::support::judge_binary());
    command
        .env("CARGO_TARGET_DIR", target.path())
        .env(crate::support::SHARED_CACHE_VAR, cache.path())
        .args(["--color", "never", "--root"])
        .arg(crate::support::workspace_root())
        .args(["serve", "--bind", "127.0.0.1:0", "--db"])
        .arg(target.path().join("judge.db"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut child = crate::support::Background::start(&mut command);
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.take_stdout()));
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("http://"), "{first}");
    std::thread::sleep(Duration::from_secs(2));
    let building = crate::support::leftover_processes(&target.path().to_string_lossy());
    let asked = Instant::now();
    child.signal(libc::SIGTERM);
    child.wait_within(Duration::from_secs(300));
    let took = asked.elapsed();
    eprintln!(
        "stopped {took:?} after SIGTERM during the builds ({} build processes then)",
        building.len()
    );
    assert!(took < Duration::from_secs(4), "{took:?}");
    std::thread::sleep(Duration::from_millis(200));
    let left = crate::support::leftover_processes(&target.path().to_string_lossy());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn the_store_is_private_and_a_killed_judges_scratch_is_cleaned() {
    use std::os::unix::fs::PermissionsExt;
    // A scratch folder as a judge killed by SIGKILL leaves it: its lock
    // file there, locked by nobody.
    let abandoned = tempfile::Builder::new()
        .prefix("judge-")
        .tempdir_in(std::env::temp_dir())
        .unwrap()
        .keep();
    std::fs::write(abandoned.join(".judge-lock"), "").unwrap();
    std::fs::write(abandoned.join("alice-source.py"), "print(42)\n").unwrap();
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    assert!(
        !abandoned.exists(),
        "{} was left behind",
        abandoned.display()
    );
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    alice.verdict(id);
    for name in ["judge.db", "judge.db-wal", "judge.db-shm"] {
        let meta = std::fs::metadata(site.root().join(name)).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600, "{name}");
    }
}

#[test]
fn control_characters_in_names_are_refused_and_escaped() {
    let site = Site::new(USERS);
    let bad = site.write(
        "bad.csv",
        "user,display name,team,role\nmallory,Mal\u{202e}lory,red,participant\n",
    );
    let refused = judge_at(site.root())
        .args(["users", "import"])
        .arg(&bad)
        .assert()
        .failure();
    let said = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(said.contains("bad.csv:2: key `display name`"), "{said}");
    let dots = site.write("dots.csv", "user,role\n..,participant\n");
    judge_at(site.root())
        .args(["users", "import"])
        .arg(&dots)
        .assert()
        .failure();
}

#[test]
fn names_an_older_store_holds_are_shown_escaped() {
    let site = Site::new(USERS);
    let db = rusqlite::Connection::open(site.db()).unwrap();
    db.execute(
        "UPDATE accounts SET display_name = ?1, team = ?2 WHERE username = 'bob'",
        ["Bob\u{1b}[31m\u{7}", "blue\u{202e}eulb"],
    )
    .unwrap();
    drop(db);
    let server = Server::start(&site, &[]);
    let mut teacher = server.client();
    teacher.login("teacher", &site.password("teacher"));
    for path in ["/scoreboard", "/jury", "/jury/participants/bob"] {
        let page = teacher.get(path);
        for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
            assert!(!page.body.contains(raw), "{path} shows {raw:?} raw");
        }
        assert!(page.body.contains("Bob\\x1b[31m"), "{path}: {}", page.body);
    }
}

#[test]
fn the_play_pages_referee_runs_in_the_sandbox() {
    if !crate::support::have(&["root"]) {
        // Without root this machine may give a box no namespaces; the
        // isolation line says which it applies.
        return;
    }
    let site = Site::new(USERS);
    // A referee that says whether it can read the server's store.
    let nosy = site.root().join("problems/nosy");
    crate::support::copy_dir(&site.root().join("problems/guess"), &nosy);
    let toml = std::fs::read_to_string(nosy.join("problem.toml"))
        .unwrap()
        .replace("id = \"guess\"", "id = \"nosy\"");
    std::fs::write(nosy.join("problem.toml"), toml).unwrap();
    let store = site.db();
    let referee = std::fs::read_to_string(nosy.join("interactor.rs")).unwrap().replacen(
        "fn main() {",
        &format!(
            "fn main() {{\n    eprintln!(\"store {{}}, uid {{}}\", if std::fs::read({:?}).is_ok() {{ \"readable\" }} else {{ \"hidden\" }}, \
             std::fs::read_to_string(\"/proc/self/status\").unwrap_or_default().lines().find(|l| l.starts_with(\"Uid:\")).unwrap_or(\"\").split_whitespace().nth(1).unwrap_or(\"?\"));",
            store.display()
        ),
        1,
    );
    std::fs::write(nosy.join("interactor.rs"), referee).unwrap();
    let lab = session(&site, "problems = [\"nosy\"]\n");
    let server = Server::start(&site, &["--session", &lab]);
    assert!(store.exists());
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let csrf = alice.csrf();
    let started = alice.post_form(
        "/problems/nosy/play",
        &[("csrf", &csrf), ("action", "start")],
    );
    assert_eq!(started.status, 303, "{}", started.body);
    let deadline = Instant::now() + Duration::from_secs(30);
    let page = loop {
        let page = alice.get("/problems/nosy/play").body;
        if page.contains("store ") || Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        page.contains("store hidden"),
        "the referee read the store: {page}"
    );
    assert!(!page.contains("uid 0<"), "the referee ran as root: {page}");
}
