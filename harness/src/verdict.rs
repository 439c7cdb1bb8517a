//! The judged result of a test, and the one precedence rule that turns what
//! a process did into a verdict; why a test could not be judged
//! (`JudgeFailure`, a JE).

use serde::Serialize;
use thiserror::Error;

use crate::compare::{Comparison, Judgement};
use crate::sandbox::{Limits, RunOutcome, Termination};

/// SIGXCPU: the kernel's CPU-time backstop (RLIMIT_CPU).
const SIGXCPU: i32 = 24;
/// SIGXFSZ: a write past RLIMIT_FSIZE.
const SIGXFSZ: i32 = 25;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    PresentationError,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    OutputLimitExceeded,
    RuntimeError,
    CompileError,
    /// The harness or a checker failed: never charged to the submission.
    JudgeError,
}

impl Verdict {
    pub const ALL: [Verdict; 9] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimitExceeded,
        Verdict::MemoryLimitExceeded,
        Verdict::OutputLimitExceeded,
        Verdict::RuntimeError,
        Verdict::CompileError,
        Verdict::JudgeError,
    ];

    pub fn short(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimitExceeded => "TLE",
            Verdict::MemoryLimitExceeded => "MLE",
            Verdict::OutputLimitExceeded => "OLE",
            Verdict::RuntimeError => "RE",
            Verdict::CompileError => "CE",
            Verdict::JudgeError => "JE",
        }
    }

    pub fn from_short(code: &str) -> Option<Verdict> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.short().eq_ignore_ascii_case(code))
    }

    pub fn long(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::PresentationError => "presentation error",
            Verdict::TimeLimitExceeded => "time limit exceeded",
            Verdict::MemoryLimitExceeded => "memory limit exceeded",
            Verdict::OutputLimitExceeded => "output limit exceeded",
            Verdict::RuntimeError => "runtime error",
            Verdict::CompileError => "compile error",
            Verdict::JudgeError => "judge error",
        }
    }

    /// The verdict a run earns before its output is looked at, or `None` if
    /// it ran cleanly and its output decides. The precedence, first match wins:
    ///
    /// 1. TLE: CPU time over the limit (however it ended), killed by the CPU
    ///    watch or by the wall backstop, or SIGXCPU.
    /// 2. MLE: peak memory over the limit (measured, never guessed from a
    ///    signal), or killed by the memory cgroup.
    /// 3. OLE: stdout + stderr over the limit, or SIGXFSZ (a file too large).
    /// 4. RE: killed by any other signal, or a non-zero exit code.
    ///
    /// Limits come before exit status because a program killed for a limit
    /// also dies by a signal; exit status comes before output because output
    /// of a crashed program is not an answer.
    pub fn from_run(outcome: &RunOutcome, limits: &Limits) -> Option<Verdict> {
        let metrics = &outcome.metrics;
        let peak_bytes = metrics.peak_memory_kib.saturating_mul(1024);
        match outcome.termination {
            _ if metrics.cpu > limits.time => Some(Verdict::TimeLimitExceeded),
            Termination::CpuLimit | Termination::WallLimit | Termination::Signaled(SIGXCPU) => {
                Some(Verdict::TimeLimitExceeded)
            }
            Termination::MemoryLimit => Some(Verdict::MemoryLimitExceeded),
            _ if peak_bytes > limits.memory => Some(Verdict::MemoryLimitExceeded),
            Termination::OutputLimit | Termination::Signaled(SIGXFSZ) => {
                Some(Verdict::OutputLimitExceeded)
            }
            _ if metrics.output_bytes > limits.output => Some(Verdict::OutputLimitExceeded),
            Termination::Signaled(_) => Some(Verdict::RuntimeError),
            Termination::Exited(code) if code != 0 => Some(Verdict::RuntimeError),
            Termination::Exited(_) => None,
        }
    }

    pub fn from_comparison(comparison: &Comparison) -> Verdict {
        match comparison.judgement {
            Judgement::Accepted => Verdict::Accepted,
            Judgement::WrongAnswer => Verdict::WrongAnswer,
            Judgement::PresentationError => Verdict::PresentationError,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.short())
    }
}

/// A human description of how a run ended, for reports.
pub fn describe_termination(termination: Termination) -> String {
    match termination {
        Termination::Exited(code) => format!("exit code {code}"),
        Termination::Signaled(signal) => {
            format!("killed by signal {signal} ({})", signal_name(signal))
        }
        Termination::CpuLimit => "killed at the CPU time limit".into(),
        Termination::WallLimit => "killed at the wall-clock backstop".into(),
        Termination::OutputLimit => "killed at the output limit".into(),
        Termination::MemoryLimit => "killed at the memory limit".into(),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        SIGXCPU => "SIGXCPU",
        SIGXFSZ => "SIGXFSZ",
        _ => "signal",
    }
}

/// Why a test could not be judged: a trusted program (checker,
/// interactor, validator, checktestdata) broke its protocol or failed, or
/// the judge could not do its own part. Carried in the outcome as a value;
/// the test is a judge error (JE), never charged to the submission.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JudgeFailure {
    /// `role` (`checker`, `interactor`, ...) exited outside its protocol,
    /// was killed, or left feedback that cannot be read.
    #[error("{role} {detail}")]
    Program { role: &'static str, detail: String },
    /// The judge could not do its own part (a file, a folder, a run).
    #[error("failed to {doing}: {error}")]
    Judge { doing: String, error: String },
}

impl JudgeFailure {
    pub(crate) fn program(role: &'static str, detail: impl Into<String>) -> JudgeFailure {
        JudgeFailure::Program {
            role,
            detail: detail.into(),
        }
    }

    pub(crate) fn judge(doing: impl Into<String>, error: impl std::fmt::Display) -> JudgeFailure {
        JudgeFailure::Judge {
            doing: doing.into(),
            error: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::sandbox::Metrics;

    fn limits() -> Limits {
        Limits::for_tests(64 << 20)
    }

    fn outcome(termination: Termination, cpu_ms: u64, memory_kib: u64, output: u64) -> RunOutcome {
        RunOutcome {
            termination,
            metrics: Metrics {
                cpu: Duration::from_millis(cpu_ms),
                wall: Duration::from_millis(cpu_ms),
                peak_memory_kib: memory_kib,
                output_bytes: output,
                waited: Duration::ZERO,
            },
            stdout: Vec::new(),
            stderr: Vec::new(),
            collected: None,
        }
    }

    #[test]
    fn precedence_table() {
        use Termination::*;
        let cases = [
            (Exited(0), 10, 1000, 10, None),
            (Exited(1), 10, 1000, 10, Some(Verdict::RuntimeError)),
            (Signaled(11), 10, 1000, 10, Some(Verdict::RuntimeError)),
            (Exited(0), 1500, 1000, 10, Some(Verdict::TimeLimitExceeded)),
            (
                Signaled(9),
                1500,
                1000,
                10,
                Some(Verdict::TimeLimitExceeded),
            ),
            (CpuLimit, 1001, 1000, 10, Some(Verdict::TimeLimitExceeded)),
            (WallLimit, 5, 1000, 10, Some(Verdict::TimeLimitExceeded)),
            (
                Signaled(SIGXCPU),
                900,
                1000,
                10,
                Some(Verdict::TimeLimitExceeded),
            ),
            // Killed by a signal with a peak over the limit: MLE from the measurement.
            (
                Signaled(6),
                10,
                70 << 10,
                10,
                Some(Verdict::MemoryLimitExceeded),
            ),
            (
                Exited(0),
                10,
                70 << 10,
                10,
                Some(Verdict::MemoryLimitExceeded),
            ),
            (
                MemoryLimit,
                10,
                1000,
                10,
                Some(Verdict::MemoryLimitExceeded),
            ),
            // A SIGKILL alone is not MLE.
            (Signaled(9), 10, 1000, 10, Some(Verdict::RuntimeError)),
            (
                OutputLimit,
                10,
                1000,
                2 << 20,
                Some(Verdict::OutputLimitExceeded),
            ),
            (
                Signaled(SIGXFSZ),
                10,
                1000,
                10,
                Some(Verdict::OutputLimitExceeded),
            ),
            // TLE beats MLE beats OLE.
            (
                OutputLimit,
                1500,
                70 << 10,
                2 << 20,
                Some(Verdict::TimeLimitExceeded),
            ),
            (
                OutputLimit,
                10,
                70 << 10,
                2 << 20,
                Some(Verdict::MemoryLimitExceeded),
            ),
        ];
        for (termination, cpu, memory, output, want) in cases {
            let got = Verdict::from_run(&outcome(termination, cpu, memory, output), &limits());
            assert_eq!(
                got, want,
                "{termination:?} cpu={cpu} mem={memory} out={output}"
            );
        }
    }

    #[test]
    fn short_codes_round_trip() {
        for verdict in Verdict::ALL {
            assert_eq!(Verdict::from_short(verdict.short()), Some(verdict));
        }
        assert_eq!(Verdict::from_short("tle"), Some(Verdict::TimeLimitExceeded));
        assert_eq!(Verdict::from_short("XX"), None);
    }
}
