//! Problem packages of the ecosystem, read as they are: Kattis/ICPC
//! (`problem.yaml`: legacy, 2023-07-draft and 2025-09), Polygon full packages
//! (`problem.xml`), and the IOI-style tasks CMS reads (`task.yaml`, CMS's
//! Italian layout; `problem.json`, TPS). Each reader returns a plain `Package` (what to run,
//! with which limits, and what every submission must get); `protocol` maps
//! the exit statuses of their validators, checkers and interactors to
//! outcomes; `timing` derives the time limit by the package's own rules.
//! Nothing here runs a program.

mod cms;
mod error;
mod expect;
mod glob;
mod grader;
mod ioi;
mod kattis;
mod package;
mod polygon;
mod program;
mod protocol;
mod read;
mod scoring;
mod timing;
mod tps;
pub(crate) mod yaml;

#[cfg(test)]
mod completion_tests;
#[cfg(test)]
mod malformed_tests;
#[cfg(test)]
mod polygon_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod version_tests;

pub(crate) use error::FormatError;
pub(crate) use expect::{
    Broken, Got, Seen, check as check_expectation, describe as describe_expectation,
};
pub(crate) use kattis::{Shown, package_constants, shown_samples};
pub use package::UserIo;
pub(crate) use package::*;
pub(crate) use program::{ProgramHints, language_of, read_program};
pub(crate) use protocol::*;
#[cfg(test)]
use read::PackageKind;
pub(crate) use read::{package_kind, read_package};
pub(crate) use scoring::{
    Judged, folder_score, out_of_range, package_score, package_verdict, test_max_score,
};
pub(crate) use timing::{NoTimeLimit, Timing, derive, provisional_limit, stated};
