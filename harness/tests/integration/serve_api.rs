//! `judge serve`'s JSON API and its CCS Contest API read side, against a
//! real server (`judge submit` on it: `serve_submit.rs`).

use std::time::Duration;

use crate::serve_server::{Server, Site};

const USERS: &str = "user,display name,team,role\nalice,Alice,red,participant\nbob,Bob,blue,participant\nteacher,Teacher,,jury\n";

fn json(reply: &crate::serve_server::Reply) -> serde_json::Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

#[test]
fn the_api_needs_a_token_for_submissions_and_shows_only_ones_own() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let mut anonymous = server.client();
    let problems = json(&anonymous.get("/api/v1/problems"));
    assert!(
        problems["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == "sum")
    );
    assert_eq!(anonymous.get("/api/v1/submissions").status, 401);

    let token = |user: &str| {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .proxy(None)
            .http_status_as_error(false)
            .build()
            .into();
        let body: serde_json::Value = agent
            .post(&format!("{}/api/v1/token", server.url))
            .send_json(serde_json::json!({ "username": user, "password": site.password(user) }))
            .unwrap()
            .into_body()
            .read_json()
            .unwrap();
        (agent, format!("Bearer {}", body["token"].as_str().unwrap()))
    };
    let (agent, alice) = token("alice");
    let source = std::fs::read_to_string(site.submission("sum/AC/sum.rs")).unwrap();
    let created: serde_json::Value = agent
        .post(&format!("{}/api/v1/submissions", server.url))
        .header("Authorization", &alice)
        .send_json(serde_json::json!({ "problem": "sum", "file_name": "sum.rs", "source": source }))
        .unwrap()
        .into_body()
        .read_json()
        .unwrap();
    let id = created["id"].as_i64().unwrap();
    let deadline = std::time::Instant::now() + crate::serve_server::JUDGE_DEADLINE;
    let judged = loop {
        let body: serde_json::Value = agent
            .get(&format!("{}/api/v1/submissions/{id}", server.url))
            .header("Authorization", &alice)
            .call()
            .unwrap()
            .into_body()
            .read_json()
            .unwrap();
        if body["verdict"].is_string() {
            break body;
        }
        assert!(std::time::Instant::now() < deadline, "{body}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(judged["verdict"], "AC");
    assert_eq!(judged["tests"].as_array().unwrap().len(), 5);
    let (agent, bob) = token("bob");
    let status = agent
        .get(&format!("{}/api/v1/submissions/{id}", server.url))
        .header("Authorization", &bob)
        .call()
        .unwrap()
        .status();
    assert_eq!(status, 404);
    // The API's writes take a token, not a browser's login cookie.
    let mut browser = server.client();
    browser.login("bob", &site.password("bob"));
    let with_cookie = agent
        .post(&format!("{}/api/v1/submissions", server.url))
        .header("Cookie", &browser.cookie_header())
        .send_json(serde_json::json!({ "problem": "sum", "file_name": "a.rs", "source": source }))
        .unwrap()
        .status();
    assert_eq!(with_cookie, 401);
    // A token does not stand in for a form's CSRF token.
    let status = agent
        .post(&format!("{}/logout", server.url))
        .header("Authorization", &bob)
        .send_form([("csrf", "")])
        .unwrap()
        .status();
    assert_eq!(status, 403);

    // The CCS API (walked in full by serve_ccs_contest.rs): public objects
    // for anybody, submissions and judgements with the token, the event
    // feed as NDJSON.
    let contests = json(&anonymous.get("/api/contests"));
    let contest = contests[0]["id"].as_str().unwrap().to_string();
    let teams = json(&anonymous.get(&format!("/api/contests/{contest}/teams")));
    let names: Vec<&str> = teams
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alice", "bob"]);
    assert_eq!(
        anonymous
            .get(&format!("/api/contests/{contest}/submissions"))
            .status,
        404
    );
    let board = json(&anonymous.get(&format!("/api/contests/{contest}/scoreboard")));
    assert_eq!(board["rows"][0]["team_id"], teams[0]["id"]);
    assert_eq!(board["rows"][0]["score"]["num_solved"], 1);
    let (agent, teacher) = token("teacher");
    let feed = agent
        .get(&format!(
            "{}/api/contests/{contest}/event-feed?stream=false",
            server.url
        ))
        .header("Authorization", &teacher)
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let kinds: Vec<String> = feed
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(kinds.first().map(String::as_str), Some("contest"));
    assert!(
        kinds.contains(&"submissions".to_string()) && kinds.contains(&"judgements".to_string()),
        "{feed}"
    );
    assert!(feed.contains("\"judgement_type_id\":\"AC\""), "{feed}");
}
