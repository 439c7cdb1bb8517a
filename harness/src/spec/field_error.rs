//! A value a configuration file holds that the judge refuses, named by
//! file, line and key: problem.toml, a session, a grading policy, a users
//! list all refuse a value with one of these.

use std::path::{Path, PathBuf};

use thiserror::Error;

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
        path: &Path,
        text: &str,
        span: std::ops::Range<usize>,
        key: &str,
        message: String,
    ) -> FieldError {
        FieldError::on_line(path, line_of(text, span.start), key, message)
    }

    /// A refusal of the value on `line`.
    pub(crate) fn on_line(path: &Path, line: usize, key: &str, message: String) -> FieldError {
        FieldError {
            path: path.to_path_buf(),
            line,
            key: key.to_string(),
            message,
        }
    }
}
