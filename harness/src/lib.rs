//! Game Judge: an online-judge style grading harness.
//!
//! ```text
//! Cli ──► Context ──► Vec<ProblemSpec> ──► Builder (cargo / language table)
//!                                              │
//!                         RunPlan { tasks } ◄──┘
//!                              │ runner::execute (worker pool)
//!                              ▼
//!        sandbox::run ─► RunOutcome ─► Verdict::from_run ─► compare / checker
//!                              │
//!                  Event stream ─► reporters (human, JSON, JUnit) ─► exit code
//! ```
//!
//! Modules: `spec` (problem.toml and test discovery), `compile` (builds),
//! `sandbox` (one limited run), `compare` (output comparison), `checker`
//! (Kattis checker / validator protocols), `verdict` (precedence),
//! `runner` (scheduling), `report` (output), `commands` (the CLI verbs),
//! `class` (a class's students and files), `store` (the result store and cache),
//! `export` (our packages as Kattis packages).

pub mod checker;
pub mod class;
pub mod cli;
mod commands;
pub mod compare;
pub mod compile;
pub mod errors;
mod escape;
pub mod exit_codes;
mod export;
// Kattis and Polygon package readers; not wired into the pipeline yet.
#[allow(dead_code)]
mod formats;
pub mod lang;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod spec;
pub mod store;
pub mod stress;
pub mod verdict;

pub use commands::run;
pub use errors::{Error, Result};
