//! The batch kind: the submission runs on the test's input, and its
//! stdout is judged by the problem's `compare`.

use crate::compile::Executable;

use super::TestReport;
use super::steps::{TestRun, judge_output_into, run_program};

/// Judges the submission `exe` on the test.
pub(super) fn judge(run: &TestRun<'_>, exe: &Executable) -> TestReport {
    let (mut report, stdout) = run_program(run, exe, &run.test.input);
    if let Some(stdout) = stdout {
        judge_output_into(&mut report, run, &stdout);
    }
    report
}
