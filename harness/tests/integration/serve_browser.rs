//! `judge serve` in a real browser: headless Chromium driven through
//! WebDriver (Debian's `chromium-driver`). A participant logs in, reads a
//! statement, submits a file and sees the verdict appear without a
//! reload; the scoreboard updates by itself when another participant
//! solves a problem. Screenshots are kept under the test target folder.
//! Without chromium and its driver these tests say "skipped: no
//! chromium"; with them installed, a browser that cannot start fails.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::serve_server::{JUDGE_DEADLINE, Server, Site, submitted_id};
use crate::support::{Background, have, present, which};

const USERS: &str =
    "user,display name,team,role\nalice,Alice,red,participant\nbob,Bob,blue,participant\n";

/// chromedriver on a loopback port of its choosing, killed by its PID.
pub struct Driver {
    // Killed when dropped.
    _child: Background,
    pub port: u16,
}

impl Driver {
    pub fn start(driver: &Path) -> Driver {
        let mut child = Background::start(
            Command::new(driver)
                .args(["--port=0", "--allowed-ips=127.0.0.1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        );
        let stdout = child.take_stdout();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(port) = line
                    .strip_prefix("ChromeDriver was started successfully on port ")
                    .and_then(|p| p.trim_end_matches('.').parse::<u16>().ok())
                {
                    let _ = send.send(port);
                }
            }
        });
        match receive.recv_timeout(Duration::from_secs(30)) {
            Ok(port) => Driver {
                _child: child,
                port,
            },
            Err(_) => panic!("chromedriver did not say its port in 30 s"),
        }
    }
}

/// Chromium and its driver (CI installs both), or a skip.
pub fn browser() -> Option<(PathBuf, PathBuf)> {
    if !have(&["chromium", "chromedriver"]) {
        return None;
    }
    Some((which("chromium")?, which("chromedriver")?))
}

pub fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub async fn session(driver: &Driver, chromium: &Path, profile: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=1280,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

pub async fn text_of(client: &Client, script: &str) -> String {
    client
        .execute(script, Vec::new())
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until `script` returns `want` (the page is not reloaded).
pub async fn wait_for_text(client: &Client, script: &str, want: &str) -> String {
    let deadline = Instant::now() + JUDGE_DEADLINE;
    loop {
        let got = text_of(client, script).await;
        if got.contains(want) {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "waited for {want}, page shows {got}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub async fn shot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    let path = screenshots().join(name);
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}

/// Hands `file` in through the problem page open in `client` and waits
/// for the submission's page.
pub async fn submit_file(client: &Client, file: &Path) {
    client
        .find(Locator::Css("input[type=file]"))
        .await
        .unwrap()
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
    client
        .find(Locator::Css("form.submit button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client
        .wait()
        .for_element(Locator::Css("[data-live=submission]"))
        .await
        .unwrap();
}

pub async fn log_in(client: &Client, url: &str, user: &str, password: &str) {
    client.goto(&format!("{url}/login")).await.unwrap();
    client
        .find(Locator::Css("input[name=username]"))
        .await
        .unwrap()
        .send_keys(user)
        .await
        .unwrap();
    client
        .find(Locator::Css("input[name=password]"))
        .await
        .unwrap()
        .send_keys(password)
        .await
        .unwrap();
    client
        .find(Locator::Css("form.login-form button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client
        .wait()
        .for_element(Locator::Css("form.logout"))
        .await
        .unwrap();
}

/// Marks the page: a reload would lose the mark.
async fn mark(client: &Client) {
    client
        .execute("window.judgeMark = 'unchanged'; return null;", Vec::new())
        .await
        .unwrap();
}

async fn still_marked(client: &Client) -> bool {
    text_of(client, "return window.judgeMark || '';").await == "unchanged"
}

#[test]
fn a_participant_sees_the_verdict_and_the_scoreboard_move_without_reloading() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;

        client.goto(&format!("{}/problems/sum", server.url)).await.unwrap();
        let statement = text_of(&client, "return document.querySelector('h1').textContent;").await;
        assert!(statement.contains("Sum of pairs"), "{statement}");
        shot(&client, "statement.png").await;
        let file = site.submission("sum/AC/sum.py");
        let file = if present("python3") { file } else { site.submission("sum/AC/sum.rs") };
        submit_file(&client, &file).await;
        wait_for_text(&client, "return document.documentElement.getAttribute('data-live') || '';", "connected").await;
        mark(&client).await;
        let status = "return document.querySelector('[data-status]').textContent;";
        wait_for_text(&client, status, "AC").await;
        wait_for_text(&client, "return (document.getElementById('feedback') || {}).textContent || '';", "sample 1").await;
        assert!(still_marked(&client).await, "the verdict came without a reload");
        shot(&client, "verdict.png").await;

        // The scoreboard, open in the browser, moves when Bob solves.
        client.goto(&format!("{}/scoreboard", server.url)).await.unwrap();
        wait_for_text(&client, "return document.documentElement.getAttribute('data-live') || '';", "connected").await;
        mark(&client).await;
        let bob_row = "var r = document.querySelector('[data-user=bob]'); return r ? r.textContent : '';";
        assert!(!text_of(&client, bob_row).await.contains('1'), "Bob has solved nothing yet");
        let mut bob = server.client();
        bob.login("bob", &site.password("bob"));
        let id = submitted_id(&bob.submit("sum", &site.submission("sum/AC/sum.rs")));
        assert_eq!(bob.verdict(id).0, "AC");
        let row = wait_for_text(&client, "var r = document.querySelector('[data-user=bob] td.solved'); return r ? 'solved' : '';", "solved").await;
        assert_eq!(row, "solved");
        assert!(still_marked(&client).await, "the scoreboard moved without a reload");
        let logs = text_of(&client, "return JSON.stringify(performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin)));").await;
        assert_eq!(logs, "[]", "nothing loaded from elsewhere");
        shot(&client, "scoreboard.png").await;
        client.close().await.unwrap();
    });
}
