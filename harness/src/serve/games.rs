//! The games of the play page (`play.rs`): a person takes the
//! submission's seat against the package's referee, as `judge play` does in
//! a terminal, one line per form post (no script needed). The referee is
//! started with the arguments of a judged conversation (`referee_args`,
//! `JUDGE_PLAY=1`) on the problem's first *sample* test only (a secret
//! test's referee would draw and tell its secret). It is fed by a person's
//! lines, so it runs in the sandbox as a submission does (its own uid,
//! namespaces, limits; `Worker::run_attached`), in a scratch folder holding
//! copies of the sample's files; its verdict is `judge play`'s
//! (`game_result`, read from what it left in its feedback folder). One
//! game per account, at most `MAX_GAMES` at once, each ended after `IDLE`
//! without a move or `LIFETIME` in all; what it said is kept up to
//! `TRANSCRIPT_LIMIT`.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::error::AppError;
use crate::judging::ServedProblem;
use crate::sandbox::{
    Attached, Collect, Containment, Limits, RunOutcome, Sandbox, SandboxError, Termination,
};

const MAX_GAMES: usize = 8;
const IDLE: Duration = Duration::from_secs(10 * 60);
const LIFETIME: Duration = Duration::from_secs(30 * 60);
const TRANSCRIPT_LIMIT: usize = 64 << 10;
/// How long a move waits for the referee's answer before the page shows.
const ANSWER_WAIT: Duration = Duration::from_millis(1500);
/// The CPU a referee may use in a whole game (thinking between moves).
const REFEREE_CPU: Duration = Duration::from_secs(60);

/// Who said a line: the referee's output, its drawing (stderr), or you.
pub(crate) type Line = (&'static str, String);

/// The referee's run in its box, on a thread of its own.
type RefereeRun = JoinHandle<Result<RunOutcome, SandboxError>>;

struct Game {
    problem: String,
    /// Where the person's lines go (the referee's stdin).
    stdin: Option<File>,
    run: Option<RefereeRun>,
    /// The referee's pid once it runs (0 before), to stop it.
    pid: Arc<AtomicI32>,
    lines: Arc<Mutex<Vec<Line>>>,
    readers: Vec<JoinHandle<Vec<u8>>>,
    scratch: tempfile::TempDir,
    started: Instant,
    last_move: Instant,
    result: Option<String>,
}

impl Game {
    /// Whether the referee's run is over.
    fn over(&self) -> bool {
        self.run.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Stops the referee (its whole box) and waits for its run to end.
    fn end(&mut self) {
        self.stdin = None;
        if !self.over() {
            let pid = self.pid.load(Ordering::SeqCst);
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
        }
        if let Some(run) = self.run.take() {
            let _ = run.join();
        }
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        if self.result.is_none() {
            self.end();
        }
    }
}

/// Every game in progress, by account.
pub(crate) struct Games {
    /// Set once the problems are built (the server listens before).
    problems: std::sync::OnceLock<Arc<Vec<ServedProblem>>>,
    sandbox: Sandbox,
    scratch: PathBuf,
    games: Mutex<HashMap<i64, Game>>,
}

impl Games {
    pub(crate) fn new(sandbox: Sandbox, scratch: PathBuf) -> Games {
        Games {
            problems: std::sync::OnceLock::new(),
            sandbox,
            scratch,
            games: Mutex::new(HashMap::new()),
        }
    }

    /// The problems are built: games may start.
    pub(crate) fn ready(&self, problems: Arc<Vec<ServedProblem>>) {
        let _ = self.problems.set(problems);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Game>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends games nobody plays any more.
    fn sweep(&self) {
        self.lock().retain(|_, game| {
            game.result.is_some() && game.last_move.elapsed() < IDLE
                || game.last_move.elapsed() < IDLE && game.started.elapsed() < LIFETIME
        });
    }

    pub(crate) fn start(&self, account: i64, problem: &str) -> Result<(), AppError> {
        self.sweep();
        let problems = self.problems.get().ok_or(AppError::NotReady)?;
        let served = problems
            .iter()
            .find(|p| p.spec.id == problem)
            .ok_or(AppError::NotFound)?;
        let (Some(interactor), Some(exe)) = (
            served.spec.playable_referee(),
            served.judges.judging_program(),
        ) else {
            return Err(AppError::NotFound);
        };
        let test = sample_test(&served.spec).ok_or(AppError::NotFound)?;
        let mut games = self.lock();
        games.remove(&account);
        if games.len() >= MAX_GAMES {
            return Err(AppError::TooMany(
                "Every game table is taken: try again in a few minutes.".into(),
            ));
        }
        let scratch =
            tempfile::tempdir_in(&self.scratch).map_err(|e| AppError::Internal(e.to_string()))?;
        let internal = |e: std::io::Error| AppError::Internal(format!("start the referee: {e}"));
        let request =
            referee_request(served, interactor, exe, test, scratch.path()).map_err(internal)?;
        let (stdin_child, stdin) = rustix::pipe::pipe().map_err(|e| internal(e.into()))?;
        let (stdout, stdout_child) = rustix::pipe::pipe().map_err(|e| internal(e.into()))?;
        let (stderr, stderr_child) = rustix::pipe::pipe().map_err(|e| internal(e.into()))?;
        let pid = Arc::new(AtomicI32::new(0));
        let attached = Attached {
            stdin: stdin_child,
            stdout: stdout_child,
            stderr: stderr_child,
            started: pid.clone(),
        };
        let sandbox = self.sandbox.clone();
        // A box is its thread's: the referee's run has a thread of its own.
        let run = std::thread::Builder::new()
            .name("referee".into())
            .spawn(move || sandbox.worker().run_attached(&request, attached))
            .map_err(internal)?;
        let lines = Arc::new(Mutex::new(Vec::new()));
        let readers = vec![
            collect(Box::new(File::from(stdout)), "referee", lines.clone()),
            collect(Box::new(File::from(stderr)), "board", lines.clone()),
        ];
        games.insert(
            account,
            Game {
                problem: problem.to_string(),
                stdin: Some(File::from(stdin)),
                run: Some(run),
                pid,
                lines: lines.clone(),
                readers,
                scratch,
                started: Instant::now(),
                last_move: Instant::now(),
                result: None,
            },
        );
        drop(games);
        // The page shows the referee's first board, not an empty game.
        wait_for_more(&lines, 0);
        Ok(())
    }

    pub(crate) fn send(&self, account: i64, line: &str) -> Result<(), AppError> {
        let said = {
            let mut games = self.lock();
            let game = games
                .get_mut(&account)
                .ok_or(AppError::BadRequest("no game: start one".into()))?;
            game.last_move = Instant::now();
            let text: String = line
                .chars()
                .filter(|c| !c.is_control())
                .take(1000)
                .collect();
            game.lines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(("you", text.clone()));
            if let Some(stdin) = &mut game.stdin {
                if writeln!(stdin, "{text}")
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    game.stdin = None;
                }
            }
            game.lines.clone()
        };
        // The referee's answer, if it comes soon, is on the next page.
        let before = said.lock().unwrap_or_else(|e| e.into_inner()).len();
        wait_for_more(&said, before);
        Ok(())
    }

    /// The person has made their last move: the referee's input ends (as
    /// Ctrl-D ends it in `judge play`), so a referee that reads to the end
    /// of the game decides, and its result is on the next page.
    pub(crate) fn finish(&self, account: i64) -> Result<(), AppError> {
        {
            let mut games = self.lock();
            let game = games
                .get_mut(&account)
                .ok_or(AppError::BadRequest("no game: start one".into()))?;
            game.last_move = Instant::now();
            game.stdin = None;
        }
        let asked = Instant::now();
        while asked.elapsed() < ANSWER_WAIT {
            let over = self.lock().get_mut(&account).is_none_or(|g| g.over());
            if over {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// The person gives up: the referee is stopped; the game so far stays
    /// on the page, with "you gave up" as its result.
    pub(crate) fn stop(&self, account: i64) {
        if let Some(game) = self.lock().get_mut(&account) {
            if game.result.is_none() {
                game.end();
                game.result = Some("You gave up.".into());
            }
        }
    }

    /// The game's lines, whether it goes on, and its result once over.
    pub(crate) fn view(&self, account: i64, problem: &str) -> (Vec<Line>, bool, String) {
        let mut games = self.lock();
        let Some(game) = games.get_mut(&account).filter(|g| g.problem == problem) else {
            return (Vec::new(), false, String::new());
        };
        if game.result.is_none() && game.over() {
            let outcome = game
                .run
                .take()
                .map(|run| run.join().unwrap_or(Err(SandboxError::Interrupted)));
            let status = outcome
                .as_ref()
                .map_or_else(|| exit_status(&Err(SandboxError::Interrupted)), exit_status);
            {
                // Both pipes read to their end; the referee's stderr is last.
                let ends: Vec<Vec<u8>> = game
                    .readers
                    .drain(..)
                    .map(|r| r.join().unwrap_or_default())
                    .collect();
                let stderr = ends.into_iter().next_back().unwrap_or_default();
                let served = self
                    .problems
                    .get()
                    .and_then(|all| all.iter().find(|p| p.spec.id == problem));
                let result = served.map(|served| {
                    let test = sample_test(&served.spec);
                    test.map(|test| {
                        crate::runner::game_result(
                            &self.sandbox.worker(),
                            &served.spec,
                            served.judges.output_checker(),
                            test,
                            status,
                            &stderr,
                            &game.scratch.path().join("feedback"),
                        )
                    })
                });
                game.result = Some(match result.flatten() {
                    Some((crate::verdict::Verdict::Accepted, words)) => {
                        format!("You win (AC). {words}")
                    }
                    Some((crate::verdict::Verdict::JudgeError, words)) => {
                        format!("The referee broke down: a judge error. {words}")
                    }
                    Some((verdict, words)) => format!("The referee wins ({verdict}). {words}"),
                    None => "The game is over.".into(),
                });
                game.stdin = None;
            }
        }
        let lines = game.lines.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let result = crate::escape::visible(game.result.as_deref().unwrap_or_default());
        (lines, game.result.is_none(), result)
    }
}

/// Waits a little (`ANSWER_WAIT` at most) for the transcript to grow past
/// `before` lines, and a moment more for the rest of that answer.
fn wait_for_more(lines: &Mutex<Vec<Line>>, before: usize) {
    let asked = Instant::now();
    while asked.elapsed() < ANSWER_WAIT {
        if lines.lock().unwrap_or_else(|e| e.into_inner()).len() > before {
            std::thread::sleep(Duration::from_millis(50));
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The referee's run on `test` in its box: its program with the arguments
/// of a judged conversation, the test's files copied into its folder
/// (`folder/box`, where a Kattis referee's feedback goes too), contained
/// as a submission; what it leaves there is copied to `folder/feedback`
/// however it ends.
fn referee_request(
    served: &ServedProblem,
    interactor: &crate::spec::ToolSpec,
    exe: &crate::compile::Executable,
    test: &crate::spec::TestCase,
    folder: &Path,
) -> std::io::Result<crate::sandbox::RunRequest> {
    let workdir = folder.join("box");
    std::fs::create_dir(&workdir)?;
    let mut in_box = test.clone();
    in_box.input = workdir.join("input");
    in_box.answer = workdir.join("answer");
    let limits = Limits {
        time: REFEREE_CPU,
        wall: LIFETIME + IDLE,
        memory: served.spec.limits.memory.max(256 << 20),
        output: 16 << 20,
    };
    let mut request = exe.request(&workdir, limits, Containment::Submission);
    request.args = crate::runner::referee_args(interactor, exe, &in_box, &workdir);
    request.env = vec![("JUDGE_PLAY".into(), "1".into())];
    request.seed = vec![
        (PathBuf::from("input"), std::fs::read(&test.input)?),
        (PathBuf::from("answer"), std::fs::read(&test.answer)?),
    ];
    request.collect = Some(Collect {
        into: folder.join("feedback"),
        max_bytes: 1 << 20,
        max_files: 64,
        working_bytes: 32 << 20,
        whatever_the_exit: true,
    });
    Ok(request)
}

/// How a referee's run ended, as a process's exit status (what
/// `game_result` reads): its exit code, or a kill.
fn exit_status(outcome: &Result<RunOutcome, SandboxError>) -> std::process::ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    match outcome {
        Ok(RunOutcome {
            termination: Termination::Exited(code),
            ..
        }) => std::process::ExitStatus::from_raw((code & 0xff) << 8),
        _ => std::process::ExitStatus::from_raw(libc::SIGKILL),
    }
}

/// The test a game is played on: the problem's first sample (never a
/// secret test).
fn sample_test(spec: &crate::spec::ProblemSpec) -> Option<&crate::spec::TestCase> {
    spec.tests.iter().find(|t| t.is_sample())
}

/// Reads a referee's pipe into the transcript line by line (escaped, up to
/// the limit; read to its end whatever the limit); returns the end of it.
fn collect(
    mut pipe: Box<dyn Read + Send>,
    who: &'static str,
    lines: Arc<Mutex<Vec<Line>>>,
) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        let mut pending: Vec<u8> = Vec::new();
        let mut tail: Vec<u8> = Vec::new();
        let mut kept = 0;
        while let Ok(n) = pipe.read(&mut buffer) {
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&buffer[..n]);
            if tail.len() > 4096 {
                tail.drain(..tail.len() - 4096);
            }
            pending.extend_from_slice(&buffer[..n]);
            while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                kept += line.len();
                if kept <= TRANSCRIPT_LIMIT {
                    let text = crate::escape::visible_bytes(&line[..line.len() - 1]);
                    lines
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((who, text));
                }
            }
        }
        if !pending.is_empty() && kept + pending.len() <= TRANSCRIPT_LIMIT {
            let text = crate::escape::visible_bytes(&pending);
            lines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((who, text));
        }
        tail
    })
}
