//! Judging a stored submission: the one path of `judge serve`'s judging
//! threads and of the queue's `judge worker`s (whether a server's entry or
//! a class's file queued by `grade --queue`). Below both, so that neither
//! imports the other (CMS's worker imports its grading and its database,
//! never its web server):
//!
//! ```text
//! problems read ─► prepare (workspace built, limits settled, judging
//!      programs built: once) ─► ServedProblem
//! a stored submission ─► plan (its source written under a name the
//!      language table builds, built, one task) ─► run (in the caller's
//!      box or pool; live status to its reporter) ─► Outcome
//! ```
//!
//! Recording is the store's (`store::entries`, `store::queue`), and the
//! threads that take submissions are their verbs' (`serve/judges.rs`,
//! `worker/`).

pub(crate) mod package;
mod problems;
mod submission;

pub(crate) use problems::{ServedProblem, prepare};
pub(crate) use submission::{Outcome, Stored, plan, run, says_out_of_descriptors};
