//! Running submissions on tests: one test judged (`judge.rs`, and
//! `interactive.rs` for interactive problems, `multipass.rs`, and
//! `output_only.rs` for answer sets, where nothing runs), many tests scheduled on a
//! bounded worker pool (`imp.rs`), results sent as events (`events.rs`).

mod events;
mod imp;
mod interactive;
mod judge;
mod multipass;
mod output_only;
pub(crate) mod pool;
#[cfg(test)]
pub(crate) mod scripted;
#[cfg(test)]
mod tests;

pub use events::{Event, RunTiming, TaskReport, TestReport, Timing, TranscriptLine};
pub(crate) use imp::package_score;
pub use imp::{Reuse, RunPlan, Task, execute, execute_in_box, execute_reusing};
pub use judge::{TestRun, judge_test};
pub(crate) use judge::{judge_output_file, submission_stack};
pub use output_only::{AnswerRun, AnswerSet, judge_answer};
