//! Problem packages of the ecosystem, read as they are: Kattis/ICPC
//! (`problem.yaml`, legacy and 2025-09) and Polygon full packages
//! (`problem.xml`). Each reader returns a plain `Package` (what to run,
//! with which limits, and what every submission must get); `protocol` maps
//! the exit statuses of their validators, checkers and interactors to
//! outcomes; `timing` derives the time limit by the package's own rules.
//! Nothing here runs a program.

mod error;
mod kattis;
mod package;
mod polygon;
mod program;
mod protocol;
mod read;
mod timing;
mod yaml;

#[cfg(test)]
mod tests;

pub(crate) use error::{FormatError, FormatResult};
pub(crate) use package::*;
pub(crate) use protocol::*;
pub(crate) use read::{PackageKind, package_kind, read_package};
pub(crate) use timing::{PROVISIONAL_CAP, TimeLimit, Timing, derive, provisional_limit};
