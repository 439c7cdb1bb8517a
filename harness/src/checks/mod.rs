//! Package checks: what a problem's package holds, checked before any
//! solution runs, and by the package's own programs on their own tests.
//! `judge verify` calls them (its package stage and its `--constraints`
//! and `--invalid-inputs` runs); a server or a queue's worker can call
//! them as well, for they run on the plan stage's `Means` (a builder, a
//! sandbox, a scratch folder), never on a verb's context.
//!
//! Every check returns `Finding`s (`findings.rs`: passed, warning, error,
//! skipped; where; what), the one channel the verbs print, count and
//! write into the JSON report, as problemtools' checks report theirs.
//!
//! - `package.rs`: the package stage of every problem: generators
//!   reproduce the committed inputs, the validator accepts every input,
//!   and (`packages.rs`) a Kattis or Polygon package's own programs on its
//!   own tests: input validators and invalid inputs (`self_tests.rs`),
//!   answer validators (`answer_checks.rs`), `generators.yaml`
//!   (`generators.rs`, whose programs `generator_build.rs` builds and
//!   whose cases `illustrate.rs` draws), output validators on outputs of
//!   known verdict (`self_tests.rs`).
//! - `constraints.rs`: every bound a validator checks, reached by a test.
//! - `invalid_inputs.rs`: inputs broken on purpose, each rejected.

mod answer_checks;
pub(crate) mod constraints;
mod findings;
mod generator_build;
mod generators;
mod illustrate;
pub(crate) mod invalid_inputs;
mod package;
mod packages;
mod self_tests;

pub(crate) use findings::{Finding, Severity, Tally};
pub(crate) use generator_build::generator_program;
pub(crate) use generators::generate;
pub(crate) use package::{PackageCheck, built_or_message, package_checks, run_tool};
