//! Judging workers on PostgreSQL: a class put on the queue by `grade
//! --class --queue` and judged by three `judge worker` processes, one of
//! them SIGKILLed mid-job and another SIGSTOPped past its lease and then
//! resumed. Every submission is judged once, nothing is lost, the stale
//! result is refused, and the gradebook is the single-machine one.
//!
//! The class is small by default (CI's time is counted); set
//! `JUDGE_QUEUE_CLASS_SIZE` (e.g. 120) for a bigger one.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::class::csv_of;
use crate::postgres_server::postgres;
use crate::support::*;

/// The most any process of this test may take.
const DEADLINE: Duration = Duration::from_secs(300);
/// A claim's lease in the test: short, so a stopped worker loses its job.
const LEASE_SECS: &str = "2";

const AC: &str = "import sys\nd = sys.stdin.read().split()\nt = int(d[0])\n\
print('\\n'.join(str(int(d[1 + 2 * i]) + int(d[2 + 2 * i])) for i in range(t)))\n";
const WA: &str = "import sys\nd = sys.stdin.read().split()\nt = int(d[0])\n\
print('\\n'.join(str(int(d[1 + 2 * i]) - int(d[2 + 2 * i])) for i in range(t)))\n";
const TLE: &str = "while True:\n    pass\n";

/// A class of `size` students, each with a `sum.py`: mostly right, some
/// wrong, every tenth one a busy loop (slow jobs, so a worker is caught
/// holding one).
fn make_class(dir: &Path, size: usize) {
    for i in 0..size {
        let student = dir.join(format!("s{i:03}"));
        std::fs::create_dir_all(&student).unwrap();
        let source = match i {
            i if i % 10 == 0 => TLE,
            i if i % 3 == 1 => WA,
            _ => AC,
        };
        std::fs::write(student.join("sum.py"), source).unwrap();
    }
}

/// `judge ARGS` in the background, its output into `log`: killed by its
/// PID when dropped, waited for with a deadline.
fn spawn(args: &[&str], log: &Path) -> Background {
    let log = std::fs::File::create(log).unwrap();
    let mut command = Command::new(judge_binary());
    command
        .args(["--color", "never", "--root"])
        .arg(fixtures())
        .args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log);
    Background::start(&mut command)
}

/// Waits until `found` gives a value, asking every 20 ms.
fn wait_for<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = found() {
            return value;
        }
        assert!(started.elapsed() < DEADLINE, "waited too long for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The job `worker` holds now, with its fence.
fn held_by(db: &mut postgres::Client, worker: &str) -> Option<(i64, i64)> {
    db.query_opt(
        "SELECT id, fence FROM jobs WHERE worker = $1 AND state = 'running' LIMIT 1",
        &[&worker],
    )
    .unwrap()
    .map(|row| (row.get(0), row.get(1)))
}

fn class_size() -> usize {
    std::env::var("JUDGE_QUEUE_CLASS_SIZE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30)
}

#[test]
fn three_workers_judge_a_class_once_through_a_kill_and_a_stop() {
    if !have(&["python3"]) {
        return;
    }
    let Some(server) = postgres() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let size = class_size();
    make_class(&class, size);

    // The single-machine gradebook to compare with.
    let single = dir.path().join("single.db");
    judge_at(fixtures())
        .args(["grade", "sum", "--fail-fast", "--class"])
        .arg(&class)
        .arg("--db")
        .arg(&single)
        .timeout(DEADLINE)
        .assert()
        .success();
    let expected = csv_of(&fixtures(), &single);

    let url = server.database("queue");
    let log = |name: &str| dir.path().join(format!("{name}.log"));
    let class_arg = class.to_str().unwrap();
    let mut grading = spawn(
        &[
            "grade",
            "sum",
            "--fail-fast",
            "--class",
            class_arg,
            "--queue",
            "--db",
            &url,
        ],
        &log("grade"),
    );
    let mut client = server.client(url.rsplit('/').next().unwrap());
    wait_for("the class on the queue", || {
        let row = client.query_opt("SELECT COUNT(*) FROM jobs", &[]).ok()??;
        (row.get::<_, i64>(0) == size as i64).then_some(())
    });
    let mut workers: Vec<Background> = ["w1", "w2", "w3"]
        .iter()
        .map(|name| {
            spawn(
                &[
                    "-j", "1", "worker", "sum", "--db", &url, "--name", name, "--lease", LEASE_SECS,
                ],
                &log(name),
            )
        })
        .collect();

    // w1 is killed outright while it holds a job.
    let (killed_job, _) = wait_for("w1 to hold a job", || held_by(&mut client, "w1"));
    workers[0].signal(libc::SIGKILL);
    workers[0].wait_within(DEADLINE);

    // w2 is stopped while it holds a job, until another worker has taken
    // the job again (its lease passed), then resumed: its result is stale.
    let stale_job = wait_for("w2's job to be taken again", || {
        let (job, fence) = held_by(&mut client, "w2")?;
        workers[1].signal(libc::SIGSTOP);
        let taken_again = wait_for("the stopped job's lease to pass", || {
            let row = client
                .query_one(
                    "SELECT fence, state, worker FROM jobs WHERE id = $1",
                    &[&job],
                )
                .unwrap();
            let (now, state, by): (i64, String, Option<String>) =
                (row.get(0), row.get(1), row.get(2));
            if now > fence {
                Some(true)
            } else if state == "done" && by.as_deref() == Some("w2") {
                // w2 recorded it before the stop took: try another job.
                Some(false)
            } else {
                None
            }
        });
        if !taken_again {
            workers[1].signal(libc::SIGCONT);
        }
        taken_again.then_some(job)
    });
    workers[1].signal(libc::SIGCONT);

    assert_eq!(
        grading.wait_within(DEADLINE).code(),
        Some(0),
        "{}",
        read(&log("grade"))
    );
    // The stale result comes back and is refused.
    wait_for("w2's stale result to be refused", || {
        let row = client
            .query_one("SELECT refused FROM workers WHERE name = 'w2'", &[])
            .unwrap();
        (row.get::<_, i64>(0) >= 1).then_some(())
    });
    assert!(
        read(&log("w2")).contains("was refused"),
        "{}",
        read(&log("w2"))
    );

    // Every file judged exactly once, by a live worker.
    let row = client
        .query_one(
            "SELECT COUNT(*), COUNT(DISTINCT (student, problem)), \
             COUNT(CASE WHEN worker IS NULL THEN 1 END) FROM submissions \
             WHERE run_id = (SELECT MAX(id) FROM runs)",
            &[],
        )
        .unwrap();
    let (rows, distinct, unattributed): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
    assert_eq!(
        (rows, distinct, unattributed),
        (size as i64, size as i64, 0)
    );
    let row = client
        .query_one(
            "SELECT COUNT(*) FROM jobs WHERE state <> 'done' OR submission_id IS NULL",
            &[],
        )
        .unwrap();
    assert_eq!(
        row.get::<_, i64>(0),
        0,
        "every job done with its submission"
    );
    for job in [killed_job, stale_job] {
        let row = client
            .query_one("SELECT claims FROM jobs WHERE id = $1", &[&job])
            .unwrap();
        assert!(row.get::<_, i64>(0) >= 2, "job {job} was claimed again");
    }
    assert_eq!(csv_of(&fixtures(), &PathBuf::from(&url)), expected);

    // SIGTERM stops the others gracefully; `judge workers` lists all three.
    for worker in &mut workers[1..] {
        worker.signal(libc::SIGTERM);
        worker.wait_within(DEADLINE);
    }
    let listed = judge_at(fixtures())
        .args(["workers", "--db", &url])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let listed = String::from_utf8(listed).unwrap();
    for name in ["w1", "w2", "w3"] {
        assert!(listed.contains(name), "{listed}");
    }
    assert_eq!(listed.matches("stopped").count(), 2, "{listed}");
    assert!(listed.contains("stale results refused"), "{listed}");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}
