//! `judge submit` against a real `judge serve`: logging in once, the
//! verdict followed and shown (a line per status on a pipe, one redrawn
//! line on a terminal), the exit code of each mistake, its help, and where
//! its token is kept.

use std::path::Path;
use std::process::Command;

use crate::serve_server::{Server, Site};
use crate::support::{bounded, have, judge_binary};

const USERS: &str = "user,display name,team,role\nalice,Alice,red,participant\n";

/// What one `judge submit` did.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn said(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// `judge submit ARGS` with `stdin`, as `configure` sets it up (its
/// folder, its environment).
fn submit_with(args: &[&str], stdin: &str, configure: impl FnOnce(&mut Command)) -> Ran {
    let mut command = Command::new(judge_binary());
    command.arg("submit").args(args);
    configure(&mut command);
    // The verdict comes within the judging deadline, or the client is
    // killed (by its PID) and the exit code says so.
    let output = bounded(command)
        .write_stdin(stdin)
        .timeout(crate::serve_server::JUDGE_DEADLINE)
        .output()
        .unwrap();
    Ran {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `judge submit ARGS` with its config in the site's folder.
fn judge_submit(site: &Site, args: &[&str], stdin: &str) -> Ran {
    let config = site.root().join("submit.toml");
    submit_with(args, stdin, |command| {
        command.arg("--config").arg(config);
    })
}

/// Logs alice in (her token kept in the site's config) with a first
/// submission of `file`; what it did.
fn log_in(site: &Site, server: &Server, file: &Path) -> Ran {
    let password = format!("{}\n", site.password("alice"));
    let file = file.to_str().unwrap();
    let args = ["sum", file, "--server", &server.url, "--user", "alice"];
    judge_submit(site, &args, &password)
}

fn mode(path: &Path) -> u32 {
    std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(path).unwrap().permissions()) & 0o777
}

#[test]
fn judge_submit_logs_in_once_and_streams_the_verdict() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let ran = log_in(&site, &server, &site.submission("sum/WA/off_by_one.rs"));
    let said = ran.said();
    assert_eq!(ran.code, 1, "{said}");
    for line in ["received", "compiling", "verdict: WA on sample 1"] {
        assert!(said.contains(line), "no {line} in:\n{said}");
    }
    // The first difference and the diff the API gives for a sample, and
    // the submission's page.
    for line in ["expected `3`, got `4`", "      -3\n", "      +4\n"] {
        assert!(said.contains(line), "no {line:?} in:\n{said}");
    }
    let page = format!("the submission's page: {}/submissions/", server.url);
    assert!(said.contains(&page), "{said}");
    let config = std::fs::read_to_string(site.root().join("submit.toml")).unwrap();
    assert!(config.contains("token"), "{config}");
    assert_eq!(mode(&site.root().join("submit.toml")), 0o600);
    // The token is kept: no --user, no --server the second time.
    let right = site.submission("sum/AC/sum.rs");
    let ran = judge_submit(&site, &["sum", right.to_str().unwrap()], "");
    assert_eq!(ran.code, 0, "{}", ran.said());
    assert!(
        ran.stdout.contains("verdict: AC · 5 tests run"),
        "{}",
        ran.said()
    );
}

#[test]
fn a_users_mistake_is_a_usage_error_with_the_servers_reason() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let right = site.submission("sum/AC/sum.py");
    let right = right.to_str().unwrap();
    let nowhere = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let strange = site.write("notes.zzz", "hello\n");
    let strange = strange.to_str().unwrap();
    let mistakes: [(&[&str], &str, &str); 3] = [
        (
            &["sum", right, "--server", &server.url, "--user", "alice"],
            "wrong\n",
            "wrong user or password (401 Unauthorized)",
        ),
        (
            &["sum", right, "--server", &server.url],
            "",
            "no token yet: log in once with --user NAME",
        ),
        (
            &["sum", right, "--server", &nowhere, "--user", "alice"],
            "anything\n",
            "cannot reach http://127.0.0.1:",
        ),
    ];
    for (args, stdin, reason) in mistakes {
        let ran = judge_submit(&site, args, stdin);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.said());
        assert!(ran.stderr.contains(reason), "{args:?}: {}", ran.said());
        assert!(!ran.stderr.contains("failed to"), "{}", ran.stderr);
    }
    assert_eq!(
        log_in(&site, &server, &site.submission("sum/AC/sum.py")).code,
        0
    );
    let after_login: [(&[&str], &str); 4] = [
        (
            &["nosuch", right],
            "no problem `nosuch` in this session (400 Bad Request)",
        ),
        (&["sum", strange], "(400 Bad Request)"),
        (&["sum", right, "--language", "cobol"], "(400 Bad Request)"),
        (&["sum", "no-such-file.py"], "cannot read no-such-file.py"),
    ];
    for (args, reason) in after_login {
        let ran = judge_submit(&site, args, "");
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.said());
        assert!(ran.stderr.contains(reason), "{args:?}: {}", ran.said());
        assert!(!ran.stderr.contains("failed to"), "{}", ran.stderr);
    }
}

#[test]
fn submit_help_lists_only_what_submit_takes() {
    let ran = submit_with(&["--help"], "", |_| {});
    assert_eq!(ran.code, 0, "{}", ran.said());
    for option in ["--server", "--user", "--language", "--config", "--color"] {
        assert!(
            ran.stdout.contains(option),
            "no {option} in:\n{}",
            ran.stdout
        );
    }
    for option in [
        "--jobs",
        "--isolation",
        "--uid-range",
        "--languages",
        "--root",
    ] {
        assert!(!ran.stdout.contains(option), "{option} in:\n{}", ran.stdout);
    }
    // The judging machine's verbs still list them.
    let verify = crate::support::judge()
        .args(["verify", "--help"])
        .output()
        .unwrap();
    let verify = String::from_utf8_lossy(&verify.stdout);
    assert!(
        verify.contains("--jobs") && verify.contains("--isolation"),
        "{verify}"
    );
}

#[test]
fn an_empty_xdg_config_home_keeps_the_token_under_home() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let home = site.root().join("home");
    let here = site.root().join("here");
    std::fs::create_dir_all(&here).unwrap();
    let file = site.submission("sum/AC/sum.py");
    let args = [
        "sum",
        file.to_str().unwrap(),
        "--server",
        &server.url,
        "--user",
        "alice",
    ];
    let ran = submit_with(&args, &format!("{}\n", site.password("alice")), |command| {
        command
            .current_dir(&here)
            .env("XDG_CONFIG_HOME", "")
            .env("HOME", &home);
    });
    assert_eq!(ran.code, 0, "{}", ran.said());
    let kept = home.join(".config/judge/submit.toml");
    assert!(std::fs::read_to_string(&kept).unwrap().contains("token"));
    assert_eq!(mode(&kept), 0o600);
    let left: Vec<_> = std::fs::read_dir(&here).unwrap().collect();
    assert!(left.is_empty(), "written in the current folder: {left:?}");
}

#[test]
fn on_a_terminal_the_status_is_one_line_redrawn() {
    if !have(&["script"]) {
        return;
    }
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    assert_eq!(
        log_in(&site, &server, &site.submission("sum/AC/sum.py")).code,
        0
    );
    // `script` gives the client a terminal (a pty) as its stdout.
    let quoted = |word: &str| format!("'{word}'");
    let config = site.root().join("submit.toml");
    let file = site.submission("sum/AC/sum.rs");
    let judge = judge_binary();
    let words = [
        judge.to_str().unwrap(),
        "--color",
        "never",
        "submit",
        "sum",
        file.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    let line: Vec<String> = words.iter().map(|w| quoted(w)).collect();
    let mut command = Command::new("script");
    command.args(["-qec", &line.join(" "), "/dev/null"]);
    let output = bounded(command)
        .write_stdin("")
        .timeout(crate::serve_server::JUDGE_DEADLINE)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{shown:?}");
    assert!(
        shown.contains("\r\x1b[2Ksubmission ") && shown.contains(": test 5 of 5"),
        "{shown:?}"
    );
    // Received, the verdict and the page stay; every status was redrawn
    // in place (the same client on a pipe writes a line per status).
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 3, "{shown:?}");
    assert!(
        lines[1].ends_with("\x1b[2Kverdict: AC · 5 tests run"),
        "{shown:?}"
    );
}
