//! `judge serve` under load: 200 simulated participants on loopback, each
//! with an API token, submit 1000 submissions of the fixture problem `sum`
//! while four more read pages until all are judged. Bounded in count (1000)
//! and time (`--deadline`, 15 min). Checks that every submission was judged
//! exactly once (from the store), prints page latency p50/p99 while
//! judging, and the server's judging (from its first judging's start to its
//! last one's end, from the store) against `judge grade` on the same files
//! in the same run. Prints a table; asserts only the exactly-once count.
//!
//! Run: `cargo bench -p harness --bench serve` (add `-- --participants N
//! --submissions M`).
//!
//! Every submission is the same Rust file (AC on all 5 tests), so both
//! sides build it once and then measure judging, not the compiler.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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

/// The 1-minute load average, to read the numbers by.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| "?".into())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The server, killed by its PID when dropped.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let participants = arg("--participants", 200);
    let total = arg("--submissions", 1000);
    let deadline = Duration::from_secs(arg("--deadline", 900) as u64);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&fixtures().join("problems/sum"), &root.join("problems/sum"));
    copy_dir(&fixtures().join("submissions"), &root.join("submissions"));
    let source = std::fs::read_to_string(root.join("submissions/sum/AC/sum.rs")).unwrap();

    let mut users = String::from("user,display name,role\n");
    for i in 0..participants {
        users.push_str(&format!("p{i:03},Participant {i},participant\n"));
    }
    std::fs::write(root.join("users.csv"), users).unwrap();
    let status = judge(root)
        .args(["users", "import"])
        .arg(root.join("users.csv"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let passwords: Vec<(String, String)> =
        std::fs::read_to_string(root.join("users-passwords.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(','))
            .map(|(u, p)| (u.to_string(), p.to_string()))
            .collect();
    std::fs::write(
        root.join("load.toml"),
        "title = \"Load\"\nproblems = [\"sum\"]\n[limits]\nsubmissions-per-minute = 1000\nsubmissions-per-minute-per-address = 100000\n",
    )
    .unwrap();

    let mut child = judge(root)
        .args(["serve", "--bind", "127.0.0.1:0", "--session"])
        .arg(root.join("load.toml"))
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
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .proxy(None)
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let tokens: Vec<String> = passwords
        .iter()
        .map(|(user, password)| {
            let body: serde_json::Value = agent
                .post(&format!("{url}/api/v1/token"))
                .send_json(serde_json::json!({ "username": user, "password": password }))
                .unwrap()
                .into_body()
                .read_json()
                .unwrap();
            format!("Bearer {}", body["token"].as_str().expect("a token"))
        })
        .collect();

    // Warm the build cache: the first build is the compiler's time, not the server's.
    let warm = judge(root)
        .args(["grade", "sum"])
        .arg(root.join("submissions/sum/AC/sum.rs"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(warm.success());

    let load_before = load();
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::new());
    let ids = Mutex::new(Vec::new());
    let tokens = Arc::new(tokens);
    let clients = 16;
    let reading = std::sync::atomic::AtomicBool::new(true);
    std::thread::scope(|scope| {
        // Participants reading pages while judging goes on, apart from the
        // submitters: the queue fills as fast as the server takes
        // submissions, so its judging, not the clients, sets its pace.
        for reader in 0..arg("--readers", 4) {
            let (agent, tokens, latencies, reading, url) =
                (&agent, &tokens, &latencies, &reading, &url);
            scope.spawn(move || {
                let token = &tokens[reader % tokens.len()];
                while reading.load(Ordering::SeqCst) && started.elapsed() < deadline {
                    for page in ["/", "/scoreboard", "/api/v1/submissions"] {
                        let asked = Instant::now();
                        let reply = agent
                            .get(&format!("{url}{page}"))
                            .header("Authorization", token)
                            .call()
                            .unwrap();
                        let _ = reply.into_body().read_to_string();
                        latencies.lock().unwrap().push(asked.elapsed());
                    }
                }
            });
        }
        let submitters: Vec<_> = (0..clients)
            .map(|_| {
                scope.spawn(|| {
                    loop {
                        let n = next.fetch_add(1, Ordering::SeqCst);
                        if n >= total || started.elapsed() > deadline {
                            break;
                        }
                        let token = &tokens[n % tokens.len()];
                        let created: serde_json::Value = agent
                            .post(&format!("{url}/api/v1/submissions"))
                            .header("Authorization", token)
                            .send_json(serde_json::json!({
                                "problem": "sum", "file_name": "sum.rs", "source": source,
                            }))
                            .unwrap()
                            .into_body()
                            .read_json()
                            .unwrap();
                        ids.lock()
                            .unwrap()
                            .push(created["id"].as_i64().expect("an id"));
                    }
                })
            })
            .collect();
        for submitter in submitters {
            submitter.join().unwrap();
        }
        reading.store(false, Ordering::SeqCst);
    });
    let submitted = started.elapsed();
    let db = root.join("judge.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.busy_timeout(Duration::from_secs(60)).unwrap();
    let judged_count = || -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM entries WHERE status = 'judged'",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    let mut samples_while_judging = Vec::new();
    while (judged_count() as usize) < ids.lock().unwrap().len() {
        assert!(started.elapsed() < deadline, "not judged by the deadline");
        let asked = Instant::now();
        let reply = agent.get(&format!("{url}/scoreboard")).call().unwrap();
        let _ = reply.into_body().read_to_string();
        samples_while_judging.push(asked.elapsed());
        std::thread::sleep(Duration::from_millis(100));
    }
    let served = started.elapsed();
    // The server's judging: from its first judging's start to its last
    // one's end (busy all along: submissions came faster than judged).
    let span: (String, String) = conn
        .query_row(
            "SELECT MIN(started_at), MAX(finished_at) FROM judgings",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let judging = humantime::parse_rfc3339(&span.1)
        .unwrap()
        .duration_since(humantime::parse_rfc3339(&span.0).unwrap())
        .unwrap_or_default();
    let once: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM entries e WHERE (SELECT COUNT(*) FROM judgings j \
             WHERE j.entry_id = e.id AND j.finished_at IS NOT NULL) = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let accepted: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM judgings WHERE verdict = 'AC'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    drop(server);
    let count = ids.lock().unwrap().len();
    assert_eq!(once as usize, count, "every submission judged exactly once");

    // The same files through `judge grade`, in this run.
    let files = root.join("files");
    std::fs::create_dir_all(&files).unwrap();
    // A folder each, under the same name: the build cache knows the file
    // by its name and bytes, as it knew the server's copies.
    let paths: Vec<PathBuf> = (0..count)
        .map(|i| {
            let folder = files.join(format!("{i:04}"));
            std::fs::create_dir_all(&folder).unwrap();
            let path = folder.join("sum.rs");
            std::fs::write(&path, &source).unwrap();
            path
        })
        .collect();
    let graded_at = Instant::now();
    let graded = judge(root)
        .args(["grade", "sum"])
        .args(&paths)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let grade = graded_at.elapsed();
    assert!(graded.success());

    let mut all: Vec<Duration> = latencies.into_inner().unwrap();
    all.extend(samples_while_judging);
    all.sort();
    let per_second = |n: usize, d: Duration| n as f64 / d.as_secs_f64();
    println!(
        "judge serve under load: {participants} participants, {count} submissions ({accepted} AC), each judged exactly once"
    );
    println!("load average: {load_before} before, {} after", load());
    println!("| measure | value |");
    println!("|---|---|");
    println!(
        "| all submitted (HTTP, committed) | {:.1} s |",
        submitted.as_secs_f64()
    );
    println!(
        "| all judged (server) | {:.1} s, {:.1} submissions/s |",
        served.as_secs_f64(),
        per_second(count, served)
    );
    println!(
        "| judge grade, same files | {:.1} s, {:.1} submissions/s |",
        grade.as_secs_f64(),
        per_second(count, grade)
    );
    println!(
        "| the server's judging, first start to last end | {:.1} s, {:.1} submissions/s |",
        judging.as_secs_f64(),
        per_second(count, judging)
    );
    println!(
        "| **server's judging / grade time** | **{:.2}×** |",
        judging.as_secs_f64() / grade.as_secs_f64()
    );
    println!(
        "| all judged (from the first submission) / grade time | {:.2}× |",
        served.as_secs_f64() / grade.as_secs_f64()
    );
    println!(
        "| page latency while judging ({} pages) | p50 {:.1} ms, p99 {:.1} ms |",
        all.len(),
        percentile(&all, 0.5).as_secs_f64() * 1000.0,
        percentile(&all, 0.99).as_secs_f64() * 1000.0
    );
}
