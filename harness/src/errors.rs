//! Errors of the harness itself. Messages are lowercase fragments that name
//! the file, program or command involved.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::exit_codes;

/// The 1-based line of a byte offset in a TOML file's text (where a
/// span starts), for errors that name file, line and key.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// A value in a file the judge refuses: the file, the line and the key,
/// so whoever wrote it finds it at once. Every configuration file the
/// judge reads (problem.toml, a session, a grading policy, a users list)
/// refuses a value with one of these.
#[derive(Debug, Error)]
#[error("{}:{line}: key `{key}`: {message}", path.display())]
pub struct FieldError {
    pub path: PathBuf,
    pub line: usize,
    pub key: String,
    pub message: String,
}

impl FieldError {
    /// A refusal of the value whose span (in the file's `text`) is `span`.
    pub(crate) fn at(
        path: &std::path::Path,
        text: &str,
        span: std::ops::Range<usize>,
        key: &str,
        message: String,
    ) -> FieldError {
        FieldError::on_line(path, line_of(text, span.start), key, message)
    }

    /// A refusal of the value on `line`.
    pub(crate) fn on_line(
        path: &std::path::Path,
        line: usize,
        key: &str,
        message: String,
    ) -> FieldError {
        FieldError {
            path: path.to_path_buf(),
            line,
            key: key.to_string(),
            message,
        }
    }
}

#[derive(Debug, Error)]
pub enum SpecError {
    #[error("failed to read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{}: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    #[error(transparent)]
    Invalid(#[from] FieldError),
    #[error("{}: test input has no matching .ans file", input.display())]
    MissingAnswer { input: PathBuf },
    #[error("no problems folder at {}", path.display())]
    NoProblemsDir { path: PathBuf },
    #[error("no problem `{id}` under {}", dir.display())]
    UnknownProblem { id: String, dir: PathBuf },
    #[error("{}: languages table: {message}", path.display())]
    Languages { path: PathBuf, message: String },
    /// A Kattis or Polygon package the reader could not read, or one
    /// that uses what this judge does not support.
    #[error("{0}")]
    Package(String),
    /// `judge export`: the package cannot be written in the other format.
    #[error("cannot export {}: {message}", path.display())]
    Export { path: PathBuf, message: String },
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

/// What a validator found in an input (its failures are `JudgeFailure`s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    Valid,
    /// Rejected, with the validator's words.
    Invalid(String),
}

#[derive(Debug, Error)]
pub enum SandboxError {
    #[error("failed to start {}: {source}", program.display())]
    Spawn {
        program: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("failed to {what}: {source}")]
    Io {
        what: String,
        #[source]
        source: io::Error,
    },
    #[error("failed to start {}: could not {step}: {source}", program.display())]
    Setup {
        program: PathBuf,
        step: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("interrupted")]
    Interrupted,
}

#[derive(Debug, Error)]
pub enum BuildError {
    #[error("failed to run `{command}`: {source}")]
    Spawn {
        command: String,
        #[source]
        source: io::Error,
    },
    #[error("cargo build failed:\n{stderr}")]
    Cargo { stderr: String },
    /// Stopped by Ctrl-C or SIGTERM (its processes killed).
    #[error("cargo build was stopped")]
    Stopped,
    #[error("no language for {} (known extensions: {known})", path.display())]
    UnknownLanguage { path: PathBuf, known: String },
    #[error("compiler `{tool}` for {language} is not installed")]
    ToolMissing { tool: String, language: String },
    #[error("no binary `{name}` in the workspace")]
    NoSuchBinary { name: String },
    #[error("no binary `{name}` in the workspace at {}", manifest.display())]
    NotInWorkspace { name: String, manifest: PathBuf },
    /// A program of several files names a language the table lacks.
    #[error("{program}: no language `{language}` in the language table (known: {known})")]
    UnknownLanguageKey {
        program: String,
        language: String,
        known: String,
    },
    /// A program of several files whose set itself is wrong.
    #[error("{program}: {source}")]
    Sources {
        program: String,
        #[source]
        source: crate::compile::SourceSetError,
    },
    /// A program of several files that failed to build.
    #[error("{program}: {source}")]
    Program {
        program: String,
        #[source]
        source: Box<BuildError>,
    },
    /// A file of a package (the setter's) the judge would not read.
    #[error(transparent)]
    Unreadable(#[from] crate::untrusted::UntrustedFile),
    /// A program the judging of a submission needs (checker, interactor)
    /// did not build: the judge's failure, whatever the submission's build.
    #[error("the {role} did not build: {source}")]
    JudgingProgram {
        role: &'static str,
        #[source]
        source: crate::compile::NotBuilt,
    },
    #[error("failed to {what}: {source}")]
    Io {
        what: String,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    #[error("failed to write {what}: {source}")]
    Report {
        what: String,
        #[source]
        source: io::Error,
    },
    #[error("{0}")]
    Usage(String),
    /// A grading policy file that cannot be used (`--policy`).
    #[error(transparent)]
    Policy(#[from] crate::report::policy::PolicyError),
    /// A roster file that cannot be used (`--roster`).
    #[error(transparent)]
    Roster(#[from] crate::report::roster::RosterError),
}

impl Error {
    /// Output went to a pipe whose reader left (`judge list | head`): not
    /// worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Report { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Spec(_) => exit_codes::SPEC_ERROR,
            Error::Build(_) => exit_codes::BUILD_ERROR,
            Error::Sandbox(SandboxError::Interrupted) => exit_codes::INTERRUPTED,
            Error::Sandbox(_) | Error::Report { .. } => exit_codes::INTERNAL,
            Error::Usage(_) | Error::Policy(_) | Error::Roster(_) => exit_codes::USAGE,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
