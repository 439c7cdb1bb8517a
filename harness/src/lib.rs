//! Game Judge: an online-judge style grading harness.
//!
//! ```text
//! Cli ──► Context ──► Vec<ProblemSpec> ──► Builder (cargo / language table)
//!          (problem.toml, or a Kattis/Polygon       │
//!           package lowered by spec::lower)         │
//!                         RunPlan { tasks } ◄───────┘
//!                              │ pipeline::Run::execute ─► runner (worker pool)
//!                              ▼
//!        sandbox::run ─► RunOutcome ─► Verdict::from_run ─► compare / checker
//!                              │
//!   Event stream ─► report::Reporter (progress, test lines, JSON, JUnit)
//!                              │
//!               Run::finish ─► reports written ─► one exit code
//! ```
//!
//! Modules: `spec` (problem.toml, test discovery, lowering of other
//! formats), `formats` (Kattis and Polygon readers, scoring, expectations),
//! `compile` (builds), `sandbox` (one limited run), `compare` (output
//! comparison), `checker` (Kattis and testlib protocols), `verdict`
//! (precedence), `plan` (problems and programs into a plan whose every
//! task carries its `owner`; a package's settled time limit), `runner`
//! (scheduling), `pipeline` (a verb's run and its
//! reporters), `report` (output), `commands` (the CLI verbs), `class` (a
//! class's students and files), `store` (the result store and cache),
//! `stress` (random inputs and shrinking), `export` (our packages as Kattis
//! packages), `untrusted` (reading the files a submitter controls),
//! `checks` (a package's checks, as `Finding`s), `judging` (a stored
//! submission judged), `serve` (`judge serve`: the online judge, async at
//! its edge only). Their layers, lowest first, are docs/architecture.md's
//! table, which the integration test `house` holds them to.

// The benches and the integration tests use what is `pub`; everything else
// is `pub(crate)`, and this lint keeps it so.
#![warn(unreachable_pub)]

mod checker;
mod checks;
mod class;
pub mod cli;
mod commands;
mod compare;
pub mod compile;
pub mod errors;
mod escape;
mod exit_codes;
mod export;
mod formats;
mod generators;
mod judging;
mod lang;
pub mod owner;
mod pipeline;
mod plan;
pub mod report;
pub mod runner;
pub mod sandbox;
mod scratch;
mod serve;
pub mod similarity;
pub mod spec;
pub mod store;
mod stress;
#[cfg(test)]
mod test_support;
mod untrusted;
pub mod verdict;
mod worker;

pub use commands::run;
pub use errors::{Error, Result};
