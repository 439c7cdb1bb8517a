//! The judge's exit codes: one documented table (README "Exit codes").

/// Everything ran and every expectation held (verify), or the submission was accepted (test).
pub(crate) const OK: u8 = 0;
/// A verdict differed from what was expected, or a submission was not accepted.
pub(crate) const FAILED: u8 = 1;
/// Wrong command-line usage (clap's own code).
pub(crate) const USAGE: u8 = 2;
/// A problem package is broken (bad problem.toml, missing .ans, ...).
pub(crate) const SPEC_ERROR: u8 = 3;
/// Building the workspace or a helper program failed.
pub(crate) const BUILD_ERROR: u8 = 4;
/// The judge itself failed (I/O, spawn, a checker crashed): a judge error.
pub(crate) const INTERNAL: u8 = 5;
/// Interrupted by Ctrl-C or SIGTERM (the partial report was still written).
pub(crate) const INTERRUPTED: u8 = 130;
