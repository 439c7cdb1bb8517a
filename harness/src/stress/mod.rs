//! `judge stress`: random inputs from the package's generator, judged
//! against the reference, and the first failing one shrunk to a small
//! counterexample. `shrink` (with `case` and `edits`) is pure; `trial`
//! runs the programs.

mod case;
mod edits;
mod shrink;

pub use case::{Case, Size};
pub use shrink::{Oracle, Shrunk, shrink};
