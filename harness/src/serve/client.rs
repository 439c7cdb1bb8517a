//! `judge submit ID FILE --server URL`: a learner's terminal as a client
//! of `judge serve`, on a blocking HTTP client (no async outside the
//! server). `--user NAME` logs in first (the password from stdin) and
//! keeps the server and its token in a config file only its owner reads
//! (`config`); then the file is sent and its status followed on the
//! server's live events until the verdict, which is shown with the
//! feedback the session allows (`show`). Exit 0 on AC, 1 on any other
//! verdict.
//!
//! Whose failure an error is decides its exit code: what the user can
//! mend (a wrong password, an unknown problem or language, no token yet,
//! no server at the address given) is a usage error (2); the server
//! failing or breaking off before the verdict is the judge's (5).

mod config;
mod show;

use std::io::{BufRead, IsTerminal};
use std::time::Duration;

use serde_json::{Value, json};
pub(crate) use show::Shown;

use crate::cli::SubmitArgs;
use crate::errors::{Error, Result};
use crate::report::Styles;

/// How long one submission may be followed before giving up.
const FOLLOW_LIMIT: Duration = Duration::from_secs(15 * 60);
/// How long any other exchange with the server may take.
const CALL_LIMIT: Duration = Duration::from_secs(60);

/// Why a call to the server gave no answer to use.
enum Failure {
    /// Nothing answered at the address (refused, no such host, a timeout).
    Unreachable(String),
    /// The server said no (a 4xx status): the request is the user's to mend.
    Refused { status: u16, why: String },
    /// The server failed (5xx) or answered what its API never says.
    Failed(String),
}

/// The server `judge submit` talks to.
struct Server {
    url: String,
    agent: ureq::Agent,
}

impl Server {
    fn new(url: &str) -> Server {
        Server {
            url: url.trim_end_matches('/').to_string(),
            agent: agent(CALL_LIMIT),
        }
    }

    /// A failure as the judge's error, for a call whose server may be
    /// the wrong address (the first contact: unreachable is the user's).
    fn error(&self, failure: Failure) -> Error {
        match failure {
            Failure::Unreachable(why) => Error::Usage(format!(
                "cannot reach {}: {why} (is `judge serve` running there? check --server)",
                self.url
            )),
            Failure::Refused { status: 401, why } => Error::Usage(format!(
                "{}: {why}: log in again with --user NAME (the password on stdin)",
                self.url
            )),
            Failure::Refused { why, .. } => Error::Usage(format!("{}: {why}", self.url)),
            Failure::Failed(why) => self.failed(why),
        }
    }

    fn failed(&self, message: String) -> Error {
        Error::Remote {
            server: self.url.clone(),
            message,
        }
    }

    /// A JSON answer, or why there is none (the server's `error` when it
    /// refused).
    fn answer(
        response: std::result::Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> std::result::Result<Value, Failure> {
        let response = response.map_err(|e| Failure::Unreachable(e.to_string()))?;
        let status = response.status();
        let body = response.into_body().read_json::<Value>();
        match (status.as_u16(), body) {
            (200..=299, Ok(body)) => Ok(body),
            (200..=299, Err(e)) => Err(Failure::Failed(format!(
                "answered what is not the judge's API ({status}: {e})"
            ))),
            (code, body) => {
                let reason = body
                    .ok()
                    .and_then(|b| b["error"].as_str().map(crate::escape::name))
                    .unwrap_or_else(|| "no reason given".into());
                let why = format!("{reason} ({status})");
                Err(match code {
                    400..=499 => Failure::Refused { status: code, why },
                    _ => Failure::Failed(why),
                })
            }
        }
    }

    /// A new API token for `user`.
    fn token(&self, user: &str, password: &str) -> Result<String> {
        let body = Server::answer(
            self.agent
                .post(&format!("{}/api/v1/token", self.url))
                .send_json(json!({
                    "username": user, "password": password, "label": "judge submit",
                })),
        )
        .map_err(|failure| match failure {
            // A wrong password: the server's words say it all.
            Failure::Refused { why, .. } => Error::Usage(format!("{}: {why}", self.url)),
            failure => self.error(failure),
        })?;
        body["token"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| self.failed("no token in its answer".into()))
    }

    /// Submission `id` as the API shows it to the token's owner.
    fn submission(&self, bearer: &str, id: i64) -> std::result::Result<Value, Failure> {
        Server::answer(
            self.agent
                .get(&format!("{}/api/v1/submissions/{id}", self.url))
                .header("Authorization", bearer)
                .call(),
        )
    }
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .build()
        .into()
}

/// `judge submit`, on stdout: a terminal gets the live status line.
pub(crate) fn submit(args: &SubmitArgs, styles: Styles) -> Result<u8> {
    let stdout = std::io::stdout();
    let live = stdout.is_terminal();
    let mut out = stdout.lock();
    submit_to(args, &mut Shown::new(&mut out, live, styles))
}

/// `submit`, saying how it goes on `shown`.
pub(crate) fn submit_to(args: &SubmitArgs, shown: &mut Shown<'_>) -> Result<u8> {
    let config = config::path(
        args.config.as_deref(),
        std::env::var_os("XDG_CONFIG_HOME"),
        std::env::var_os("HOME"),
    );
    let mut saved = match &config {
        Some(path) => config::read(path)?,
        None => config::Saved::default(),
    };
    let url = args
        .server
        .as_deref()
        .or(saved.server.as_deref())
        .ok_or_else(|| Error::Usage("which server? pass --server URL".into()))?;
    let server = Server::new(url);
    if let Some(user) = &args.user {
        let Some(path) = &config else {
            return Err(Error::Usage(
                "no place to keep the token: pass --config FILE (or set HOME)".into(),
            ));
        };
        let token = server.token(user, &password(user, &server.url)?)?;
        saved = config::Saved {
            server: Some(server.url.clone()),
            token: Some(token),
        };
        config::write(path, &saved)?;
    }
    let token = token_for(&saved, &server.url, config.as_deref())?;
    let source = std::fs::read(&args.file)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", args.file.display())))?;
    let source = String::from_utf8(source)
        .map_err(|_| Error::Usage(format!("{} is not UTF-8 text", args.file.display())))?;
    send_and_follow(args, &server, &format!("Bearer {token}"), source, shown)
}

/// The token saved for `server`, or what to do to have one.
fn token_for(
    saved: &config::Saved,
    server: &str,
    config: Option<&std::path::Path>,
) -> Result<String> {
    let login = "log in once with --user NAME (the password on stdin)";
    match (&saved.token, &saved.server) {
        (Some(token), Some(known)) if known.trim_end_matches('/') == server => Ok(token.clone()),
        (Some(_), Some(known)) => Err(Error::Usage(format!(
            "the token in {} is for {known}, not {server}: {login}",
            config.map_or_else(|| "the config file".into(), |p| p.display().to_string())
        ))),
        _ => Err(Error::Usage(format!("no token yet: {login}"))),
    }
}

/// The password, read from stdin (a prompt first on a terminal).
fn password(user: &str, server: &str) -> Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("password of {user} on {server}: ");
    }
    let mut password = String::new();
    stdin
        .lock()
        .read_line(&mut password)
        .map_err(|e| Error::Usage(format!("cannot read the password from stdin: {e}")))?;
    Ok(password.trim_end_matches(['\r', '\n']).to_string())
}

/// Sends the file, follows its status to the verdict and shows the result.
fn send_and_follow(
    args: &SubmitArgs,
    server: &Server,
    bearer: &str,
    source: String,
    shown: &mut Shown<'_>,
) -> Result<u8> {
    // Listening before sending: no status is missed, however fast.
    let events = agent(FOLLOW_LIMIT)
        .get(&format!("{}/events", server.url))
        .header("Authorization", bearer)
        .call()
        .map_err(|e| server.error(Failure::Unreachable(e.to_string())))?;
    if !events.status().is_success() {
        return Err(server.error(match Server::answer(Ok(events)) {
            Err(failure) => failure,
            Ok(_) => Failure::Failed("no live status at /events".into()),
        }));
    }
    let file_name = args
        .file
        .file_name()
        .map_or_else(|| "source".into(), |n| n.to_string_lossy().into_owned());
    let created = Server::answer(
        server
            .agent
            .post(&format!("{}/api/v1/submissions", server.url))
            .header("Authorization", bearer)
            .send_json(json!({
                "problem": args.id, "language": args.language,
                "file_name": file_name, "source": source,
            })),
    )
    .map_err(|f| server.error(f))?;
    let id = created["id"]
        .as_i64()
        .ok_or_else(|| server.failed("no submission id in its answer".into()))?;
    let path = created["url"]
        .as_str()
        .map_or_else(|| format!("/submissions/{id}"), String::from);
    let page = format!("{}{path}", server.url);
    shown.line(&format!("submission {id}: received, {page}"));
    let mut events = Events {
        lines: std::io::BufReader::new(events.into_body().into_reader()).lines(),
        event: String::new(),
    };
    let result = follow(&mut events, id, server, bearer, shown)
        .map_err(|why| server.failed(format!("{why}; the submission's page: {page}")))?;
    shown.result(&result, &page);
    Ok(if result["verdict"] == "AC" { 0 } else { 1 })
}

/// What the live events say of one submission.
enum Said {
    Status(String),
    /// The verdict is in.
    Judged,
    /// The server says this stream missed events (`reload`).
    Missed,
}

/// The server's live events (Server-Sent Events), read a line at a time.
struct Events<R> {
    lines: std::io::Lines<R>,
    /// The current event's type (`status`, `reload`, ...).
    event: String,
}

impl<R: BufRead> Events<R> {
    /// The next word of submission `id`, or `None` when the stream ends.
    fn next(&mut self, id: i64) -> Option<Said> {
        for line in self.lines.by_ref() {
            let line = line.ok()?;
            if line.is_empty() {
                self.event.clear();
            } else if let Some(event) = line.strip_prefix("event:") {
                self.event = event.trim().to_string();
                if self.event == "reload" {
                    return Some(Said::Missed);
                }
            } else if let Some(data) = line.strip_prefix("data:") {
                let Ok(event) = serde_json::from_str::<Value>(data.trim()) else {
                    continue;
                };
                if event["entry"].as_i64() != Some(id) {
                    continue;
                }
                if event["verdict"].is_string() {
                    return Some(Said::Judged);
                }
                return Some(Said::Status(
                    event["status"].as_str().unwrap_or_default().into(),
                ));
            }
        }
        None
    }
}

/// Follows submission `id` on `events` to its verdict; then its result.
/// Events missed, or a stream that ends first, are made good by asking
/// the API; a stream that ends with the submission unjudged is the
/// server's failure.
fn follow<R: BufRead>(
    events: &mut Events<R>,
    id: i64,
    server: &Server,
    bearer: &str,
    shown: &mut Shown<'_>,
) -> std::result::Result<Value, String> {
    let ask = || match server.submission(bearer, id) {
        Ok(result) => Ok(result),
        Err(Failure::Unreachable(why) | Failure::Refused { why, .. } | Failure::Failed(why)) => {
            Err(format!("submission {id} could not be read: {why}"))
        }
    };
    let judged = |result: &Value| result["verdict"].is_string();
    loop {
        match events.next(id) {
            Some(Said::Status(status)) => shown.status(id, &status),
            Some(Said::Judged) => return ask(),
            Some(Said::Missed) => {
                let result = ask()?;
                if judged(&result) {
                    return Ok(result);
                }
            }
            None => {
                let result = ask()?;
                return if judged(&result) {
                    Ok(result)
                } else {
                    Err("the live status ended before the verdict".into())
                };
            }
        }
    }
}
