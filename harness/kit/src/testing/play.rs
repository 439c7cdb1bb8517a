//! [`play`]: an interactor against a solution, wired the way the judge wires
//! them (Kattis): the solution's stdout is the interactor's stdin and the
//! interactor's stdout the solution's stdin.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::TempDir;

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// 42 accept, 43 reject; `None` when killed by a signal.
    pub interactor_code: Option<i32>,
    pub solution_code: Option<i32>,
    /// The interactor's `judgemessage.txt` (empty when not written).
    pub judgemessage: String,
    /// The pair was still running at the deadline and was killed.
    pub timed_out: bool,
}

/// A `feedback/` folder inside `dir`, given with a trailing separator as the
/// Kattis protocol does.
pub(super) fn feedback_dir(dir: &TempDir) -> PathBuf {
    let feedback = dir.path().join("feedback");
    std::fs::create_dir_all(&feedback).expect("create the feedback folder");
    let mut with_slash = feedback.into_os_string();
    with_slash.push("/");
    with_slash.into()
}

/// [`play_within`] with a 10 s deadline.
pub fn play(interactor: Command, solution: Command, input: &str, answer: &str) -> Played {
    play_within(interactor, solution, input, answer, Duration::from_secs(10))
}

/// Plays `interactor` (which gets `input answer feedback_dir/` appended to
/// its arguments) against `solution`, both killed at `deadline` (a test must
/// fail, not hang, when they wait on each other).
pub fn play_within(
    mut interactor: Command,
    mut solution: Command,
    input: &str,
    answer: &str,
    deadline: Duration,
) -> Played {
    let dir = TempDir::new("play");
    let (input_path, answer_path) = (dir.path().join("in"), dir.path().join("ans"));
    std::fs::write(&input_path, input).expect("write the input");
    std::fs::write(&answer_path, answer).expect("write the answer");
    let feedback = feedback_dir(&dir);

    // Both started, and our copies of their pipe ends closed, before any
    // other helper starts a program (see `spawn_lock`).
    let spawning = super::spawn_lock();
    let mut solution = solution
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the solution");
    let to_solution = solution.stdin.take().expect("piped stdin");
    let from_solution = solution.stdout.take().expect("piped stdout");
    let spawned = interactor
        .args([&input_path, &answer_path, &feedback])
        .stdin(from_solution)
        .stdout(to_solution)
        .spawn();
    // The `Command` holds our copies of the pipe ends: drop it, so each pipe
    // has one reader and one writer and each side sees end of input as soon
    // as the other one exits.
    drop(interactor);
    drop(spawning);
    let interactor = match spawned {
        Ok(child) => child,
        Err(e) => {
            kill(&mut solution);
            panic!("cannot start the interactor: {e}");
        }
    };

    let start = Instant::now();
    let mut timed_out = false;
    let mut children = [interactor, solution];
    let mut statuses = [None, None];
    loop {
        for (child, status) in children.iter_mut().zip(&mut statuses) {
            if status.is_none() {
                *status = child.try_wait().expect("poll a child");
            }
        }
        if statuses.iter().all(Option::is_some) {
            break;
        }
        if start.elapsed() > deadline {
            timed_out = true;
            children.iter_mut().for_each(kill);
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let [interactor_code, solution_code] = statuses.map(|s| s.and_then(|s| s.code()));
    Played {
        interactor_code,
        solution_code,
        judgemessage: std::fs::read_to_string(PathBuf::from(&feedback).join("judgemessage.txt"))
            .unwrap_or_default(),
        timed_out,
    }
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}
