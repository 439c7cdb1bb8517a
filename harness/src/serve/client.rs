//! `judge submit ID FILE --server URL`: a learner's terminal as a client
//! of `judge serve`, on a blocking HTTP client (no async outside the
//! server). `--user NAME` logs in first (the password from stdin) and
//! keeps the server and its token in a config file only its owner reads;
//! then the file is sent and its status followed on the server's live
//! events until the verdict, which is printed with the feedback the
//! session allows. Exit 0 on AC, 1 on any other verdict.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::ServeError;
use crate::cli::SubmitArgs;
use crate::errors::Result;

/// How long one submission may be followed before giving up.
const FOLLOW_LIMIT: Duration = Duration::from_secs(15 * 60);

/// What `--user` keeps between runs.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    server: Option<String>,
    token: Option<String>,
}

fn config_path(args: &SubmitArgs) -> Option<PathBuf> {
    args.config.clone().or_else(|| {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("judge").join("submit.toml"))
    })
}

fn read_config(path: &Path) -> Result<Config, ServeError> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text)
            .map_err(|e| ServeError::Usage(format!("{}: {}", path.display(), e.message()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        Err(source) => Err(ServeError::Io {
            what: format!("read {}", path.display()),
            source,
        }),
    }
}

fn write_config(path: &Path, config: &Config) -> Result<(), ServeError> {
    use std::os::unix::fs::OpenOptionsExt;
    let failed = |source| ServeError::Io {
        what: format!("write {}", path.display()),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    let text = toml::to_string(config).map_err(|e| ServeError::Usage(e.to_string()))?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(failed)?;
    file.write_all(text.as_bytes()).map_err(failed)
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .build()
        .into()
}

/// A JSON answer, or the server's `error` as the error.
fn answer(
    server: &str,
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<Value, ServeError> {
    let failed = |message: String| ServeError::Server {
        server: server.to_string(),
        message,
    };
    let response = response.map_err(|e| failed(e.to_string()))?;
    let status = response.status();
    let body: Value = response
        .into_body()
        .read_json()
        .map_err(|e| failed(format!("{status}: {e}")))?;
    if status.is_success() {
        Ok(body)
    } else {
        Err(failed(format!(
            "{status}: {}",
            body["error"].as_str().unwrap_or("no reason given")
        )))
    }
}

pub(crate) fn submit(args: &SubmitArgs) -> Result<u8> {
    submit_to(args, &mut std::io::stdout())
}

/// `submit`, saying how it goes on `out`.
pub(crate) fn submit_to(args: &SubmitArgs, out: &mut dyn Write) -> Result<u8> {
    Ok(run(args, out)?)
}

fn run(args: &SubmitArgs, out: &mut dyn Write) -> Result<u8, ServeError> {
    let path = config_path(args);
    let mut config = match &path {
        Some(path) => read_config(path)?,
        None => Config::default(),
    };
    let server = args
        .server
        .clone()
        .or(config.server.clone())
        .ok_or_else(|| ServeError::Usage("which server? pass --server URL".into()))?;
    let server = server.trim_end_matches('/').to_string();
    let client = agent(Duration::from_secs(60));
    if let Some(user) = &args.user {
        let mut password = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut password)
            .map_err(|source| ServeError::Io {
                what: "read the password from stdin".into(),
                source,
            })?;
        let body = answer(
            &server,
            client
                .post(&format!("{server}/api/v1/token"))
                .send_json(json!({
                    "username": user,
                    "password": password.trim_end_matches(['\r', '\n']),
                    "label": "judge submit",
                })),
        )?;
        config.server = Some(server.clone());
        config.token = body["token"].as_str().map(String::from);
        if let Some(path) = &path {
            write_config(path, &config)?;
        }
    }
    let token = config.token.clone().ok_or_else(|| {
        ServeError::Usage("no token yet: log in once with --user NAME (password on stdin)".into())
    })?;
    let source = std::fs::read(&args.file).map_err(|source| ServeError::Io {
        what: format!("read {}", args.file.display()),
        source,
    })?;
    let source = String::from_utf8(source)
        .map_err(|_| ServeError::Usage(format!("{} is not UTF-8 text", args.file.display())))?;
    let bearer = format!("Bearer {token}");
    // Listening before sending: no status is missed, however fast.
    let events = agent(FOLLOW_LIMIT)
        .get(&format!("{server}/events"))
        .header("Authorization", &bearer)
        .call()
        .map_err(|e| ServeError::Server {
            server: server.clone(),
            message: e.to_string(),
        })?;
    let file_name = args
        .file
        .file_name()
        .map_or_else(|| "source".into(), |n| n.to_string_lossy().into_owned());
    let created = answer(
        &server,
        client
            .post(&format!("{server}/api/v1/submissions"))
            .header("Authorization", &bearer)
            .send_json(json!({
                "problem": args.id, "language": args.language,
                "file_name": file_name, "source": source,
            })),
    )?;
    let id = created["id"].as_i64().ok_or_else(|| ServeError::Server {
        server: server.clone(),
        message: "no submission id in its answer".into(),
    })?;
    let _ = writeln!(out, "submission {id}: received");
    let reader = std::io::BufReader::new(events.into_body().into_reader());
    let mut last = String::new();
    for line in reader.lines() {
        let Ok(line) = line else { break };
        let Some(data) = line.strip_prefix("data:") else {
            continue;
        };
        let Ok(event) = serde_json::from_str::<Value>(data.trim()) else {
            continue;
        };
        if event["entry"].as_i64() != Some(id) {
            continue;
        }
        let status = event["status"].as_str().unwrap_or_default().to_string();
        if status != last {
            let _ = writeln!(out, "submission {id}: {}", crate::escape::visible(&status));
            let _ = out.flush();
            last = status;
        }
        if event["verdict"].is_string() {
            break;
        }
    }
    let result = answer(
        &server,
        client
            .get(&format!("{server}/api/v1/submissions/{id}"))
            .header("Authorization", &bearer)
            .call(),
    )?;
    print_result(out, &result);
    Ok(if result["verdict"] == "AC" { 0 } else { 1 })
}

fn print_result(out: &mut dyn Write, result: &Value) {
    let text = |v: &Value| crate::escape::visible(v.as_str().unwrap_or_default());
    // A number as a string, so that a column's width applies to it.
    let number = |v: &Value| {
        v.as_u64()
            .map_or_else(|| "-".to_string(), |n| n.to_string())
    };
    let verdict = match result["verdict"].as_str() {
        Some(verdict) => crate::escape::visible(verdict),
        None => "not judged yet".into(),
    };
    let _ = writeln!(out, "verdict: {verdict}");
    for test in result["tests"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {:<16} {:<4} {:>6} ms {:>8} KiB {}",
            text(&test["test"]),
            text(&test["verdict"]),
            number(&test["cpu_ms"]),
            number(&test["memory_kib"]),
            text(&test["detail"])
        );
        if !test["expected"].as_str().unwrap_or_default().is_empty() {
            let _ = writeln!(
                out,
                "      expected {}, got {}",
                text(&test["expected"]),
                text(&test["actual"])
            );
        }
    }
    for key in ["summary", "message"] {
        let value = text(&result[key]);
        if !value.is_empty() {
            let _ = writeln!(out, "{value}");
        }
    }
}
