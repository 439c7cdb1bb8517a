//! What a test needs from the machine (a compiler, a browser, root), what
//! it says when that is missing, and how it runs a command: never a silent
//! pass, never a hang.
//!
//! A test that cannot run, or a part of one, calls [`skip`] (or asks
//! [`have`], which does): it prints `skipped: no gcc (module::test)` straight
//! to the terminal, where the test runner does not capture it, so every skip
//! shows in `cargo test`'s output and can be counted
//! (`cargo test 2>&1 | grep -c '^skipped: '`). When the variable
//! `JUDGE_TEST_REQUIRE` lists what is missing
//! (`JUDGE_TEST_REQUIRE=gcc,g++,python3,root`), the test fails instead:
//! CI sets it to what its machine has, so there a skip is a failure.
//!
//! The names a test may need: any program on PATH by its name (`gcc`,
//! `rustc`, `setpriv`, `chromedriver`, ...), and three more: `root` (the
//! tests run as uid 0), `chromium` (Chromium or Chrome by any of their
//! names) and `checktestdata` (the C++ tool, or the Python one's `pyctd`
//! or module, as the judge looks for it). Two are said only by the tests
//! that start them, through [`skip`]: `postgres` (a server of the suite's
//! own) and `slurm` (a single-node cluster).
//!
//! Every command a test runs has a deadline: run to its end through
//! [`bounded`], or in the background as a [`Background`], killed by its
//! PID when the test ends.
//!
//! One file for both kinds of test: the library's unit tests have it as
//! `crate::test_support`, and the integration suite includes this same
//! file (`tests/integration/support.rs`).

// Each of the two test crates uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The variable whose list turns a skip into a failure.
pub(crate) const REQUIRE: &str = "JUDGE_TEST_REQUIRE";

/// Whether every one of `needs` is on this machine; each one missing is
/// reported by [`skip`] (and fails the test when required).
pub(crate) fn have(needs: &[&str]) -> bool {
    let missing: Vec<&str> = needs
        .iter()
        .copied()
        .filter(|need| !present(need))
        .collect();
    for need in &missing {
        skip(need, "");
    }
    missing.is_empty()
}

/// Says that the running test, or the part `detail` names, did not run
/// because `need` is missing. Panics instead when `JUDGE_TEST_REQUIRE`
/// lists `need`.
pub(crate) fn skip(need: &str, detail: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = if detail.is_empty() {
        format!("skipped: no {need} ({test})")
    } else {
        format!("skipped: no {need}: {detail} ({test})")
    };
    assert!(
        !required(need),
        "{line}, but {REQUIRE} says this machine has {need}"
    );
    // Not `println!`: the test runner captures that and shows it only when
    // the test fails. Writing to the stream itself is seen every time.
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Whether `JUDGE_TEST_REQUIRE` lists `need`.
pub(crate) fn required(need: &str) -> bool {
    std::env::var(REQUIRE).is_ok_and(|list| list.split(',').any(|listed| listed.trim() == need))
}

/// Whether `need` is here (see the module's note for the names).
pub(crate) fn present(need: &str) -> bool {
    match need {
        "root" => rustix::process::geteuid().is_root(),
        "checktestdata" => {
            find("checktestdata").is_some()
                || find("pyctd").is_some()
                || find("python3").is_some_and(|python| {
                    let mut probe = std::process::Command::new(python);
                    probe.args(["-c", "import checktestdata"]);
                    bounded(probe)
                        .timeout(Duration::from_secs(30))
                        .output()
                        .is_ok_and(|output| output.status.success())
                })
        }
        _ => find(need).is_some(),
    }
}

/// The program `name` on PATH; `chromium` is Chromium or Chrome by any of
/// their names.
pub(crate) fn find(name: &str) -> Option<PathBuf> {
    let names: &[&str] = match name {
        "chromium" => &["chromium", "chromium-browser", "google-chrome"],
        _ => &[name],
    };
    let paths = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|path| path.is_file())
    })
}

/// How long any one command a test runs may take before it is killed (by
/// its PID, then reaped) and the test fails: generous, as a cold `judge
/// verify` compiles every program of a package on a machine shared by
/// several builds, but finite, so that no test hangs CI.
pub(crate) const CLI_TIMEOUT: Duration = Duration::from_secs(300);

/// `command` as every test runs a command to its end: stdin, stdout and
/// stderr piped (see `assert_cmd::Command::output`), and killed after
/// `CLI_TIMEOUT` (a kill shows as `signal: 9` in the failed assertion).
/// A tighter deadline that a test checks goes on top, with `.timeout()`.
pub(crate) fn bounded(command: std::process::Command) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::from_std(command);
    cmd.timeout(CLI_TIMEOUT);
    cmd
}

/// A command a test runs in the background, to signal it or to watch what
/// it does meanwhile: waited for with a deadline, and killed by its PID
/// (then reaped) if it is still running when the test ends, passed or
/// failed.
pub(crate) struct Background {
    child: std::process::Child,
    name: String,
    reaped: bool,
}

impl Background {
    pub(crate) fn start(command: &mut std::process::Command) -> Background {
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {:?}: {e}", command.get_program()));
        Background {
            child,
            name: command.get_program().to_string_lossy().into_owned(),
            reaped: false,
        }
    }

    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Its stdout, which the command must have piped.
    pub(crate) fn take_stdout(&mut self) -> std::process::ChildStdout {
        self.child
            .stdout
            .take()
            .expect("the command pipes its stdout")
    }

    /// Sends `signal` (a `libc::SIG*`) to the process.
    pub(crate) fn signal(&self, signal: i32) {
        assert!(!self.reaped, "the process has ended");
        // SAFETY: a signal to our own child, which is not reaped yet, so
        // its PID cannot have been reused.
        unsafe { libc::kill(self.child.id() as i32, signal) };
    }

    /// Its exit status, waiting at most `limit`; on time-out it is killed
    /// and the test fails.
    pub(crate) fn wait_within(&mut self, limit: Duration) -> std::process::ExitStatus {
        match wait_timeout::ChildExt::wait_timeout(&mut self.child, limit) {
            Ok(Some(status)) => {
                self.reaped = true;
                status
            }
            Ok(None) => {
                self.kill();
                panic!("{} did not end within {limit:?} (killed it)", self.name);
            }
            Err(e) => panic!("cannot wait for the process: {e}"),
        }
    }

    /// Kills it by its PID and reaps it.
    pub(crate) fn kill(&mut self) {
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.kill();
    }
}
