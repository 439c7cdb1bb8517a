//! A real PostgreSQL server for the tests: Debian's `postgresql` binaries,
//! a cluster made once per build by `initdb` (in cargo's target temporary
//! folder) and copied for the one server this test binary starts on first
//! use, run as a user that is not root on a loopback port. Each test takes
//! a database of its own on it. The server is killed by the kernel when
//! the test process ends (a parent-death signal), and by its PID once it
//! has outlived its deadline.
//!
//! Where PostgreSQL is not installed the tests say `skipped: no postgres`
//! (`support::skip`); that is a failure where `JUDGE_TEST_REQUIRE` lists
//! `postgres`, as CI's does once it has installed it (`.ci/run`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The most a server may live: a test that hangs does not keep it.
const LIFETIME: Duration = Duration::from_secs(20 * 60);
/// How long a server may take to accept connections.
const START_DEADLINE: Duration = Duration::from_secs(60);
/// The cluster's superuser (no password: trust on loopback only).
pub const USER: &str = "judge";

/// The running server.
pub struct Postgres {
    port: u16,
    /// Makes database names unique within the test binary.
    databases: AtomicUsize,
}

static SERVER: OnceLock<Option<Postgres>> = OnceLock::new();

/// The test binary's server, started on first use, or `None` (having said
/// `skipped: no postgres`) where PostgreSQL is not installed; fails
/// instead where `JUDGE_TEST_REQUIRE` lists `postgres`.
pub fn postgres() -> Option<&'static Postgres> {
    let server = SERVER.get_or_init(|| binaries().map(|bin| Postgres::start(&bin)));
    if server.is_none() {
        crate::support::skip(
            "postgres",
            "initdb and postgres (apt-get install postgresql)",
        );
    }
    server.as_ref()
}

/// The folder holding `initdb` and `postgres`: on PATH, else Debian's
/// `/usr/lib/postgresql/<version>/bin` (the newest).
fn binaries() -> Option<PathBuf> {
    if let Some(initdb) = crate::support::which("initdb") {
        let dir = initdb.canonicalize().ok()?.parent()?.to_path_buf();
        if dir.join("postgres").is_file() {
            return Some(dir);
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").is_file())
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// Who runs the server: PostgreSQL refuses root, so root's tests run it
/// as `nobody`; anyone else runs it as themselves.
fn server_user() -> Option<(u32, u32)> {
    if rustix::process::geteuid().as_raw() != 0 {
        return None;
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let line = passwd
        .lines()
        .find(|l| l.starts_with("nobody:"))
        .expect("a `nobody` user to run PostgreSQL as");
    let fields: Vec<&str> = line.split(':').collect();
    Some((fields[2].parse().unwrap(), fields[3].parse().unwrap()))
}

fn as_server_user(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    if let Some((uid, gid)) = server_user() {
        command.uid(uid).gid(gid);
    }
    command
}

fn chown_tree(dir: &Path) {
    let Some((uid, gid)) = server_user() else {
        return;
    };
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        std::os::unix::fs::lchown(entry.path(), Some(uid), Some(gid)).unwrap();
    }
}

/// The cluster `initdb` made for this build, made on first use: into a
/// folder of its own, then renamed into place, so two test processes
/// never see half of one.
fn template(bin: &Path) -> PathBuf {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let version = bin
        .parent()
        .and_then(Path::file_name)
        .map_or("pg".into(), |v| v.to_string_lossy().into_owned());
    let done = base.join(format!("postgres-template-{version}"));
    if done.join("PG_VERSION").is_file() {
        return done;
    }
    let making = tempfile::Builder::new()
        .prefix("postgres-making-")
        .tempdir_in(&base)
        .unwrap();
    open_to_server_user(making.path());
    let data = making.path().join("data");
    std::fs::create_dir(&data).unwrap();
    chown_tree(&data);
    let output = as_server_user(&mut Command::new(bin.join("initdb")))
        .arg("-D")
        .arg(&data)
        .args(["-U", USER, "--auth=trust", "--no-sync", "--no-locale"])
        .args(["-E", "UTF8"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Another process may have won the race: its template is as good.
    if std::fs::rename(&data, &done).is_err() {
        assert!(done.join("PG_VERSION").is_file());
    }
    done
}

/// Lets the server's user into a folder root made.
fn open_to_server_user(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if server_user().is_some() {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The folders of servers from earlier test processes that have ended
/// (their servers died with them), removed before a new one is made.
fn remove_stale_runs(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("postgres-run-")) else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Postgres {
    fn start(bin: &Path) -> Postgres {
        let template = template(bin);
        let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        remove_stale_runs(&base);
        let dir = base.join(format!("postgres-run-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        open_to_server_user(&dir);
        let data = dir.join("data");
        crate::support::copy_dir(&template, &data);
        chown_tree(&data);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
        let log_path = dir.join("server.log");
        let log = std::fs::File::create(&log_path).unwrap();
        chown_tree(&log_path);
        let port = free_port();
        let mut command = Command::new(bin.join("postgres"));
        as_server_user(&mut command)
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string()])
            .args(["-c", "listen_addresses=127.0.0.1"])
            .args(["-c", "unix_socket_directories="])
            .args(["-c", "max_connections=200"])
            // A test's data need not survive a crash of the machine.
            .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
            .args(["-c", "full_page_writes=off"])
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        // SAFETY: the closure only makes one system call (prctl), which is
        // async-signal-safe, and allocates nothing.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(|| {
                // The server dies with the thread that started it, which
                // lives as long as the test process, even one killed
                // outright.
                rustix::process::set_parent_process_death_signal(Some(
                    rustix::process::Signal::KILL,
                ))
                .map_err(std::io::Error::from)
            });
        }
        let (sender, started) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut child = command.spawn().unwrap();
            sender.send(child.id()).unwrap();
            // Kept alive for the parent-death signal; ends the server by
            // its PID once it has outlived its deadline.
            std::thread::sleep(LIFETIME);
            eprintln!("postgres {} outlived its {LIFETIME:?}: killed", child.id());
            let _ = child.kill();
            let _ = child.wait();
        });
        started.recv().unwrap();
        let server = Postgres {
            port,
            databases: AtomicUsize::new(0),
        };
        server.wait_until_ready(&log_path);
        server
    }

    fn wait_until_ready(&self, log: &Path) {
        let deadline = Instant::now() + START_DEADLINE;
        loop {
            match postgres::Client::connect(&self.url("postgres"), postgres::NoTls) {
                Ok(_) => return,
                Err(error) if Instant::now() > deadline => panic!(
                    "postgres did not start in time ({error}); its log: {}",
                    std::fs::read_to_string(log).unwrap_or_default()
                ),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// The URL of `database` on this server.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{database}", self.port)
    }

    /// A new, empty database named after `name` (numbered: unique in
    /// this test binary); its URL.
    pub fn database(&self, name: &str) -> String {
        let name = format!("{name}_{}", self.databases.fetch_add(1, Ordering::SeqCst));
        let mut client = self.client("postgres");
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        self.url(&name)
    }

    /// A client of `database`, for a test's own questions.
    pub fn client(&self, database: &str) -> postgres::Client {
        postgres::Client::connect(&self.url(database), postgres::NoTls).unwrap()
    }
}
