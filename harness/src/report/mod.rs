//! Reporters: people (`human`), programs (`json`) and CI (`junit`); for a
//! class, the `gradebook` read from the store as a `table`, `csv` and `html`. Each
//! writes to a `&mut dyn Write`, never to stdout directly.

pub mod csv;
pub mod gradebook;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
mod styles;
pub mod table;

pub use styles::Styles;
