//! The shared crate for a problem package's own programs (validators,
//! checkers, interactors, generators) and their tests, so that each package
//! writes only its rules, never the plumbing.
//!
//! ```text
//! validator::check    stdin ──> Lines / Tokens ──> Ok | Err(message) ──> exit 42 | 43
//! checker::main       input answer feedback_dir < output ──> 42 | 43 (+ judgemessage.txt, score.txt)
//! interactor::Session input answer feedback_dir, stdin/stdout crossed with the submission
//! generator::main     ARGS ──> text on stdout (seeded ChaCha8, so the same bytes everywhere)
//! testing             drive the built binaries from a package's tests (incl. `play`)
//! ```
//!
//! Every program speaks the Kattis protocols (exit 42 accept / valid, 43
//! reject / invalid, anything else a judge error), so third-party judges run
//! them unchanged. Messages are lowercase fragments that name the line (or the
//! move) and what was expected.

mod bounds;
pub mod checker;
pub mod generator;
pub mod interactor;
mod lines;
mod parse;
pub mod testing;
mod tokens;
pub mod validator;

pub use lines::Lines;
pub use tokens::Tokens;

/// The Kattis exit codes.
pub mod exit {
    /// Accepted output, or a valid input.
    pub const ACCEPT: i32 = 42;
    /// Rejected output (wrong answer), or an invalid input.
    pub const REJECT: i32 = 43;
    /// Any other code is a judge error; this is the one we use (bad command
    /// line, unreadable judge files: the package's fault, never the
    /// submission's).
    pub const JUDGE_ERROR: i32 = 1;
}

/// Ends the program with a judge error: the message on stderr, exit 1. For
/// problems that are the package's fault (a broken test file, a bad command
/// line), which must never be charged to a submission as a rejection.
pub fn judge_error(message: &str) -> ! {
    eprintln!("judge error: {message}");
    std::process::exit(exit::JUDGE_ERROR)
}
