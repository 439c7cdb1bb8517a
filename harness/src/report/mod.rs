//! Reporters: people (`human`), programs (`json`) and CI (`junit`). Each
//! writes to a `&mut dyn Write`, never to stdout directly.

pub mod human;
pub mod json;
pub mod junit;
mod styles;

pub use styles::Styles;
