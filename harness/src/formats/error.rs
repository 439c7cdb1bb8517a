//! The one error of the package readers: which file, where in it, which
//! field, and what is wrong. A folder the judge cannot read is reported
//! this way, never skipped.

use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FormatError {
    pub(crate) path: PathBuf,
    /// 1-based line in `path`, when the problem is inside a file.
    pub(crate) line: Option<usize>,
    /// The key or element, e.g. `limits.time_multiplier` or `<testset>/<time-limit>`.
    pub(crate) field: Option<String>,
    pub(crate) message: String,
}

impl FormatError {
    /// A problem with a file or folder as a whole.
    pub(crate) fn file(path: &Path, message: impl Into<String>) -> FormatError {
        FormatError {
            path: path.to_path_buf(),
            line: None,
            field: None,
            message: message.into(),
        }
    }

    /// A problem with one field at a known line.
    pub(crate) fn at(
        path: &Path,
        line: usize,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> FormatError {
        FormatError {
            path: path.to_path_buf(),
            line: Some(line),
            field: Some(field.into()),
            message: message.into(),
        }
    }

    pub(crate) fn io(path: &Path, error: &std::io::Error) -> FormatError {
        FormatError::file(path, format!("cannot read: {error}"))
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for FormatError {}

pub(crate) type FormatResult<T> = Result<T, FormatError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_and_field() {
        let error = FormatError::at(
            Path::new("p/problem.yaml"),
            7,
            "limits.memory",
            "not a number",
        );
        assert_eq!(
            error.to_string(),
            "p/problem.yaml:7: `limits.memory`: not a number"
        );
        let whole = FormatError::file(Path::new("p/data"), "no secret test");
        assert_eq!(whole.to_string(), "p/data: no secret test");
    }
}
