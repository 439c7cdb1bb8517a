//! A fake sandbox for tests of the runner and of what drives it: runs
//! answered by a script from the test's input, no process started. With a
//! problem "double the number" and a plan of one fake submission on it.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{RunPlan, Task};
use crate::compile::{Built, Executable};
use crate::sandbox::SandboxError;
use crate::sandbox::{Interaction, Metrics, RunOutcome, RunRequest, Runs, Termination};
use crate::spec::{ProblemSpec, load_problem};

/// A sandbox whose runs are answered by `script` from the request: see
/// `Scripted::new` (by the test's input) and `Scripted::on_request`.
pub(crate) struct Scripted<F> {
    script: F,
    pub(crate) runs: AtomicUsize,
    /// Reports an interrupt once this many runs have happened.
    pub(crate) cancel_after: Option<usize>,
}

impl Scripted<fn(&RunRequest) -> RunOutcome> {
    /// Runs answered by `script` from the test's input (trimmed): how the
    /// run ended and what it printed, after 3 ms of CPU (1.01 s at the
    /// CPU limit).
    pub(crate) fn new(
        script: impl Fn(&str) -> (Termination, String) + Sync,
    ) -> Scripted<impl Fn(&RunRequest) -> RunOutcome + Sync> {
        Scripted::on_request(move |request: &RunRequest| {
            let input = request
                .stdin
                .as_deref()
                .map(|path| std::fs::read_to_string(path).unwrap())
                .unwrap_or_default();
            let (termination, stdout) = script(input.trim());
            let cpu_ms = match termination {
                Termination::CpuLimit => 1010,
                _ => 3,
            };
            outcome(termination, cpu_ms, &stdout)
        })
    }
}

impl<F: Fn(&RunRequest) -> RunOutcome + Sync> Scripted<F> {
    /// Runs answered by `script` from the whole request (its program, its
    /// working folder).
    pub(crate) fn on_request(script: F) -> Scripted<F> {
        Scripted {
            script,
            runs: AtomicUsize::new(0),
            cancel_after: None,
        }
    }
}

impl<F: Fn(&RunRequest) -> RunOutcome + Sync> Runs for Scripted<F> {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        Ok((self.script)(request))
    }

    fn run_interactive(
        &self,
        _submission: &RunRequest,
        _interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        Err(SandboxError::Interrupted)
    }

    fn is_cancelled(&self) -> bool {
        self.cancel_after
            .is_some_and(|after| self.runs.load(Ordering::SeqCst) >= after)
    }
}

/// A run that ended by `termination` after `cpu_ms` of CPU (and as much
/// wall time), having printed `stdout`.
pub(crate) fn outcome(termination: Termination, cpu_ms: u64, stdout: &str) -> RunOutcome {
    let cpu = Duration::from_millis(cpu_ms);
    RunOutcome {
        termination,
        metrics: Metrics {
            cpu,
            wall: cpu,
            waited: Duration::ZERO,
            peak_memory_kib: 1024,
            output_bytes: stdout.len() as u64,
        },
        stdout: stdout.as_bytes().to_vec(),
        stderr: Vec::new(),
        collected: None,
    }
}

/// A problem "double the number" with tests `secret/1` .. `secret/count`
/// whose input is the test's number.
pub(crate) fn problem(dir: &Path, count: usize) -> ProblemSpec {
    let package = dir.join("double");
    std::fs::create_dir_all(package.join("data/secret")).unwrap();
    std::fs::write(
        package.join("problem.toml"),
        "id = \"double\"\n[limits]\ntime = \"1s\"\n",
    )
    .unwrap();
    for n in 1..=count {
        let test = package.join(format!("data/secret/{n}"));
        std::fs::write(test.with_extension("in"), format!("{n}\n")).unwrap();
        std::fs::write(test.with_extension("ans"), format!("{}\n", 2 * n)).unwrap();
    }
    load_problem(&package).unwrap()
}

/// One fake submission on every test of `problem`.
pub(crate) fn plan(problem: &ProblemSpec, stop_at_first_failure: bool, jobs: usize) -> RunPlan<'_> {
    RunPlan {
        tasks: vec![Task {
            problem,
            owner: crate::owner::Owner::File {
                path: "fake".into(),
            },
            submission: "fake".into(),
            program: Built::Ready(Executable {
                program: "/fake".into(),
                args: Vec::new(),
                read_only: Vec::new(),
                note: None,
            }),
            checker: None,
            output_checker: None,
            tests: problem.tests.iter().collect(),
            every_test: false,
            static_validation: None,
            output_visualization: None,
        }],
        stop_at_first_failure,
        jobs,
    }
}

pub(crate) fn doubles_except(wrong: &'static str) -> impl Fn(&str) -> (Termination, String) + Sync {
    move |input| {
        let n: u64 = input.parse().unwrap();
        let answer = if input == wrong { 2 * n + 1 } else { 2 * n };
        (Termination::Exited(0), format!("{answer}\n"))
    }
}
