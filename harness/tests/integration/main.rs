//! The integration suite: the real `judge` binary over fixture problems.

mod cli;
mod games;
mod hostile;
mod support;
mod verdicts;
