//! The interactive kind: the submission talks with the problem's
//! interactor, which judges it (see `steps::interact`), in a feedback
//! folder made for the test. The output visualizer, when there is one,
//! then runs in that folder with an empty output (the specification's
//! `team_output` of an interactive problem).

use crate::compile::Executable;

use super::TestReport;
use super::steps::{TestRun, apply_score_multiplier, interact, judges_folder, visualize};

/// Judges the submission `exe` on the test against the interactor.
pub(super) fn judge(run: &TestRun<'_>, exe: &Executable) -> TestReport {
    let made = judges_folder(run.workdir, "interaction").and_then(|dir| {
        let feedback = dir.path().join("feedback");
        std::fs::create_dir(&feedback).map(|()| (dir, feedback))
    });
    let (dir, feedback) = match made {
        Ok(made) => made,
        Err(e) => {
            return TestReport::judge_error(
                run.test,
                format!("failed to create a feedback folder: {e}"),
            );
        }
    };
    let mut report = interact(run, exe, &feedback);
    apply_score_multiplier(&mut report, run, &feedback, "interactor");
    visualize(run, &[], dir.path(), &feedback);
    report
}
