//! Helpers for a package's tests: they run the package's built programs the
//! way the judge does and assert on what they say. (A plain module rather
//! than a dev-dependency feature, so a package's own `testing` module can
//! build on it for its solutions' tests.)

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use wait_timeout::ChildExt;

mod cases;
mod play;

pub use cases::{GeneratorCases, ValidatorCases};
pub use play::{Played, play, play_within};

/// Held while the helpers start programs. Tests run on parallel threads,
/// and a child forked by one holds copies of every pipe end the process
/// has open until it executes its program: a game's pipes must not gain
/// such a hidden reader or writer, or a write to a solution that stopped
/// reading succeeds instead of failing, and an end of input comes late.
/// (`Command::spawn` returns once the child has executed its program.)
pub(crate) fn spawn_lock() -> MutexGuard<'static, ()> {
    static SPAWN: Mutex<()> = Mutex::new(());
    SPAWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A binary of the workspace built next to the running test executable
/// (`target/<profile>/<name>`; tests run from `target/<profile>/deps/`).
/// Cargo builds only the binaries of the package under test, so use this for
/// those (or for `examples/<name>`), never to reach another package's.
pub fn sibling_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    let deps = exe.parent().expect("a folder holds the test executable");
    deps.parent().unwrap_or(deps).join(name)
}

/// `bin` of the workspace package `package`, built as the judge builds
/// package programs (`cargo build --profile judge`) into the running test's
/// target folder: for a test that needs another package's binary (a play
/// test of the solutions needs the package's interactor).
pub fn judge_binary(package: &str, bin: &str) -> PathBuf {
    // The test runs as <target>/<profile>/deps/<test>.
    let exe = std::env::current_exe().expect("the test's path");
    let target = exe.ancestors().nth(3).expect("<target>/<profile>/deps/");
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args([
            "build",
            "--quiet",
            "--profile",
            "judge",
            "-p",
            package,
            "--bin",
            bin,
        ])
        .env("CARGO_TARGET_DIR", target);
    let spawned = {
        let _spawning = spawn_lock();
        cargo.spawn()
    };
    let status = wait_within(
        spawned.expect("run cargo"),
        &format!("cargo build -p {package}"),
    );
    assert!(
        status.success(),
        "cargo build -p {package} --bin {bin} failed"
    );
    target.join("judge").join(bin)
}

/// A fresh folder under the system's temporary folder, removed on drop.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// A new empty folder whose name starts with `label`.
    pub fn new(label: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let unique = COUNT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("judge-kit-{label}-{}-{unique}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temporary folder");
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs `bin` on `args` with `input` on stdin (fed from a thread, so a
/// program that writes much before reading everything cannot deadlock).
pub fn run_with_input(bin: impl AsRef<Path>, args: &[&str], input: &[u8]) -> Output {
    let mut command = Command::new(bin.as_ref());
    command.args(args);
    run_command_with_input(command, input)
}

/// [`run_with_input`] for a command already set up (environment, ...).
fn run_command_with_input(mut command: Command, input: &[u8]) -> Output {
    let spawning = spawn_lock();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}",
                Path::new(command.get_program()).display()
            )
        });
    drop(spawning);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let what = Path::new(command.get_program()).display().to_string();
    std::thread::scope(|scope| {
        // A program may exit without reading all its input: not our concern.
        scope.spawn(move || stdin.write_all(input));
        output_within(child, &what)
    })
}

/// Says that the running test, or the part `detail` names, did not run
/// because the tool `need` is missing: on stderr, which the test runner
/// does not capture, so the skip shows; a failure instead where the
/// variable `JUDGE_TEST_REQUIRE` lists `need` (CI sets it to what its
/// machine has). The judge's own tests follow the same rule.
pub fn skip(need: &str, detail: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = format!("skipped: no {need}: {detail} ({test})");
    let required = std::env::var("JUDGE_TEST_REQUIRE")
        .is_ok_and(|list| list.split(',').any(|listed| listed.trim() == need));
    assert!(!required, "{line}, but JUDGE_TEST_REQUIRE lists {need}");
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// How long a test waits for a program it started: far above what any of
/// them needs, even on a machine with every core busy, so only a hang
/// reaches it.
pub const DEADLINE: Duration = Duration::from_secs(300);

/// Waits for `child` at most [`DEADLINE`]; past it, kills the child (by its
/// PID) and fails the test, naming `what`.
pub fn wait_within(child: Child, what: &str) -> ExitStatus {
    wait_for(child, what, DEADLINE)
}

fn wait_for(mut child: Child, what: &str, deadline: Duration) -> ExitStatus {
    match child.wait_timeout(deadline).expect("wait for a program") {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} ran longer than {deadline:?}: killed");
        }
    }
}

/// [`wait_within`] for a child whose stdout and stderr are piped: both are
/// read while it runs (so a full pipe cannot stall it) and returned.
pub fn output_within(mut child: Child, what: &str) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = wait_within(child, what);
    Output {
        status,
        stdout: stdout.join().expect("read stdout"),
        stderr: stderr.join().expect("read stderr"),
    }
}

/// Runs `bin` on `args` with an empty stdin.
pub fn run(bin: impl AsRef<Path>, args: &[&str]) -> Output {
    run_with_input(bin, args, b"")
}

/// A solution's output on `input`; it must exit successfully.
pub fn solve(bin: impl AsRef<Path>, input: &str) -> String {
    let out = run_with_input(bin.as_ref(), &[], input.as_bytes());
    assert!(
        out.status.success(),
        "{} failed ({}) on\n{input}",
        bin.as_ref().display(),
        out.status
    );
    String::from_utf8(out.stdout).expect("the solution prints UTF-8")
}

/// A generator's output on `args`; it must exit successfully.
pub fn generate(bin: impl AsRef<Path>, args: &[&str]) -> Vec<u8> {
    let out = run(bin, args);
    assert!(
        out.status.success(),
        "the generator failed on {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The generator's output is a function of its arguments (each of `same`
/// twice gives the same bytes), and the arguments matter (the two of
/// `differ` give different bytes).
pub fn assert_deterministic(bin: impl AsRef<Path>, same: &[&[&str]], differ: [&[&str]; 2]) {
    let bin = bin.as_ref();
    for args in same {
        assert_eq!(generate(bin, args), generate(bin, args), "{args:?}");
    }
    assert_ne!(generate(bin, differ[0]), generate(bin, differ[1]));
}

/// The generator fails, saying why, on each of these argument lists.
pub fn assert_rejects_args(bin: impl AsRef<Path>, bad: &[&[&str]]) {
    let bin = bin.as_ref();
    for args in bad {
        let out = run(bin, args);
        assert!(!out.status.success(), "accepted {args:?}");
        assert!(!out.stderr.is_empty(), "no reason given for {args:?}");
    }
}

/// A validator's exit code and message (stderr) on an input.
pub fn validate(bin: impl AsRef<Path>, input: &[u8]) -> (Option<i32>, String) {
    let out = run_with_input(bin, &[], input);
    let message = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), message)
}

/// Every `.in` under `package_dir/data`, sorted.
pub fn committed_inputs(package_dir: impl AsRef<Path>) -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "in") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(&package_dir.as_ref().join("data"), &mut found);
    found.sort();
    found
}

/// The validator accepts every committed input of the package, of which
/// there are at least `at_least` (so a moved data folder cannot pass).
pub fn assert_accepts_committed(
    validator: impl AsRef<Path>,
    package_dir: impl AsRef<Path>,
    at_least: usize,
) {
    let inputs = committed_inputs(package_dir);
    assert!(
        inputs.len() >= at_least,
        "expected at least {at_least} committed inputs, found {}",
        inputs.len()
    );
    for path in inputs {
        let input = std::fs::read(&path).expect("read a committed input");
        let (code, message) = validate(validator.as_ref(), &input);
        assert_eq!(code, Some(42), "{} rejected: {message}", path.display());
    }
}

/// The validator accepts each input.
pub fn assert_accepts_inputs<S: AsRef<[u8]>>(validator: impl AsRef<Path>, good: &[S]) {
    for input in good {
        let (code, message) = validate(validator.as_ref(), input.as_ref());
        let shown = String::from_utf8_lossy(input.as_ref());
        assert_eq!(code, Some(42), "rejected {shown:?}: {message}");
    }
}

/// The validator rejects each described input (exit 43), saying why.
pub fn assert_rejects_inputs<S: AsRef<[u8]>>(validator: impl AsRef<Path>, bad: &[(&str, S)]) {
    for (what, input) in bad {
        let (code, message) = validate(validator.as_ref(), input.as_ref());
        assert_eq!(code, Some(43), "accepted: {what}");
        assert!(!message.trim().is_empty(), "no reason given for: {what}");
    }
}

/// What a checker said about one output.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub code: Option<i32>,
    /// `judgemessage.txt`, empty when not written.
    pub judgemessage: String,
    /// `score.txt`, `None` when not written.
    pub score: Option<String>,
}

/// Runs a checker the way the judge does: `checker input answer
/// feedback_dir/ < output`, in a fresh folder.
pub fn check(checker: impl AsRef<Path>, input: &str, answer: &str, output: &[u8]) -> Checked {
    let ran = kattis_run(Command::new(checker.as_ref()), input, answer, output);
    Checked {
        code: ran.output.status.code(),
        judgemessage: ran.judgemessage,
        score: ran.score,
    }
}

/// What an interactor did with a submission's messages written in advance.
#[derive(Debug, Clone, PartialEq)]
pub struct Refereed {
    pub code: Option<i32>,
    /// `judgemessage.txt`, empty when not written.
    pub judgemessage: String,
    /// What it drew (on stderr) for a person playing.
    pub stderr: String,
}

/// Runs an interactor the way the judge does (`interactor input answer
/// feedback_dir/`) with the submission's messages `sent` on its stdin, as
/// for a deterministic referee whose answers are known in advance; with
/// `playing`, as `judge play` runs it (`JUDGE_PLAY=1`).
pub fn referee(
    interactor: impl AsRef<Path>,
    input: &str,
    answer: &str,
    sent: &str,
    playing: bool,
) -> Refereed {
    let mut command = Command::new(interactor.as_ref());
    command.env_remove("JUDGE_PLAY");
    if playing {
        command.env("JUDGE_PLAY", "1");
    }
    let ran = kattis_run(command, input, answer, sent.as_bytes());
    Refereed {
        code: ran.output.status.code(),
        judgemessage: ran.judgemessage,
        stderr: String::from_utf8_lossy(&ran.output.stderr).into_owned(),
    }
}

/// A run of a Kattis-protocol program and what it left in its feedback folder.
struct KattisRun {
    output: Output,
    judgemessage: String,
    score: Option<String>,
}

/// Runs `command input answer feedback_dir/ < stdin` in a fresh folder.
fn kattis_run(mut command: Command, input: &str, answer: &str, stdin: &[u8]) -> KattisRun {
    let dir = TempDir::new("kattis-run");
    let (input_path, answer_path) = (dir.path().join("in"), dir.path().join("ans"));
    std::fs::write(&input_path, input).expect("write the input");
    std::fs::write(&answer_path, answer).expect("write the answer");
    let feedback = play::feedback_dir(&dir);
    command.args([&input_path, &answer_path, &feedback]);
    let output = run_command_with_input(command, stdin);
    let read = |name| std::fs::read_to_string(feedback.join(name));
    KattisRun {
        output,
        judgemessage: read("judgemessage.txt").unwrap_or_default(),
        score: read("score.txt").ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_past_its_deadline_is_killed_and_the_test_fails() {
        let child = Command::new("sleep").arg("30").spawn().expect("run sleep");
        let pid = child.id();
        let waited = std::panic::catch_unwind(|| {
            wait_for(child, "sleep 30", Duration::from_millis(100));
        });
        let message = waited.expect_err("the wait fails");
        let message = message.downcast_ref::<String>().expect("a message");
        assert!(message.contains("sleep 30 ran longer than"), "{message}");
        // Reaped: the PID names no process of ours any more.
        assert!(!Path::new(&format!("/proc/{pid}")).exists());
    }

    #[test]
    fn a_program_within_its_deadline_gives_its_output() {
        let child = Command::new("sh")
            .args(["-c", "echo out; echo err >&2; exit 3"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run sh");
        let output = output_within(child, "sh");
        assert_eq!(output.status.code(), Some(3));
        assert_eq!(output.stdout, b"out\n");
        assert_eq!(output.stderr, b"err\n");
    }
}
