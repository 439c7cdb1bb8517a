//! `judge users import` (accounts from a CSV file, passwords written
//! once), and `judge submit` against a server on 127.0.0.1 that answers
//! as `judge serve` does.

use std::path::Path;
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
use crate::serve::{Shown, submit_to};

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

/// The events the stand-in plays for a submission to `problem`, and the
/// id it gets: `double` is judged (another submission's status between),
/// `missed` is told its stream missed events before its verdict, `ended`
/// sees its stream end unjudged.
fn judging_of(problem: &str) -> Option<(i64, Vec<String>)> {
    let data = |event: Value| format!("event: status\ndata: {event}\n\n");
    let compiling = |id: i64| data(json!({"entry": id, "status": "compiling"}));
    match problem {
        "double" => Some((
            7,
            vec![
                compiling(7),
                data(json!({"entry": 8, "status": "someone else's"})),
                data(json!({"entry": 7, "status": "test 1 of 3\u{1b}[2J"})),
                data(json!({"entry": 7, "status": "WA", "verdict": "WA"})),
            ],
        )),
        "missed" => Some((
            8,
            vec![compiling(8), "event: reload\ndata: missed\n\n".into()],
        )),
        "ended" => Some((9, vec![compiling(9)])),
        _ => None,
    }
}

/// Takes a submission to a problem `judging_of` knows and plays its
/// judging on the live events.
async fn submission(
    State(served): State<Served>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "log in"})));
    }
    let problem = body["problem"].as_str().unwrap_or("").to_string();
    let Some((id, events)) = judging_of(&problem) else {
        let error = format!("no problem `{problem}`");
        return (StatusCode::BAD_REQUEST, Json(json!({ "error": error })));
    };
    served.sent.lock().unwrap().push(body);
    let sender = served
        .events
        .lock()
        .unwrap()
        .take()
        .expect("a client listens");
    tokio::spawn(async move {
        for event in events {
            let _ = sender.send(event).await;
        }
        // The stream ends here (the sender dropped).
    });
    let url = format!("/submissions/{id}");
    (StatusCode::CREATED, Json(json!({"id": id, "url": url})))
}

/// Submissions 7 and 8 judged (WA, AC), 9 still running.
async fn result(
    headers: HeaderMap,
    axum::extract::Path(id): axum::extract::Path<i64>,
) -> (StatusCode, Json<Value>) {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "log in"})));
    }
    let test = json!({"test": "secret/1", "verdict": "WA", "cpu_ms": null, "memory_kib": null,
                      "time": "within limit", "memory": "within limit",
                      "detail": "", "expected": "", "actual": "", "diff": ""});
    let result = match id {
        7 => json!({"verdict": "WA", "tests": [test], "summary": "1 of 3 tests passed"}),
        8 => json!({"verdict": "AC", "status": "judged", "tests": []}),
        _ => json!({"verdict": null, "status": "test 2 of 3"}),
    };
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
        .route("/api/v1/submissions/{id}", get(result))
        .with_state(served.clone());
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    runtime.spawn(async move { axum::serve(listener, app).await });
    (runtime, address, served)
}

/// `judge submit` of `mine.py` to `problem` with the config `config`, as
/// on a terminal when `live`: (its result, what it showed).
fn submit_as(problem: &str, config: &Path, live: bool) -> (crate::errors::Result<u8>, String) {
    let args = SubmitArgs {
        id: problem.into(),
        file: config.with_file_name("mine.py"),
        server: None,
        language: Some("python".into()),
        user: None,
        config: Some(config.to_path_buf()),
    };
    let mut out = Vec::new();
    let styles = crate::report::Styles { colour: false };
    let result = submit_to(&args, &mut Shown::new(&mut out, live, styles));
    (result, String::from_utf8(out).unwrap())
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

    let (code, text) = submit_as("double", &config, false);
    assert_eq!(code.unwrap(), 1, "a WA: {text}");
    assert_eq!(
        text,
        format!(
            "submission 7: received, {server}/submissions/7\n\
             submission 7: compiling\nsubmission 7: test 1 of 3\\x1b[2J\n\
             verdict: WA on secret/1 · 1 test run\n\
             \x20 WA  secret/1  within limit  within limit\n\
             1 of 3 tests passed\n\
             the submission's page: {server}/submissions/7\n"
        )
    );
    let sent = served.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["file_name"], "mine.py");
    assert_eq!(sent[0]["language"], "python");
    assert_eq!(sent[0]["source"], "print(int(input()))\n");

    // On a terminal: the status is one line, redrawn; the result stays.
    let (code, text) = submit_as("double", &config, true);
    assert_eq!(code.unwrap(), 1, "{text}");
    assert!(
        text.contains("\r\x1b[2Ksubmission 7: compiling\r\x1b[2Ksubmission 7: test 1 of 3"),
        "{text:?}"
    );
    assert!(
        text.contains("\r\x1b[2Kverdict: WA on secret/1"),
        "{text:?}"
    );
    assert_eq!(text.matches('\n').count(), 5, "{text:?}");

    // Events missed: the API tells the verdict.
    let (code, text) = submit_as("missed", &config, false);
    assert_eq!(code.unwrap(), 0, "{text}");
    assert_shows(&text, "verdict: AC");
    // The stream ends unjudged: the server's failure, with the page to look at.
    let (code, text) = submit_as("ended", &config, false);
    let error = code.unwrap_err();
    assert_eq!(error.exit_code(), exit_codes::INTERNAL, "{text}");
    assert_shows(
        &error.to_string(),
        "the live status ended before the verdict; the submission's page: ",
    );

    // The server's refusal is the user's to mend, with its reason.
    let error = submit_as("other", &config, false).0.unwrap_err();
    assert_shows(&error.to_string(), "no problem `other` (400 Bad Request)");
    assert_eq!(error.exit_code(), exit_codes::USAGE);
    // A token the server no longer takes: log in again.
    std::fs::write(
        &config,
        format!("server = \"{server}\"\ntoken = \"expired\"\n"),
    )
    .unwrap();
    let error = submit_as("double", &config, false).0.unwrap_err();
    assert_shows(&error.to_string(), "log in again with --user NAME");
    assert_eq!(error.exit_code(), exit_codes::USAGE);
    // No token yet: nothing is sent.
    let sent = served.sent.lock().unwrap().len();
    std::fs::write(&config, format!("server = \"{server}\"\n")).unwrap();
    let error = submit_as("double", &config, false).0.unwrap_err();
    assert_shows(
        &error.to_string(),
        "no token yet: log in once with --user NAME",
    );
    assert_eq!(error.exit_code(), exit_codes::USAGE);
    assert_eq!(served.sent.lock().unwrap().len(), sent);
    runtime.shutdown_timeout(Duration::from_secs(1));
}
