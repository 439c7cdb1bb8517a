//! Why a program could not be built for the judge's own reasons (JE):
//! a compile error, the submission's fault, is `CompileError`.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::sandbox::SandboxError;

/// Why the judge could not build a program.
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
        source: super::SourceSetError,
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
        source: super::NotBuilt,
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
