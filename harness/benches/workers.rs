//! Judging through the queue: a class of Python files for `sum` (each
//! file unique, so no result is reused) graded by `judge -j 1 grade
//! --class` alone, then put on the queue of a PostgreSQL store (`grade
//! --class --queue`) and judged by 1, 2 and 3 `judge -j 1 worker`
//! processes. Prints seconds, files per second, the ratio to the grading
//! alone, and the queue's overhead per job against it. Asserts nothing.
//!
//! Needs a PostgreSQL server whose user may create databases:
//! `cargo bench -p harness --bench workers -- --db postgres://USER@127.0.0.1:PORT/postgres`
//! (add `--students N`, default 60).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const AC: &str = "import sys\nd = sys.stdin.read().split()\nt = int(d[0])\n\
print('\\n'.join(str(int(d[1 + 2 * i]) + int(d[2 + 2 * i])) for i in range(t)))\n";
const WA: &str = "import sys\nd = sys.stdin.read().split()\nt = int(d[0])\n\
print('\\n'.join(str(int(d[1 + 2 * i]) - int(d[2 + 2 * i])) for i in range(t)))\n";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn judge() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_judge"));
    command.args(["--color", "never", "--root"]).arg(fixtures());
    command
}

fn make_class(dir: &Path, students: usize) {
    for s in 0..students {
        let student = dir.join(format!("s{s:03}"));
        std::fs::create_dir_all(&student).unwrap();
        let source = if s % 3 == 1 { WA } else { AC };
        std::fs::write(student.join("sum.py"), format!("{source}# s{s:03}\n")).unwrap();
    }
}

/// A worker process, killed by its PID when dropped.
struct Worker(Child);

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn with_database(url: &str, name: &str) -> String {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    // Two statements: CREATE DATABASE cannot share a transaction.
    for statement in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        client.batch_execute(&statement).unwrap();
    }
    let base = url.rsplit_once('/').unwrap().0;
    format!("{base}/{name}")
}

/// Seconds for `workers` workers to judge the class through the queue.
fn through_queue(url: &str, class: &Path, workers: usize) -> f64 {
    let db = with_database(url, &format!("judge_bench_{workers}"));
    let running: Vec<Worker> = (0..workers)
        .map(|n| {
            Worker(
                judge()
                    .args(["-j", "1", "worker", "sum", "--db", &db, "--name"])
                    .arg(format!("bench-{n}"))
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap(),
            )
        })
        .collect();
    // Timed from when every worker is ready (its problems built).
    let mut client = postgres::Client::connect(&db, postgres::NoTls).unwrap();
    let started = Instant::now();
    loop {
        let ready: i64 = client
            .query_one("SELECT COUNT(*) FROM workers", &[])
            .map_or(0, |row| row.get(0));
        if ready == workers as i64 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "workers did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let start = Instant::now();
    let status = judge()
        .args(["grade", "sum", "--class"])
        .arg(class)
        .args(["--queue", "--db", &db])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    assert!(status.success(), "grade --queue failed");
    drop(running);
    seconds
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let Some(url) = value("--db") else {
        println!("skipped: no PostgreSQL (pass --db postgres://USER@HOST:PORT/postgres)");
        return;
    };
    let students: usize = value("--students")
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    make_class(&class, students);

    let start = Instant::now();
    let status = judge()
        .args(["-j", "1", "grade", "sum", "--class"])
        .arg(&class)
        .arg("--db")
        .arg(dir.path().join("alone.db"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "grade --class failed");
    let alone = start.elapsed().as_secs_f64();

    println!("class: {students} Python files for `sum`");
    println!(
        "| {:<28} | {:>8} | {:>8} | {:>8} | {:>16} |",
        "how", "seconds", "files/s", "speed-up", "overhead/job ms"
    );
    println!(
        "|{:-<30}|{:->10}|{:->10}|{:->10}|{:->18}|",
        "", "", "", "", ""
    );
    let row = |how: &str, seconds: f64, overhead: Option<f64>| {
        println!(
            "| {:<28} | {:>8.2} | {:>8.1} | {:>7.2}× | {:>16} |",
            how,
            seconds,
            students as f64 / seconds,
            alone / seconds,
            overhead.map_or("".into(), |ms| format!("{ms:.0}")),
        );
    };
    row("judge -j 1 grade --class", alone, None);
    for workers in 1..=3 {
        let seconds = through_queue(&url, &class, workers);
        let overhead = (workers == 1).then(|| (seconds - alone) * 1000.0 / students as f64);
        row(
            &format!("queue, {workers} worker(s) -j 1"),
            seconds,
            overhead,
        );
    }
}
