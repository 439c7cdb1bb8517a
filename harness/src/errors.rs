//! The harness's error: each module's own error composed (the sandbox's,
//! a build's, a problem's, a report's), and the exit code of each. The
//! modules below do not use it; the verbs, the server and the pipeline
//! do. Messages are lowercase fragments that name the file, program or
//! command involved.

use std::io;

use thiserror::Error;

use crate::compile::BuildError;
use crate::exit_codes;
use crate::report::WriteFailed;
use crate::report::policy::PolicyError;
use crate::report::roster::RosterError;
use crate::sandbox::SandboxError;
use crate::spec::SpecError;

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
    /// The server `judge submit` talks to failed (a 5xx, an answer that is
    /// not its API) or broke off before the verdict: the judge's failure,
    /// not the user's. The server refusing what was asked, or not
    /// reachable at the address given, is a `Usage` error.
    #[error("{server}: {message}")]
    Remote { server: String, message: String },
    /// A grading policy file that cannot be used (`--policy`).
    #[error(transparent)]
    Policy(#[from] PolicyError),
    /// A roster file that cannot be used (`--roster`).
    #[error(transparent)]
    Roster(#[from] RosterError),
}

impl From<WriteFailed> for Error {
    fn from(WriteFailed { what, source }: WriteFailed) -> Error {
        Error::Report { what, source }
    }
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
            Error::Sandbox(_) | Error::Report { .. } | Error::Remote { .. } => exit_codes::INTERNAL,
            Error::Usage(_) | Error::Policy(_) | Error::Roster(_) => exit_codes::USAGE,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
