//! Why a problem could not be read: its folder, its `problem.toml`, its
//! package, its language table.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use super::FieldError;

/// Why a problem (or the problems folder) could not be read.
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
