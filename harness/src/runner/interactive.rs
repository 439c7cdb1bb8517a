//! The interactive kind: the submission talks with the problem's
//! interactor, which judges it (see `steps::interact`), in a feedback
//! folder made for the test.

use crate::compile::Executable;

use super::TestReport;
use super::steps::{TestRun, interact, judges_folder};

/// Judges the submission `exe` on the test against the interactor.
pub(super) fn judge(run: &TestRun<'_>, exe: &Executable) -> TestReport {
    let feedback = match judges_folder(run.workdir, "feedback") {
        Ok(dir) => dir,
        Err(e) => {
            return TestReport::judge_error(
                run.test,
                format!("failed to create a feedback folder: {e}"),
            );
        }
    };
    interact(run, exe, feedback.path())
}
