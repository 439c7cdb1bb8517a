//! Running submissions on tests. One test is judged by its problem's
//! judging kind, chosen in one place (`judge.rs`): one file per kind
//! (`batch.rs`, `interactive.rs`, `multipass.rs`, `output_only.rs`, whose
//! submissions are answer sets, `compile::AnswerSet`), each over the shared
//! steps (`steps/`: running a program, judging an output, talking with an
//! interactor, the run folder, timing re-runs). Kinds import `steps`, never
//! each other. Many tests are scheduled on a bounded worker pool
//! (`imp.rs`, `pool.rs`), a submission's verdict and score summed up by
//! the one scoring engine (`score.rs`), results sent as events
//! (`events.rs`).

mod batch;
mod events;
mod imp;
mod interactive;
mod judge;
mod multipass;
mod output_only;
pub(crate) mod pool;
mod score;
#[cfg(test)]
pub(crate) mod scripted;
mod static_validation;
mod steps;
#[cfg(test)]
mod tests;

pub use events::{Event, RunTiming, TaskReport, TestReport, Timing, TranscriptLine};
pub use imp::{Place, Reuse, RunPlan, Task, execute, execute_at};
pub use judge::judge_test;
pub(crate) use score::package_score;
pub use static_validation::StaticSubmission;
#[cfg(test)]
pub(crate) use steps::last_line;
pub(crate) use steps::{
    MANAGER_NOT_PLAYED, OutputJudge, game_result, referee_args, submission_stack,
};
pub use steps::{OutputVisualization, Submission, TestRun};
