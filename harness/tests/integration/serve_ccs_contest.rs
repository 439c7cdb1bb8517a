//! One contest served through both CCS API versions: the walk of every
//! endpoint for every role, what the freeze hides, basic auth, the
//! submission files, clarifications posted through the API, and the
//! event feed's streaming, resumption, filter and end at shutdown.

use std::io::BufRead;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};

use crate::ccs_schemas::Schemas;
use crate::serve_ccs::{Api, USERS, contest_file, feed_lines, judged, walk};
use crate::serve_server::{JUDGE_DEADLINE, Server, Site};

const CONTEST: &str = "/contests/warmup";

/// Now, to the second (session files name whole seconds).
fn whole_second(at: SystemTime) -> SystemTime {
    let secs = at.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs();
    SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
}

/// The team id of `user` among `teams`.
fn team(teams: &Value, user: &str) -> String {
    teams
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["label"] == user)
        .unwrap_or_else(|| panic!("no team {user} in {teams}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn cell<'a>(board: &'a Value, team: &str, problem: &str) -> &'a Value {
    let row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"] == team)
        .unwrap();
    row["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["problem_id"] == problem)
        .unwrap()
}

fn award(walk: &crate::serve_ccs::Walk, id: &str) -> Value {
    walk.endpoints["awards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == id)
        .unwrap_or_else(|| panic!("no award {id}"))["team_ids"]
        .clone()
}

/// Phase one: before the freeze, AC, WA and CE, and clarifications.
fn before_the_freeze(site: &Site, session: &std::path::Path) -> Value {
    let server = Server::start(site, &["--session", session.to_str().unwrap()]);
    assert_eq!(
        judged(&server, site, "alice", "sum", "sum/AC/sum.py").1,
        "AC"
    );
    assert_eq!(
        judged(&server, site, "bob", "sum", "sum/WA/missing_line.py").1,
        "WA"
    );
    assert_eq!(
        judged(&server, site, "bob", "sum", "sum/CE/syntax.py").1,
        "CE"
    );
    let alice = Api::new(
        &server,
        "/api",
        "alice",
        Some(("alice", &site.password("alice"))),
    );
    let jury = Api::new(
        &server,
        "/api/2026-01",
        "jury",
        Some(("teacher", &site.password("teacher"))),
    );
    let nobody = Api::new(&server, "/api", "public", None);
    let teams = nobody.ok(&format!("{CONTEST}/teams"));
    let path = format!("{CONTEST}/clarifications");
    let question = alice.post(
        &path,
        &json!({"problem_id": "sum", "text": "May the sum overflow?"}),
    );
    assert_eq!(question.status, 201, "{}", question.body);
    let question = question.json();
    assert_eq!(question["from_team_id"], team(&teams, "alice"));
    let answer = jury.post(
        &path,
        &json!({"to_team_ids": [team(&teams, "alice")], "reply_to_id": question["id"], "text": "No."}),
    );
    assert_eq!(answer.status, 201, "{}", answer.body);
    let everybody = jury.post(&path, &json!({"text": "Ten more minutes."}));
    assert_eq!(everybody.status, 201, "{}", everybody.body);
    // What a sender may not say is refused, as the spec's body.
    let to_bob = alice.post(
        &path,
        &json!({"to_team_id": team(&teams, "bob"), "text": "hi"}),
    );
    assert_eq!(to_bob.status, 403, "{}", to_bob.body);
    assert_eq!(to_bob.json()["code"], 403);
    let timed = alice.post(&path, &json!({"text": "x", "time": "2026-01-01T00:00:00Z"}));
    assert_eq!(timed.status, 400, "{}", timed.body);
    assert_eq!(nobody.post(&path, &json!({"text": "x"})).status, 401);
    server.kill();
    teams
}

#[test]
fn both_versions_pass_their_schemas_for_the_public_a_team_and_the_jury() {
    let site = Site::new(USERS);
    let now = whole_second(SystemTime::now());
    let (start, end) = (
        now - Duration::from_secs(1800),
        now + Duration::from_secs(7200),
    );
    let session = site.write("warmup.toml", &contest_file(start, end, None));
    let teams = before_the_freeze(&site, &session);
    let (alice_team, bob_team) = (team(&teams, "alice"), team(&teams, "bob"));

    // The freeze begins as the server comes back; bob's AC comes after it.
    let freeze = whole_second(SystemTime::now()) + Duration::from_secs(1);
    std::thread::sleep(Duration::from_millis(1100));
    site.write("warmup.toml", &contest_file(start, end, Some(freeze)));
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    assert_eq!(
        judged(&server, &site, "bob", "sum", "sum/AC/sum.rs").1,
        "AC"
    );

    let logins = [
        ("public", None),
        ("alice", Some(("alice", site.password("alice")))),
        ("jury", Some(("teacher", site.password("teacher")))),
    ];
    for (base, version) in [("/api", "2023-06"), ("/api/2026-01", "2026-01")] {
        let schemas = Schemas::load(version);
        let mut walks = Vec::new();
        for (who, login) in &logins {
            let login = login.as_ref().map(|(u, p)| (*u, p.as_str()));
            let api = Api::new(&server, base, who, login);
            walks.push(walk(&api, &schemas, "warmup"));
        }
        let [public, alice, jury] = [&walks[0], &walks[1], &walks[2]];
        // The freeze: the public and alice see bob's AC as pending.
        for (who, seen) in [("public", public), ("alice", alice)] {
            let bob_sum = cell(&seen.endpoints["scoreboard"], &bob_team, "sum");
            assert_eq!(
                (bob_sum["solved"].clone(), bob_sum["num_pending"].clone()),
                (json!(false), json!(1)),
                "{who} {version}"
            );
            assert_eq!(award(seen, "silver-medal"), json!([]), "{who} {version}");
        }
        assert!(public.endpoints["state"]["frozen"].is_string(), "{version}");
        assert_eq!(
            cell(&jury.endpoints["scoreboard"], &bob_team, "sum")["solved"],
            true
        );
        assert_eq!(award(jury, "silver-medal"), json!([bob_team]), "{version}");
        for seen in [public, alice, jury] {
            assert_eq!(award(seen, "winner"), json!([alice_team]), "{version}");
            assert_eq!(
                award(seen, "first-to-solve-sum"),
                json!([alice_team]),
                "{version}"
            );
        }
        // Who sees which submissions and clarifications.
        assert!(!public.endpoints.contains_key("submissions"), "{version}");
        let count =
            |w: &crate::serve_ccs::Walk, kind: &str| w.endpoints[kind].as_array().unwrap().len();
        assert_eq!(
            (count(alice, "submissions"), count(jury, "submissions")),
            (1, 4),
            "{version}"
        );
        assert_eq!(count(alice, "judgements"), 1, "{version}");
        assert!(
            count(alice, "runs") > 0,
            "{version}: the session shows tests"
        );
        assert_eq!(
            (
                count(public, "clarifications"),
                count(alice, "clarifications"),
                count(jury, "clarifications")
            ),
            (1, 3, 3),
            "{version}"
        );
        // A group's scoreboard: its teams only, ranked among themselves.
        let api = Api::new(
            &server,
            base,
            "jury",
            Some(("teacher", &site.password("teacher"))),
        );
        let red = api.ok(&format!("{CONTEST}/scoreboard?group_id=red"));
        schemas.check("scoreboard", &red, "scoreboard?group_id=red");
        let ranks: Vec<(&Value, &Value)> = red["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (&r["team_id"], &r["rank"]))
            .collect();
        assert_eq!(ranks, [(&json!(alice_team), &json!(1))], "{version}");
        api.refused(&format!("{CONTEST}/scoreboard?group_id=nobody"), 400);
        let penalty = &jury.endpoints["contests"]["penalty_time"];
        assert_eq!(
            penalty,
            &if version == "2023-06" {
                json!(20)
            } else {
                json!("0:20:00.000")
            }
        );
    }
    files_and_credentials(&server, &site);
    the_contest_package(&site, &session, &server);
    the_feed_streams_resumes_and_ends_with_the_server(server, &site);
}

/// A submission's files for the jury and its owner only; a wrong password
/// is 401 (the public's answer would be 200).
fn files_and_credentials(server: &Server, site: &Site) {
    let jury = Api::new(
        server,
        "/api",
        "jury",
        Some(("teacher", &site.password("teacher"))),
    );
    let alice = Api::new(
        server,
        "/api",
        "alice",
        Some(("alice", &site.password("alice"))),
    );
    let submissions = jury.ok(&format!("{CONTEST}/submissions"));
    for submission in submissions.as_array().unwrap() {
        let href = submission["files"][0]["href"].as_str().unwrap();
        let path = href.strip_prefix("/api").unwrap();
        let got = jury.get(path);
        assert_eq!(
            (got.status, got.content_type.as_str()),
            (200, "application/zip"),
            "{href}"
        );
        // One file at the archive's root: the source as submitted.
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(got.bytes)).unwrap();
        assert_eq!(archive.len(), 1, "{href}");
        let mut source = String::new();
        std::io::Read::read_to_string(&mut archive.by_index(0).unwrap(), &mut source).unwrap();
        assert!(!source.is_empty() && !archive.name_for_index(0).unwrap().contains('/'));
        let own = submission["team_id"] == alice.ok(&format!("{CONTEST}/account"))["team_id"];
        assert_eq!(
            alice.get(path).status,
            if own { 200 } else { 404 },
            "{href}"
        );
    }
    let wrong = Api::new(server, "/api", "a wrong password", Some(("alice", "guess")));
    wrong.refused(&format!("{CONTEST}/teams"), 401);
    let unknown = Api::new(server, "/api", "nobody known", Some(("mallory", "guess")));
    unknown.refused(&format!("{CONTEST}/teams"), 401);
}

/// `--export-contest`: the jury's 2023-06 view on disk, read from the
/// store while the server runs, equal to what the server answers.
fn the_contest_package(site: &Site, session: &std::path::Path, server: &Server) {
    let dir = site.root().join("package");
    let out = crate::support::judge_at(site.root())
        .args([
            "serve",
            "--session",
            session.to_str().unwrap(),
            "--export-contest",
        ])
        .arg(&dir)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("(4 submissions)"), "{said}");
    let schemas = Schemas::load("2023-06");
    let jury = Api::new(
        server,
        "/api",
        "jury",
        Some(("teacher", &site.password("teacher"))),
    );
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
    };
    schemas.check("api_information", &read("api.json"), "api.json");
    schemas.check("contest", &read("contest.json"), "contest.json");
    for kind in [
        "judgement-types",
        "languages",
        "problems",
        "groups",
        "teams",
        "accounts",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
        "awards",
    ] {
        let file = read(&format!("{kind}.json"));
        schemas.check(kind, &file, &format!("{kind}.json"));
        assert_eq!(file, jury.ok(&format!("{CONTEST}/{kind}")), "{kind}.json");
    }
    schemas.check("state", &read("state.json"), "state.json");
    schemas.check("scoreboard", &read("scoreboard.json"), "scoreboard.json");
    for submission in read("submissions.json").as_array().unwrap() {
        let id = submission["id"].as_str().unwrap();
        assert!(
            dir.join(format!("submissions/{id}/files.zip")).is_file(),
            "{id}"
        );
    }
    let feed = std::fs::read_to_string(dir.join("event-feed.ndjson")).unwrap();
    for line in feed.lines() {
        schemas.check(
            "event-feed",
            &serde_json::from_str(line).unwrap(),
            "event-feed.ndjson",
        );
    }
    assert_eq!(
        feed.lines().count(),
        feed_lines(&jury, &format!("{CONTEST}/event-feed?stream=false")).len()
    );
}

fn the_feed_streams_resumes_and_ends_with_the_server(mut server: Server, site: &Site) {
    let jury = Api::new(
        &server,
        "/api/2026-01",
        "jury",
        Some(("teacher", &site.password("teacher"))),
    );
    let feed = format!("{CONTEST}/event-feed");
    let full = feed_lines(&jury, &format!("{feed}?stream=false"));
    // Resumption is exact: after a token, exactly what followed it.
    for at in [0, full.len() / 2, full.len() - 1] {
        let token = full[at]["token"].as_str().unwrap();
        let resumed = feed_lines(&jury, &format!("{feed}?stream=false&since_token={token}"));
        assert_eq!(resumed, full[at + 1..], "after token {token}");
    }
    let filtered = feed_lines(
        &jury,
        &format!("{feed}?stream=false&types=submissions,judgements"),
    );
    let wanted: Vec<&Value> = full
        .iter()
        .filter(|e| e["type"] == "submissions" || e["type"] == "judgements")
        .collect();
    assert_eq!(filtered.iter().collect::<Vec<_>>(), wanted);
    // A feed that stays open: a new submission's events arrive on it.
    let (lines, received) = mpsc::channel::<String>();
    let url = format!("{}{feed}", jury.base);
    let auth = jury.auth.clone().unwrap();
    std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().proxy(None).build().into();
        let response = agent
            .get(&url)
            .header("Authorization", &auth)
            .call()
            .unwrap();
        let reader = std::io::BufReader::new(response.into_body().into_reader());
        for line in reader.lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
        let _ = lines.send("<end>".into());
    });
    let next = |limit: Duration| {
        received
            .recv_timeout(limit)
            .unwrap_or_else(|_| panic!("the feed said nothing in {limit:?}"))
    };
    for event in &full {
        let line = next(Duration::from_secs(30));
        assert_eq!(
            serde_json::from_str::<Value>(&line).unwrap()["token"],
            event["token"]
        );
    }
    let (id, verdict) = judged(&server, site, "alice", "sum", "sum/WA/missing_line.py");
    let id = id.to_string();
    assert_eq!(verdict, "WA");
    let deadline = Instant::now() + JUDGE_DEADLINE;
    let mut seen_judgement = false;
    while !seen_judgement {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = next(left);
        assert_ne!(line, "<end>", "the feed ended");
        if line.trim().is_empty() {
            continue;
        }
        let event: Value = serde_json::from_str(&line).unwrap();
        seen_judgement = event["type"] == "judgements"
            && event["data"]["submission_id"] == id.as_str()
            && event["data"]["judgement_type_id"] == "WA";
    }
    // SIGTERM with the feed open: the server ends, and so does the feed.
    let started = Instant::now();
    server.signal(libc::SIGTERM);
    let status = server.wait_within(Duration::from_secs(30));
    assert!(status.success(), "{status:?} after {:?}", started.elapsed());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let line = next(deadline.saturating_duration_since(Instant::now()));
        if line == "<end>" {
            break;
        }
    }
}

/// Open-ended practice scored by points: the other scoreboard type (score
/// rows, judgement scores, problems' maximum scores) and a contest with no
/// schedule pass too, for the public and the jury.
#[test]
fn an_open_ended_points_session_passes_both_versions_schemas() {
    let site = Site::new(USERS);
    let session = site.write(
        "club.toml",
        "name = \"club\"\ntitle = \"Club\"\nscoring = \"points\"\nproblems = [\"sum\"]\n",
    );
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    assert_eq!(
        judged(&server, &site, "alice", "sum", "sum/AC/sum.py").1,
        "AC"
    );
    assert_eq!(
        judged(&server, &site, "bob", "sum", "sum/WA/missing_line.py").1,
        "WA"
    );
    for (base, version) in [("/api", "2023-06"), ("/api/2026-01", "2026-01")] {
        let schemas = Schemas::load(version);
        walk(&Api::new(&server, base, "public", None), &schemas, "club");
        let jury = Api::new(
            &server,
            base,
            "jury",
            Some(("teacher", &site.password("teacher"))),
        );
        let seen = walk(&jury, &schemas, "club");
        assert_eq!(seen.endpoints["contests"]["scoreboard_type"], "score");
        let rows = seen.endpoints["scoreboard"]["rows"].as_array().unwrap();
        assert_eq!(rows[0]["score"]["score"], 1.0, "{version}");
        let scores: Vec<&Value> = seen.endpoints["judgements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| &j["score"])
            .collect();
        assert_eq!(scores, [&json!(1.0), &json!(0.0)], "{version}");
        assert!(seen.endpoints["state"]["ended"].is_null(), "{version}");
    }
}
