//! The steps every judging kind is made of (as CMS's task types share
//! `grading/steps`): what a test's judging needs (`test_run.rs`), running
//! the submission in the box (`program.rs`), judging an output with the
//! problem's comparison or checker (`output.rs`), one conversation with an
//! interactor (`interaction.rs`), the run folder and the judge's own
//! folders (`folders.rs`), and judging a test again when a busy machine
//! may have decided its verdict (`timing.rs`). Nothing here knows which
//! kind it serves; the kinds (`runner/batch.rs`, `interactive.rs`,
//! `multipass.rs`, `output_only.rs`) import this module and never each
//! other.

mod folders;
mod interaction;
mod output;
mod program;
mod read_only;
mod referee;
mod score_multiplier;
mod test_run;
mod timing;
mod visualize;

pub(crate) use folders::{empty_dir, judges_folder};
pub(crate) use interaction::interact;
pub(crate) use output::{OutputJudge, apply_comparison, judge_output_into};
pub(crate) use program::{run_program, submission_stack};
#[cfg(test)]
pub(crate) use referee::last_line;
pub(crate) use referee::{MANAGER_NOT_PLAYED, game_result, referee_args};
pub(crate) use score_multiplier::apply_score_multiplier;
pub use test_run::{Submission, TestRun};
pub(crate) use timing::{cleaned, judged_steadily};
pub use visualize::OutputVisualization;
pub(crate) use visualize::visualize;
