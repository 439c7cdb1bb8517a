//! `judge users import` (accounts from a CSV file, passwords written
//! once), and `judge submit` against a server on 127.0.0.1 that answers
//! as `judge serve` does.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;

use super::{Bench, assert_shows, double, double_script, write};
use crate::cli::{SubmitArgs, UsersCommand};
use crate::commands::serving::users;
use crate::exit_codes;
use crate::serve::submit_to;

#[test]
fn users_import_creates_accounts_and_writes_their_passwords_once() {
    let mut bench = Bench::new(double, double_script);
    let root = bench.root.path().to_path_buf();
    write(
        &root,
        "users.csv",
        "user,display name,team,role\nada,Ada L.,red,participant\nbob,,blue,jury\n",
    );
    let import = |file: &str, passwords: &str| UsersCommand::Import {
        file: root.join(file),
        passwords: Some(root.join(passwords)),
        reset_passwords: false,
        db: Some(root.join("serve.db")),
    };

    let code = users(&mut bench.ctx, &import("users.csv", "first.csv")).unwrap();
    assert_eq!(code, exit_codes::OK);
    let text = bench.text();
    let written = root.join("first.csv");
    assert_eq!(
        text,
        format!(
            "2 accounts created, 0 updated\nnew passwords written to {} (hand them out, then delete the file)\n",
            written.display()
        )
    );
    let passwords = std::fs::read_to_string(&written).unwrap();
    let rows: Vec<&str> = passwords.lines().collect();
    assert_eq!(rows.len(), 3, "{passwords}");
    assert!(rows[1].starts_with("ada,") && rows[2].starts_with("bob,"));
    let mode = std::os::unix::fs::PermissionsExt::mode(&written.metadata().unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "only its owner reads it");

    // Again: the accounts are updated, nobody gets a new password.
    users(&mut bench.ctx, &import("users.csv", "second.csv")).unwrap();
    assert_eq!(
        &bench.text()[text.len()..],
        "0 accounts created, 2 updated\n"
    );
    assert!(!root.join("second.csv").exists());

    // A bad row names its line and field; nothing is imported.
    write(&root, "bad.csv", "user,role\ncat,participant\ndan,admin\n");
    let error = users(&mut bench.ctx, &import("bad.csv", "third.csv")).unwrap_err();
    let error = error.to_string();
    let wanted = "bad.csv:3: key `role`: `admin`: write `participant` or `jury`";
    assert!(error.ends_with(wanted), "{error}");
    assert!(!root.join("third.csv").exists());
    assert_eq!(bench.boxes.runs(), 0);
}

/// What the stand-in server keeps: the live events' sender, once a
/// client listens, and the submissions it was sent.
#[derive(Clone, Default)]
struct Served {
    events: Arc<Mutex<Option<mpsc::Sender<String>>>>,
    sent: Arc<Mutex<Vec<Value>>>,
}

const TOKEN: &str = "Bearer t0ken";

fn authorized(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(TOKEN)
}

/// The live events: what `submission` sends, then the end of the stream.
async fn events(State(served): State<Served>, headers: HeaderMap) -> (StatusCode, Body) {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, Body::empty());
    }
    let (sender, receiver) = mpsc::channel::<String>(8);
    *served.events.lock().unwrap() = Some(sender);
    let stream = tokio_stream::wrappers::ReceiverStream::new(receiver)
        .map(Ok::<_, std::convert::Infallible>);
    (StatusCode::OK, Body::from_stream(stream))
}

/// Takes submission 7 (problem `double` only) and plays its judging on
/// the live events, with another submission's event between.
async fn submission(
    State(served): State<Served>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "log in"})));
    }
    if body["problem"] != "double" {
        let error = format!("no problem `{}`", body["problem"].as_str().unwrap_or(""));
        return (StatusCode::BAD_REQUEST, Json(json!({ "error": error })));
    }
    served.sent.lock().unwrap().push(body);
    let sender = served
        .events
        .lock()
        .unwrap()
        .take()
        .expect("a client listens");
    tokio::spawn(async move {
        for event in [
            json!({"entry": 7, "status": "compiling"}),
            json!({"entry": 8, "status": "someone else's"}),
            json!({"entry": 7, "status": "test 1 of 3\u{1b}[2J"}),
            json!({"entry": 7, "status": "WA", "verdict": "WA"}),
        ] {
            let _ = sender.send(format!("data: {event}\n\n")).await;
        }
    });
    (StatusCode::CREATED, Json(json!({"id": 7})))
}

async fn result(headers: HeaderMap) -> (StatusCode, Json<Value>) {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "log in"})));
    }
    let test = json!({"test": "secret/1", "verdict": "WA", "cpu_ms": 3, "memory_kib": 900,
                      "detail": "", "expected": "2", "actual": "3"});
    let result = json!({"verdict": "WA", "tests": [test], "summary": "1 of 3 tests passed"});
    (StatusCode::OK, Json(result))
}

/// A server on 127.0.0.1 that answers `judge submit` as `judge serve`
/// does, on a runtime of its own; its address and what it was sent.
fn stand_in() -> (tokio::runtime::Runtime, String, Served) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let served = Served::default();
    let app = axum::Router::new()
        .route("/events", get(events))
        .route("/api/v1/submissions", post(submission))
        .route("/api/v1/submissions/7", get(result))
        .with_state(served.clone());
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    runtime.spawn(async move { axum::serve(listener, app).await });
    (runtime, address, served)
}

#[test]
fn submit_follows_its_submission_to_the_verdict() {
    let bench = Bench::new(double, double_script);
    let root = bench.root.path();
    let (runtime, server, served) = stand_in();
    write(root, "mine.py", "print(int(input()))\n");
    let config = root.join("submit.toml");
    std::fs::write(
        &config,
        format!("server = \"{server}/\"\ntoken = \"t0ken\"\n"),
    )
    .unwrap();
    let args = |id: &str| SubmitArgs {
        id: id.into(),
        file: root.join("mine.py"),
        server: None,
        language: Some("python".into()),
        user: None,
        config: Some(config.clone()),
    };

    let mut out = Vec::new();
    let code = submit_to(&args("double"), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(code, 1, "a WA: {text}");
    assert_eq!(
        text,
        "submission 7: received\nsubmission 7: compiling\nsubmission 7: test 1 of 3\\x1b[2J\n\
         submission 7: WA\nverdict: WA\n  secret/1         WA        3 ms      900 KiB \n      \
         expected 2, got 3\n1 of 3 tests passed\n"
    );
    let sent = served.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["file_name"], "mine.py");
    assert_eq!(sent[0]["language"], "python");
    assert_eq!(sent[0]["source"], "print(int(input()))\n");

    // The server's refusal is the error, with its reason.
    let error = submit_to(&args("other"), &mut Vec::new()).unwrap_err();
    assert_shows(&error.to_string(), "400 Bad Request: no problem `other`");
    // No token yet: nothing is sent.
    std::fs::write(&config, format!("server = \"{server}\"\n")).unwrap();
    let error = submit_to(&args("double"), &mut Vec::new()).unwrap_err();
    assert_shows(
        &error.to_string(),
        "no token yet: log in once with --user NAME",
    );
    assert_eq!(served.sent.lock().unwrap().len(), 1);
    runtime.shutdown_timeout(Duration::from_secs(1));
}
