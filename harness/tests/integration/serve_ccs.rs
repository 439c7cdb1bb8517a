//! The CCS Contest API against a real server: a timed contest with
//! participants, submissions judged AC, WA and CE, clarifications and a
//! freeze; every endpoint and object of both versions walked as the
//! public, a participant and the jury (HTTP basic auth), each body checked
//! against its official schema strictly, and the event feed checked
//! against the REST endpoints as the official consistency check does.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime};

use base64::Engine;
use serde_json::{Value, json};

use crate::ccs_schemas::Schemas;
use crate::serve_server::{Server, Site, submitted_id};

pub const USERS: &str = "user,display name,team,role\n\
                         alice,Alice Liddell,red,participant\n\
                         bob,Bob Bold,blue team,participant\n\
                         teacher,The Teacher,,jury\n";

/// A reply's status, content type and body.
pub struct Got {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    pub bytes: Vec<u8>,
}

impl Got {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// A CCS client: a base URL and, perhaps, basic credentials.
#[derive(Clone)]
pub struct Api {
    pub base: String,
    pub auth: Option<String>,
    pub who: &'static str,
}

impl Api {
    pub fn new(server: &Server, base: &str, who: &'static str, login: Option<(&str, &str)>) -> Api {
        let auth = login.map(|(user, password)| {
            let encoded =
                base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
            format!("Basic {encoded}")
        });
        Api {
            base: format!("{}{base}", server.url),
            auth,
            who,
        }
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into()
    }

    pub fn get(&self, path: &str) -> Got {
        let mut request = Api::agent().get(&format!("{}{path}", self.base));
        if let Some(auth) = &self.auth {
            request = request.header("Authorization", auth);
        }
        let response = request.call().unwrap();
        Api::take(response)
    }

    pub fn post(&self, path: &str, body: &Value) -> Got {
        let mut request = Api::agent().post(&format!("{}{path}", self.base));
        if let Some(auth) = &self.auth {
            request = request.header("Authorization", auth);
        }
        Api::take(request.send_json(body).unwrap())
    }

    fn take(response: ureq::http::Response<ureq::Body>) -> Got {
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let bytes = response
            .into_body()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap_or_default();
        Got {
            status,
            content_type,
            body: String::from_utf8_lossy(&bytes).into_owned(),
            bytes,
        }
    }

    /// A JSON body that must come with 200.
    pub fn ok(&self, path: &str) -> Value {
        let got = self.get(path);
        assert_eq!(got.status, 200, "{} GET {path}: {}", self.who, got.body);
        got.json()
    }

    /// A refusal with the spec's body.
    pub fn refused(&self, path: &str, status: u16) {
        let got = self.get(path);
        assert_eq!(got.status, status, "{} GET {path}: {}", self.who, got.body);
        let body = got.json();
        assert_eq!(body["code"], status, "{} GET {path}: {body}", self.who);
        assert!(body["message"].is_string(), "{body}");
        assert_eq!(body.as_object().unwrap().len(), 2, "{body}");
    }
}

/// The singular schema of a collection's objects.
fn singular(kind: &str) -> &str {
    match kind {
        "judgement-types" => "judgement-type",
        "languages" => "language",
        "problems" => "problem",
        "groups" => "group",
        "organizations" => "organization",
        "teams" => "team",
        "accounts" => "account",
        "submissions" => "submission",
        "judgements" => "judgement",
        "runs" => "run",
        "clarifications" => "clarification",
        "awards" => "award",
        other => panic!("no schema for {other}"),
    }
}

/// What one walk saw: each endpoint's body.
pub struct Walk {
    pub endpoints: BTreeMap<String, Value>,
}

/// Every endpoint `api` is offered, each body and object checked.
pub fn walk(api: &Api, schemas: &Schemas, contest: &str) -> Walk {
    let what = |path: &str| format!("{} {path}", api.who);
    let info = api.ok("/");
    schemas.check("api_information", &info, &what("/"));
    assert_eq!(info["version"], schemas.version);
    let contests = api.ok("/contests");
    schemas.check("contests", &contests, &what("contests"));
    assert_eq!(contests[0]["id"], contest);
    let prefix = format!("/contests/{contest}");
    let one = api.ok(&prefix);
    schemas.check("contest", &one, &what(&prefix));
    assert_eq!(one, contests[0]);
    let access = api.ok(&format!("{prefix}/access"));
    schemas.check("access", &access, &what("access"));
    let mut endpoints = BTreeMap::new();
    endpoints.insert("contests".to_string(), one);
    let mut offered = BTreeSet::new();
    for endpoint in access["endpoints"].as_array().unwrap() {
        let kind = endpoint["type"].as_str().unwrap();
        offered.insert(kind.to_string());
        let properties: BTreeSet<&str> = endpoint["properties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let path = format!("{prefix}/{kind}");
        let body = match kind {
            "contest" => continue,
            "event-feed" => continue,
            "state" | "scoreboard" => {
                let body = api.ok(&path);
                schemas.check(kind, &body, &what(&path));
                body
            }
            _ => {
                let body = api.ok(&path);
                schemas.check(kind, &body, &what(&path));
                let mut ids = BTreeSet::new();
                for object in body.as_array().unwrap() {
                    let id = object["id"].as_str().unwrap();
                    assert!(ids.insert(id.to_string()), "{} {kind}: {id} twice", api.who);
                    let single = api.ok(&format!("{path}/{id}"));
                    schemas.check(singular(kind), &single, &what(&format!("{path}/{id}")));
                    assert_eq!(&single, object, "{} {path}/{id}", api.who);
                }
                body
            }
        };
        let objects = body
            .as_array()
            .cloned()
            .unwrap_or_else(|| vec![body.clone()]);
        for object in &objects {
            for key in object.as_object().unwrap().keys() {
                assert!(
                    properties.contains(key.as_str()),
                    "{} {kind}: `{key}` is not in access's list {properties:?}",
                    api.who
                );
            }
        }
        endpoints.insert(kind.to_string(), body);
    }
    // What access does not offer is not there, and says so as the spec asks.
    for kind in [
        "submissions",
        "judgements",
        "runs",
        "accounts",
        "persons",
        "commentary",
    ] {
        if !offered.contains(kind) {
            api.refused(&format!("{prefix}/{kind}"), 404);
        }
    }
    for missing in [
        "doesnt-exist",
        "doesnt-exist/42",
        "teams/999999",
        "problems/xyz9999",
    ] {
        api.refused(&format!("{prefix}/{missing}"), 404);
    }
    api.refused("/contests/no-such-contest", 404);
    api.refused(&format!("{prefix}/event-feed?since_id=999999"), 400);
    api.refused(&format!("{prefix}/event-feed?since_token=xY-99_"), 400);
    let feed = feed_lines(api, &format!("{prefix}/event-feed?stream=false"));
    for (n, line) in feed.iter().enumerate() {
        schemas.check(
            "event-feed",
            line,
            &what(&format!("event-feed line {}", n + 1)),
        );
    }
    consistent(api.who, &endpoints, &feed);
    Walk { endpoints }
}

/// The NDJSON lines of a feed that ends (`stream=false`).
pub fn feed_lines(api: &Api, path: &str) -> Vec<Value> {
    let got = api.get(path);
    assert_eq!(got.status, 200, "{} {path}: {}", api.who, got.body);
    assert_eq!(got.content_type, "application/x-ndjson");
    got.body
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// As the official consistency check: every id once per collection, every
/// reference resolves, and each object's last event is what its REST
/// endpoint says (and nothing the feed has alive is missing there).
fn consistent(who: &str, endpoints: &BTreeMap<String, Value>, feed: &[Value]) {
    let ids = |kind: &str| -> BTreeSet<String> {
        endpoints
            .get(kind)
            .and_then(Value::as_array)
            .map(|objects| {
                objects
                    .iter()
                    .map(|o| o["id"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let resolves = |kind: &str, value: &Value, target: &str| {
        let wanted: Vec<&str> = match value {
            Value::Null => Vec::new(),
            Value::String(id) => vec![id],
            Value::Array(ids) => ids.iter().map(|i| i.as_str().unwrap()).collect(),
            other => panic!("{who} {kind}: a reference {other}"),
        };
        for id in wanted {
            assert!(
                ids(target).contains(id),
                "{who} {kind} refers to {target}/{id}, which is not there"
            );
        }
    };
    let references: &[(&str, &str, &str)] = &[
        ("teams", "group_ids", "groups"),
        ("accounts", "team_id", "teams"),
        ("submissions", "team_id", "teams"),
        ("submissions", "problem_id", "problems"),
        ("submissions", "language_id", "languages"),
        ("judgements", "submission_id", "submissions"),
        ("judgements", "judgement_type_id", "judgement-types"),
        ("runs", "judgement_id", "judgements"),
        ("runs", "judgement_type_id", "judgement-types"),
        ("clarifications", "from_team_id", "teams"),
        ("clarifications", "to_team_id", "teams"),
        ("clarifications", "to_team_ids", "teams"),
        ("clarifications", "reply_to_id", "clarifications"),
        ("clarifications", "problem_id", "problems"),
        ("awards", "team_ids", "teams"),
    ];
    for (kind, key, target) in references {
        for object in endpoints
            .get(*kind)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            resolves(kind, object.get(*key).unwrap_or(&Value::Null), target);
        }
    }
    if let Some(board) = endpoints.get("scoreboard") {
        for row in board["rows"].as_array().unwrap() {
            resolves("scoreboard", &row["team_id"], "teams");
            for cell in row["problems"].as_array().unwrap() {
                resolves("scoreboard", &cell["problem_id"], "problems");
            }
        }
    }
    let mut last: BTreeMap<(String, String), Value> = BTreeMap::new();
    for event in feed {
        let kind = match event["type"].as_str().unwrap() {
            "contest" => "contests",
            other => other,
        };
        let id = event["id"].as_str().unwrap_or("_single_").to_string();
        last.insert((kind.to_string(), id), event["data"].clone());
    }
    for ((kind, id), data) in &last {
        let rest = match endpoints.get(kind) {
            Some(Value::Array(objects)) => objects.iter().find(|o| o["id"] == json!(id)).cloned(),
            Some(single) => Some(single.clone()),
            None => panic!("{who}: the feed has {kind}, which access does not offer"),
        };
        match (data, rest) {
            (Value::Null, None) => {}
            (Value::Null, Some(object)) => {
                panic!("{who}: {kind}/{id} deleted in the feed: {object}")
            }
            (data, Some(object)) => assert_eq!(data, &object, "{who}: {kind}/{id} feed vs REST"),
            (data, None) => panic!("{who}: {kind}/{id} in the feed, not in REST: {data}"),
        }
    }
    for (kind, body) in endpoints {
        for object in body
            .as_array()
            .cloned()
            .unwrap_or_else(|| vec![body.clone()])
        {
            // The contest and the state are one object each: no id.
            let id = match body {
                Value::Array(_) => object["id"].as_str().unwrap().to_string(),
                _ => "_single_".to_string(),
            };
            if kind != "scoreboard" {
                assert!(
                    last.contains_key(&(kind.clone(), id.clone())),
                    "{who}: {kind}/{id} not in the feed"
                );
            }
        }
    }
}

/// The session file of a contest that started `started_ago` before now
/// and ends `left` after it; frozen from `frozen_at` on, if given.
pub fn contest_file(start: SystemTime, end: SystemTime, freeze_from: Option<SystemTime>) -> String {
    let text = |t: SystemTime| humantime::format_rfc3339_seconds(t).to_string();
    let freeze = freeze_from.map_or_else(String::new, |f| {
        let before_end = end.duration_since(f).unwrap().as_secs();
        format!("freeze = \"{before_end}s\"\n")
    });
    format!(
        "name = \"warmup\"\ntitle = \"Warm-up\"\nproblems = [\"sum\", \"guess\"]\n\
         start = \"{}\"\nend = \"{}\"\n{freeze}feedback = \"tests\"\n\
         [limits]\nsubmissions-per-minute = 100\n[medals]\ngold = 1\nsilver = 1\n",
        text(start),
        text(end)
    )
}

/// Submits through the pages and waits for the verdict.
pub fn judged(
    server: &Server,
    site: &Site,
    user: &str,
    problem: &str,
    file: &str,
) -> (i64, String) {
    let mut browser = server.client();
    browser.login(user, &site.password(user));
    let id = submitted_id(&browser.submit(problem, &site.submission(file)));
    let (verdict, _) = browser.verdict(id);
    (id, verdict)
}
