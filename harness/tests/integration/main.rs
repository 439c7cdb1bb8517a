//! The integration suite: the real `judge` binary over fixture problems.

mod cli;
mod games;
mod support;
mod verdicts;
