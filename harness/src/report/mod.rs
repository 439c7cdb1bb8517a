//! Reporters: people (`human`), programs (`json`) and CI (`junit`); for a
//! class, the `gradebook` read from the store as a `table`, `csv` and `html`. Each
//! writes to a `&mut dyn Write`, never to stdout directly.

pub mod clarifications;
pub(crate) mod csv;
pub mod feedback;
mod feedback_page;
pub mod gradebook;
pub(crate) mod html;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod junit;
pub mod lms;
pub mod policy;
mod reporter;
pub mod roster;
pub(crate) mod sections;
mod styles;
pub(crate) mod table;

pub(crate) use reporter::{Reporter, RunEnd, WriteFailed};
pub use styles::Styles;
#[cfg(test)]
mod run_tests;
#[cfg(test)]
mod sections_tests;
