//! `judge stress`: random inputs from the package's generator, judged
//! against the reference, and the first failing one shrunk to a small
//! counterexample. `shrink` (with `case` and `edits`) is pure; `trial`
//! runs one input through the package's programs; `search` is the loop.

mod case;
mod edits;
mod search;
mod shrink;
mod trial;

pub(crate) use case::Case;
pub(crate) use search::{Ended, Failure, Progress, Settings, Summary, search};
pub(crate) use trial::{Bench, Programs, StressError};
