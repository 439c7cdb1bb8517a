//! `judge serve` on a large store: 200 participants and 20,000 judged
//! submissions, every page timed as the public, a participant and the
//! jury see it, against the server's cheapest answer (its stylesheet) in
//! the same run; then 8 clients asking for the scoreboard at once while a
//! bystander loads the problem list. Prints a table; asserts nothing.
//!
//! Run: `cargo bench -p harness --bench serve_pages` (add `-- --entries N
//! --participants M`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn judge(root: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_judge"));
    command.args(["--color", "never", "--root"]).arg(root);
    command
}

/// The server, killed by its PID when dropped.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(root: &Path) -> (Server, String) {
    let mut child = judge(root)
        .args(["serve", "--bind", "127.0.0.1:0", "--session"])
        .arg(root.join("big.toml"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut url = String::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        if let Some(at) = line.find("http://") {
            url = line[at..]
                .split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches('/')
                .into();
        }
        if line.starts_with("judging with") {
            break;
        }
    }
    assert!(!url.is_empty(), "the server did not start");
    (server, url)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `count` requests of `path` (with `auth`, if any), one at a time; the
/// sorted latencies.
fn time_page(
    agent: &ureq::Agent,
    url: &str,
    path: &str,
    auth: Option<&str>,
    count: usize,
) -> Vec<Duration> {
    let mut times: Vec<Duration> = (0..count)
        .map(|_| {
            let asked = Instant::now();
            let mut request = agent.get(&format!("{url}{path}"));
            if let Some(auth) = auth {
                request = request.header("Authorization", auth);
            }
            let reply = request.call().unwrap();
            assert!(reply.status().as_u16() < 400, "{path}: {}", reply.status());
            let _ = reply.into_body().read_to_string();
            asked.elapsed()
        })
        .collect();
    times.sort();
    times
}

/// Fills the session's tables: `participants` accounts (without a
/// password) and `entries` judged submissions spread over them.
fn fill(db: &Path, participants: usize, entries: usize) {
    let mut conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(60)).unwrap();
    let tx = conn.transaction().unwrap();
    let now = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    for i in 0..participants {
        tx.execute(
            "INSERT INTO accounts (username, display_name, team, role, password_hash, created_at) \
             VALUES (?1, ?2, NULL, 'participant', '!', ?3)",
            rusqlite::params![format!("q{i:03}"), format!("Quiet {i}"), now],
        )
        .unwrap();
    }
    let ids: Vec<i64> = {
        let mut statement = tx
            .prepare("SELECT id FROM accounts WHERE role = 'participant'")
            .unwrap();
        statement
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let verdicts = ["AC", "WA", "TLE", "RE", "WA", "CE"];
    for n in 0..entries {
        tx.execute(
            "INSERT INTO entries (session_id, account_id, problem, language, file_name, source, \
             submitted_at, status) VALUES (1, ?1, 'sum', 'rust', 'sum.rs', x'00', ?2, 'judged')",
            rusqlite::params![ids[n % ids.len()], now],
        )
        .unwrap();
        let entry = tx.last_insert_rowid();
        tx.execute(
            "INSERT INTO judgings (entry_id, started_at, finished_at, verdict, valid) \
             VALUES (?1, ?2, ?2, ?3, 1)",
            rusqlite::params![entry, now, verdicts[n % verdicts.len()]],
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

fn main() {
    let participants = arg("--participants", 200);
    let entries = arg("--entries", 20_000);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&fixtures().join("problems/sum"), &root.join("problems/sum"));
    std::fs::write(
        root.join("users.csv"),
        "user,display name,role\nalice,Alice,participant\nteacher,Teacher,jury\n",
    )
    .unwrap();
    let imported = judge(root)
        .args(["users", "import"])
        .arg(root.join("users.csv"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(imported.success());
    let passwords: Vec<(String, String)> =
        std::fs::read_to_string(root.join("users-passwords.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(','))
            .map(|(u, p)| (u.to_string(), p.to_string()))
            .collect();
    std::fs::write(
        root.join("big.toml"),
        "name = \"big\"\ntitle = \"Big\"\nproblems = [\"sum\"]\n",
    )
    .unwrap();
    // A first start makes the session; the store is filled while it is
    // down, and the measured server starts on the full store.
    drop(start(root));
    let filled_at = Instant::now();
    fill(&root.join("judge.db"), participants, entries);
    let filled = filled_at.elapsed();
    let (server, url) = start(root);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .proxy(None)
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let token = |user: &str| {
        let password = &passwords.iter().find(|(u, _)| u == user).unwrap().1;
        let body: serde_json::Value = agent
            .post(&format!("{url}/api/v1/token"))
            .send_json(serde_json::json!({ "username": user, "password": password }))
            .unwrap()
            .into_body()
            .read_json()
            .unwrap();
        format!("Bearer {}", body["token"].as_str().expect("a token"))
    };
    let alice = token("alice");
    let teacher = token("teacher");
    // One submission of alice's, to show.
    let created: serde_json::Value = agent
        .post(&format!("{url}/api/v1/submissions"))
        .header("Authorization", &alice)
        .send_json(
            serde_json::json!({"problem": "sum", "file_name": "a.py", "source": "print(1)\n"}),
        )
        .unwrap()
        .into_body()
        .read_json()
        .unwrap();
    let own = format!("/submissions/{}", created["id"]);

    let cold_at = Instant::now();
    let _ = time_page(&agent, &url, "/scoreboard", None, 1);
    let cold = cold_at.elapsed();
    let count = 50;
    let baseline = time_page(&agent, &url, "/static/style.css", None, count);
    let base = percentile(&baseline, 0.5);
    println!(
        "judge serve on a store of {entries} judged submissions by {participants} participants \
         (filled in {:.1} s); {count} requests a page, one at a time",
        filled.as_secs_f64()
    );
    println!(
        "the scoreboard's first computation after a change: {:.1} ms",
        ms(cold)
    );
    println!("| page | as | p50 | p99 | p50 / stylesheet |");
    println!("|---|---|---|---|---|");
    let pages: [(&str, &str, Option<&str>); 12] = [
        ("/static/style.css", "anybody", None),
        ("/", "the public", None),
        ("/scoreboard", "the public", None),
        ("/", "a participant", Some(&alice)),
        ("/submissions", "a participant", Some(&alice)),
        (&own, "a participant", Some(&alice)),
        ("/scoreboard", "a participant", Some(&alice)),
        ("/api/v1/submissions", "a participant", Some(&alice)),
        ("/jury", "the jury", Some(&teacher)),
        ("/submissions", "the jury", Some(&teacher)),
        ("/jury/participants/q000", "the jury", Some(&teacher)),
        ("/scoreboard", "the jury", Some(&teacher)),
    ];
    for (path, who, auth) in pages {
        let times = time_page(&agent, &url, path, auth, count);
        let p50 = percentile(&times, 0.5);
        println!(
            "| `{path}` | {who} | {:.1} ms | {:.1} ms | {:.1}× |",
            ms(p50),
            ms(percentile(&times, 0.99)),
            p50.as_secs_f64() / base.as_secs_f64()
        );
    }

    // A crowd on the scoreboard and a bystander on the problem list.
    let alone = time_page(&agent, &url, "/", None, count);
    let stop = AtomicBool::new(false);
    let crowded = std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                while !stop.load(Ordering::SeqCst) {
                    let _ = time_page(&agent, &url, "/scoreboard", None, 1);
                }
            });
        }
        std::thread::sleep(Duration::from_millis(300));
        let times = time_page(&agent, &url, "/", None, count);
        stop.store(true, Ordering::SeqCst);
        times
    });
    println!(
        "| `/` beside 8 clients on `/scoreboard` | the public | {:.1} ms | {:.1} ms | {:.1}× (alone: p50 {:.1} ms) |",
        ms(percentile(&crowded, 0.5)),
        ms(percentile(&crowded, 0.99)),
        percentile(&crowded, 0.5).as_secs_f64() / base.as_secs_f64(),
        ms(percentile(&alone, 0.5))
    );
    drop(server);
}
