//! Problem packages: the raw `problem.toml` mirror, the validated spec (its
//! judging kind decided once, `kind.rs`), and discovery of packages and
//! their test cases on disk.

mod discover;
mod error;
mod field_error;
mod from_toml;
mod kind;
mod lower;
mod problem;
#[cfg(test)]
mod problem_tests;
mod raw;
mod stress;

pub use discover::{discover_problems, is_package, load_problem, load_problem_for_answers};
pub use error::SpecError;
pub use field_error::FieldError;
pub(crate) use field_error::line_of;
pub use kind::JudgingKind;
pub(crate) use lower::{constant_pairs, language_key, package_program, with_constants};
pub use problem::{
    CompareMode, CompareSpec, GeneratedTest, ProblemSpec, ProgramRef, Protocol, ScoreAggregate,
    SolutionSpec, SourceSet, TestCase, ToolSpec, UserIo,
};
pub use stress::{StressSpec, check_template, expand_template};
