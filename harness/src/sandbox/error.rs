//! Why a run could not be made: the harness's failure, never the
//! program's (what the program did is a `RunOutcome`).

use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// Why the sandbox could not run a program.
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
