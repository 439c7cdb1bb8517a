//! What every reporter is: something that follows a run's events as they
//! happen and writes what it collected when the run ends. The pipeline
//! calls them (`pipeline::Run`); the reporters of this folder, a verb's
//! and the server's live status implement it.

use std::io;

use thiserror::Error;

use super::sections::Sections;
use crate::runner::Event;

/// Something that follows a run as it happens.
pub(crate) trait Reporter {
    /// Sees each event of every `execute` of the run, in order.
    fn report_event(&mut self, event: &Event<'_>) -> io::Result<()>;

    /// The run is over: write out what was collected.
    fn finish(&mut self, _end: &RunEnd<'_>) -> Result<(), WriteFailed> {
        Ok(())
    }
}

/// What every reporter learns when the run ends.
pub(crate) struct RunEnd<'a> {
    /// The verb: `test`, `grade`, `verify`, ...
    pub(crate) command: &'a str,
    /// What isolation the sandbox applied, in words.
    pub(crate) isolation: &'a str,
    pub(crate) interrupted: bool,
    /// Sections only the verb knows, for the JSON document.
    pub(crate) sections: Sections,
}

/// A report that could not be written: what, and why.
#[derive(Debug, Error)]
#[error("failed to write {what}: {source}")]
pub(crate) struct WriteFailed {
    pub(crate) what: String,
    #[source]
    pub(crate) source: io::Error,
}
