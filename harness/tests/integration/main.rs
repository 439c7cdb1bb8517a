//! The integration suite: the real `judge` binary over fixture problems.

mod class;
mod cli;
mod constraints;
mod ecosystem;
mod export;
mod games;
mod generators;
mod hostile;
mod interactive;
mod invalid_inputs;
mod kattis2025;
mod learner;
mod output_only;
mod setter;
mod snapshots;
mod strength;
mod stress;
mod support;
mod trust;
mod trust_paths;
mod trust_runs;
mod verdicts;
