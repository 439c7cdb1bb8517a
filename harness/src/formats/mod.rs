//! Problem packages of the ecosystem, read as they are: Kattis/ICPC
//! (`problem.yaml`, legacy and 2025-09) and Polygon full packages
//! (`problem.xml`). Each reader returns a plain `Package` (what to run,
//! with which limits, and what every submission must get); `protocol` maps
//! the exit statuses of their validators, checkers and interactors to
//! outcomes; `timing` derives the time limit by the package's own rules.
//! Nothing here runs a program.

mod error;
mod glob;
mod kattis;
mod package;
mod polygon;
mod program;
mod protocol;
mod read;
mod timing;
mod yaml;

#[cfg(test)]
mod malformed_tests;
#[cfg(test)]
mod polygon_tests;
#[cfg(test)]
mod tests;

// The readers' interface for the judge (unused until it is wired in).
#[allow(unused_imports)]
pub(crate) use error::{FormatError, FormatResult};
#[allow(unused_imports)]
pub(crate) use package::*;
#[allow(unused_imports)]
pub(crate) use protocol::*;
#[allow(unused_imports)]
pub(crate) use read::{PackageKind, package_kind, read_package};
#[allow(unused_imports)]
pub(crate) use timing::{PROVISIONAL_CAP, TimeLimit, Timing, derive, provisional_limit};
