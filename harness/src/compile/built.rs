//! What building a program gives: a program to run, an answer set, or why
//! not, typed by whose fault it is (the submission's: CE; the judge's: JE).

use std::sync::Arc;

use super::BuildError;
use crate::untrusted::UntrustedFile;

use super::Executable;

/// The result of building one submission or helper program.
#[derive(Debug, Clone)]
pub enum Built {
    Ready(Executable),
    /// An output-only problem's submission, read: its answers are judged,
    /// nothing runs (see `runner::output_only`).
    Answers(Arc<super::AnswerSet>),
    /// The compiler rejected it: the submission's fault (CE).
    CompileError(CompileError),
    /// We could not build it (missing compiler, I/O): not the submission's
    /// fault (JE). Shared: a workspace binary's result is kept for every
    /// task that runs it.
    JudgeError(Arc<BuildError>),
}

/// Why a submission did not build through its own fault.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CompileError {
    /// The compiler said no, or was stopped at a limit: its output, with
    /// the submitter's bytes escaped, cut to a few KiB.
    #[error("{output}")]
    Compiler { output: String },
    /// The submission brought a file the judge refuses (a link, a FIFO, a
    /// file over the size limit).
    #[error(transparent)]
    Refused(Arc<UntrustedFile>),
    /// Its files are above the package's `limits.code` (Kattis checks it
    /// before the `include/` files are added).
    #[error(
        "the submission is {} KiB, above the code limit of {} KiB (limits.code)",
        size.div_ceil(1024),
        limit / 1024
    )]
    OverCodeLimit { size: u64, limit: u64 },
    /// Its language is not one of the package's `languages`.
    #[error(
        "the submission is in {language}; this problem accepts only {} (languages in problem.yaml)",
        allowed.join(", ")
    )]
    LanguageNotAllowed {
        language: String,
        allowed: Vec<String>,
    },
    /// An IOI-style task's solution is built with the task's grader (which
    /// holds `main`), written in one language only.
    #[error(
        "the submission is in {language}; the task's grader, which every solution is built with, is in {grader}"
    )]
    NotTheGradersLanguage { language: String, grader: String },
}

/// Why a program is not ready to run, whoever's fault it is.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NotBuilt {
    #[error(transparent)]
    Compile(CompileError),
    #[error(transparent)]
    Judge(Arc<BuildError>),
}

/// Why a build gave no program to run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NotProgram {
    /// An output-only problem's answer set.
    #[error("is an answer set ({}), not a program", .0.source.display())]
    AnswerSet(Arc<super::AnswerSet>),
    #[error("did not build: {}", .0.first_line())]
    NotBuilt(NotBuilt),
}

impl NotBuilt {
    /// The first line of why: what a package check shows.
    pub fn first_line(&self) -> String {
        self.to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    }
}

impl Built {
    /// The program to run, or why there is none.
    pub fn into_program(self) -> Result<Executable, NotProgram> {
        match self {
            Built::Ready(exe) => Ok(exe),
            Built::Answers(set) => Err(NotProgram::AnswerSet(set)),
            Built::CompileError(error) => Err(NotProgram::NotBuilt(NotBuilt::Compile(error))),
            Built::JudgeError(error) => Err(NotProgram::NotBuilt(NotBuilt::Judge(error))),
        }
    }

    /// Ready to be judged: a program, or an answer set.
    pub fn is_ready(&self) -> bool {
        matches!(self, Built::Ready(_) | Built::Answers(_))
    }

    /// The judge's failure to build, as a `Built`.
    pub(crate) fn judge_error(error: impl Into<BuildError>) -> Built {
        Built::JudgeError(Arc::new(error.into()))
    }

    /// Why it is not ready; `None` when it is.
    pub fn failure(&self) -> Option<NotBuilt> {
        match self {
            Built::Ready(_) | Built::Answers(_) => None,
            Built::CompileError(error) => Some(NotBuilt::Compile(error.clone())),
            Built::JudgeError(error) => Some(NotBuilt::Judge(error.clone())),
        }
    }
}
