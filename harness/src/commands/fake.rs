//! What a verb's unit test runs on: a box whose runs are answered by a
//! script from the program's file name and its input (what it prints,
//! how it ends, the CPU time it took), and a buffer for what the verb
//! prints. With `compile::fake::FakeBuilder`, a `Context::fake` starts no
//! process. (The runner's `Scripted` answers by the input alone; a verb
//! judges several programs, each its own way.)

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::sandbox::SandboxError;
use crate::sandbox::{Interaction, RunOutcome, RunRequest, Runs, Termination};

/// How a scripted run went.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub(crate) termination: Termination,
    pub(crate) stdout: String,
    pub(crate) cpu: Duration,
    /// A file the program writes where an argument of its names: the
    /// flag before that argument (`--constraints_file`), and the text.
    pub(crate) writes: Option<(&'static str, String)>,
}

impl Answer {
    /// Exits with 0 after 10 ms of CPU, having printed `stdout`.
    pub(crate) fn prints(stdout: impl Into<String>) -> Answer {
        Answer {
            termination: Termination::Exited(0),
            stdout: stdout.into(),
            cpu: Duration::from_millis(10),
            writes: None,
        }
    }

    /// As `prints`, after `cpu` of CPU time.
    pub(crate) fn after(self, cpu: Duration) -> Answer {
        Answer { cpu, ..self }
    }

    /// As before, having written `text` to the file named by the argument
    /// after `flag` (a validator's report of the bounds it checked).
    pub(crate) fn writing(self, flag: &'static str, text: impl Into<String>) -> Answer {
        Answer {
            writes: Some((flag, text.into())),
            ..self
        }
    }

    /// Killed at the CPU limit (given as `limit`), having printed nothing.
    pub(crate) fn times_out(limit: Duration) -> Answer {
        Answer {
            termination: Termination::CpuLimit,
            stdout: String::new(),
            cpu: limit + Duration::from_millis(10),
            writes: None,
        }
    }
}

impl From<Answer> for RunOutcome {
    fn from(answer: Answer) -> RunOutcome {
        let cpu_ms = u64::try_from(answer.cpu.as_millis()).expect("a test's CPU time fits");
        crate::runner::scripted::outcome(answer.termination, cpu_ms, &answer.stdout)
    }
}

type Script = dyn Fn(&str, &str) -> Answer + Send + Sync;

/// A box whose runs are answered by a script from the program's file
/// name (`twice.py`; see `FakeBuilder`) and its input, trimmed: what its
/// stdin holds, or for a program without one (a generator), its
/// arguments joined by spaces. Shared (`Arc`) between a context's boxes and
/// its builder's, it counts every run.
pub(crate) struct FakeBox {
    script: Box<Script>,
    runs: AtomicUsize,
    /// The programs run, by name, in order.
    ran: std::sync::Mutex<Vec<String>>,
    /// Set: the user interrupted.
    pub(crate) cancelled: AtomicBool,
}

impl FakeBox {
    pub(crate) fn new(
        script: impl Fn(&str, &str) -> Answer + Send + Sync + 'static,
    ) -> Arc<FakeBox> {
        Arc::new(FakeBox {
            script: Box::new(script),
            runs: AtomicUsize::new(0),
            ran: std::sync::Mutex::default(),
            cancelled: AtomicBool::new(false),
        })
    }

    /// How many runs it answered.
    pub(crate) fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    /// How many times `program` ran.
    pub(crate) fn runs_of(&self, program: &str) -> usize {
        let ran = self.ran.lock().expect("no test panicked holding it");
        ran.iter().filter(|name| *name == program).count()
    }
}

impl Runs for FakeBox {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let program = request.program.file_name().map_or_else(
            || request.program.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        let input = match &request.stdin {
            Some(path) => std::fs::read_to_string(path).map_err(|source| SandboxError::Io {
                what: format!("read {}", path.display()),
                source,
            })?,
            None => {
                let args: Vec<_> = request.args.iter().map(|a| a.to_string_lossy()).collect();
                args.join(" ")
            }
        };
        let answer = (self.script)(&program, input.trim());
        if let Some((flag, text)) = &answer.writes {
            let named = request.args.iter().skip_while(|arg| *arg != flag).nth(1);
            let path = named.ok_or_else(|| SandboxError::Spawn {
                program: request.program.clone(),
                source: std::io::Error::other(format!("the script writes after {flag}: not given")),
            })?;
            let path = std::path::Path::new(path);
            std::fs::write(path, text).map_err(|source| SandboxError::Io {
                what: format!("write {}", path.display()),
                source,
            })?;
        }
        self.ran
            .lock()
            .expect("no test panicked holding it")
            .push(program);
        Ok(answer.into())
    }

    /// No verb test plays an interactive problem: a fake has no relay.
    fn run_interactive(
        &self,
        submission: &RunRequest,
        _interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        Err(SandboxError::Spawn {
            program: submission.program.clone(),
            source: std::io::Error::other("a fake box runs no interactive problem"),
        })
    }

    fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// What a fake context's verbs printed.
#[derive(Clone, Default)]
pub(crate) struct Printed(Rc<RefCell<Vec<u8>>>);

impl Printed {
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

impl Write for Printed {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
