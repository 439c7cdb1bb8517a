//! One conversation between the submission and the problem's interactor:
//! they talk through the judge, and the verdict follows who stopped first
//! (as problemtools decides it). A testlib interactor also writes an
//! output file, which the problem's `compare` (usually a testlib checker)
//! judges once the interactor accepts. The interactive kind holds one per
//! test; an interactive multi-pass problem one per pass.

use std::fs::Permissions;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::checker::{cms_comparison, judgement_of, read_feedback, testlib_comparison};
use crate::compare::Judgement;
use crate::compile::Executable;
use crate::sandbox::Limits;
use crate::sandbox::TOOL_LIMITS;
use crate::sandbox::{Containment, Conversation, Direction, Interaction, RunRequest, Termination};
use crate::spec::{ProblemSpec, Protocol, TestCase, UserIo};
use crate::verdict::JudgeFailure;
use crate::verdict::{Verdict, describe_termination};

use super::super::{TestReport, TranscriptLine};
use super::program::{shown_stderr, watched_request};
use super::{OutputJudge, TestRun, apply_comparison};

/// Lines of the conversation a report keeps: its end, where a game goes wrong.
const TRANSCRIPT_SHOWN: usize = 12;

use super::referee::INTERACTOR_OUTPUT;
/// Runs the submission `exe` against the interactor (the run's checker)
/// on the test. The submission runs in its folder; the interactor gets the
/// test's input and answer files and its own folder `feedback` (Kattis:
/// the feedback folder, which the passes of a multi-pass problem share;
/// testlib: where it writes its output file), none of which the
/// submission can see. The run's output checker judges a testlib
/// interactor's output file.
pub(crate) fn interact(run: &TestRun<'_>, exe: &Executable, feedback: &Path) -> TestReport {
    let TestRun {
        sandbox,
        problem,
        checker: interactor,
        test,
        ..
    } = *run;
    let mut report = TestReport::unjudged(test);
    let (Some(interactor), Some(tool)) = (interactor, problem.interactor.as_ref()) else {
        report.detail = Some("the interactor was not built".into());
        return report;
    };
    let interactor_args = super::referee::referee_args(tool, interactor, test, feedback);
    let mut interactor_run = RunRequest {
        args: interactor_args,
        ..RunRequest::new(
            interactor.program.clone(),
            feedback.to_path_buf(),
            interactor_limits(&problem.limits),
            Containment::Tool,
        )
    };
    // The test's `.files` are in the submission's folder, and writing
    // there is watched as in a batch run.
    let (mut submission_run, read_only) = match watched_request(run, exe) {
        Ok(prepared) => prepared,
        Err(detail) => {
            report.detail = Some(detail);
            return report;
        }
    };
    if let Protocol::CmsManager { user_io } = tool.protocol {
        let manager = (&mut interactor_run, interactor);
        if let Err(e) = cms_communication(manager, (&mut submission_run, exe), user_io, test) {
            report.detail = Some(format!(
                "failed to put the test's input in the manager's folder as {CMS_MANAGER_INPUT}: {e}"
            ));
            return report;
        }
    }
    let interaction = match sandbox.run_interactive(&submission_run, &interactor_run) {
        Ok(interaction) => interaction,
        Err(e) => {
            report.detail = Some(e.to_string());
            return report;
        }
    };
    let submission = &interaction.submission;
    report.metrics = submission.metrics;
    report.termination = Some(submission.termination);
    report.stderr = shown_stderr(&submission.stderr);
    report.transcript = interaction
        .transcript
        .last_lines(TRANSCRIPT_SHOWN)
        .into_iter()
        .map(|(direction, text)| TranscriptLine {
            from_submission: direction == Direction::FromSubmission,
            text: crate::escape::visible(&text),
        })
        .collect();
    let own = Verdict::from_run(submission, &problem.limits);
    let written = read_only.and_then(|r| r.written(submission.collected.as_ref()));
    if let (None, Some(written)) = (own, written) {
        // Ended well, but wrote where the problem forbids it: whatever the
        // interactor said, as a batch run that wrote is never judged.
        report.verdict = Verdict::RuntimeError;
        report.detail = Some(written);
        return report;
    }
    let reports = manager_reports(problem, tool.protocol);
    let referee = match interaction.interactor_stalled {
        true => Err(JudgeFailure::program(
            "interactor",
            "neither read nor answered while the submission waited on it, until the wall clock ran out",
        )),
        false => referee_says(
            &interaction,
            tool.protocol,
            reports,
            &interactor.program,
            feedback,
        ),
    };
    let own = own.filter(|_| !interaction.interactor_stalled);
    let (verdict, detail, score) = decide(own, interaction.interactor_first, referee);
    report.verdict = verdict;
    report.score = score;
    report.detail = detail.or_else(|| {
        (verdict != Verdict::Accepted).then(|| describe_termination(submission.termination))
    });
    let written = (verdict == Verdict::Accepted)
        .then(|| written_for_checker(tool.protocol, reports, &interaction, feedback))
        .flatten();
    if let Some(written) = written {
        judge_interactor_output(run, written, feedback, &mut report);
    }
    report
}

/// Whether the interactor is a CMS manager that only reports, for the
/// problem's checker to judge (TPS's `has_checker`).
fn manager_reports(problem: &ProblemSpec, protocol: Protocol) -> bool {
    matches!(protocol, Protocol::CmsManager { .. }) && problem.output_checker().is_some()
}

/// What an interactor wrote for the problem's checker, if it writes for
/// one: a testlib interactor's output file, or the stdout of a CMS
/// manager that only `reports` (TPS's `has_checker`).
fn written_for_checker(
    protocol: Protocol,
    reports: bool,
    interaction: &Interaction,
    feedback: &Path,
) -> Option<Result<Vec<u8>, JudgeFailure>> {
    match protocol {
        Protocol::Testlib => Some(
            std::fs::read(feedback.join(INTERACTOR_OUTPUT))
                .map_err(|e| JudgeFailure::judge("read the interactor's output file", e)),
        ),
        Protocol::CmsManager { .. } if reports => interaction
            .interactor
            .as_ref()
            .ok()
            .map(|manager| Ok(manager.stdout.clone())),
        _ => None,
    }
}

/// The second step of an interaction the interactor accepted: what it
/// wrote (a testlib interactor's output file, a reporting CMS manager's
/// stdout) is judged as a batch submission's stdout would be, and that
/// verdict is the test's. Points the interactor gave (`quitp`) stay when
/// the checker gives none.
fn judge_interactor_output(
    run: &TestRun<'_>,
    written: Result<Vec<u8>, JudgeFailure>,
    scratch: &Path,
    report: &mut TestReport,
) {
    let comparison = written.and_then(|output| {
        let judge = OutputJudge {
            sandbox: run.sandbox,
            problem: run.problem,
            checker: run.output_checker,
        };
        judge.compare(run.test, &output, scratch)
    });
    let interactor_score = report.score;
    apply_comparison(report, comparison, run.problem.presentation_errors);
    report.score = report.score.or(interactor_score);
}
/// Where CMS's Communication puts the test's input in the manager's
/// folder (`Communication.INPUT_FILENAME`): managers read it there or on
/// their stdin, which CMS redirects from the same file.
const CMS_MANAGER_INPUT: &str = "input.txt";

/// CMS's Communication: the manager reads the test's input on its stdin
/// or from `input.txt` in its folder (read-only), and reaches the solution
/// through the two paths the sandbox puts among its arguments (after its
/// program's own, as CMS's command line has them first); under
/// `fifo_io`, the solution reaches it likewise.
fn cms_communication(
    (manager, manager_exe): (&mut RunRequest, &Executable),
    (solution, solution_exe): (&mut RunRequest, &Executable),
    user_io: UserIo,
    test: &TestCase,
) -> std::io::Result<()> {
    let copy = manager.workdir.join(CMS_MANAGER_INPUT);
    std::fs::copy(&test.input, &copy)?;
    std::fs::set_permissions(&copy, Permissions::from_mode(0o444))?;
    manager.stdin = Some(test.input.clone());
    manager.conversation = Conversation::PathArguments {
        at: manager_exe.args.len(),
    };
    if user_io == UserIo::Fifos {
        solution.conversation = Conversation::PathArguments {
            at: solution_exe.args.len(),
        };
    }
    Ok(())
}

/// The interactor's own limits: a trusted program's, but its wall clock
/// outlasts the submission's, so a submission that stops talking is stopped
/// first and charged for it.
fn interactor_limits(problem: &Limits) -> Limits {
    Limits {
        wall: TOOL_LIMITS.wall.max(problem.wall * 2),
        ..TOOL_LIMITS
    }
}

/// What the interactor decided: accepted or rejected with its message and
/// score, or why it failed (a judge error).
type RefereeSays = Result<(Judgement, Option<String>, Option<f64>), JudgeFailure>;

/// `reports`: a CMS manager that only reports (TPS's `has_checker`), so
/// says nothing itself but by a clean exit.
fn referee_says(
    interaction: &Interaction,
    protocol: Protocol,
    reports: bool,
    program: &Path,
    feedback: &Path,
) -> RefereeSays {
    let outcome = interaction
        .interactor
        .as_ref()
        .map_err(|e| JudgeFailure::judge("run the interactor", e))?;
    match protocol {
        Protocol::Kattis | Protocol::Cms => {
            let judgement = judgement_of(outcome, "interactor", program)?;
            let (message, score) = read_feedback(feedback, "interactor")?;
            Ok((judgement, message, score))
        }
        Protocol::Testlib => {
            let said = testlib_comparison(outcome, "interactor")?;
            Ok((said.judgement, said.message, said.score))
        }
        Protocol::CmsManager { .. } if reports => match outcome.termination {
            Termination::Exited(0) => Ok((Judgement::Accepted, None, None)),
            other => Err(JudgeFailure::program(
                "manager",
                format!("ended with {}", describe_termination(other)),
            )),
        },
        Protocol::CmsManager { .. } => {
            let said = cms_comparison(outcome, "manager")?;
            Ok((said.judgement, said.message, said.score))
        }
    }
}

/// The verdict of an interactive run. Whoever stopped first decides: an
/// interactor that rejected first (WA, or a testlib PE) wins over the crash
/// its rejection caused; a submission that failed first (TLE, MLE, OLE, RE)
/// keeps its own verdict, whatever the interactor then said (a testlib
/// interactor reads the end of a crashed submission's output as a PE or
/// WA: the crash is charged, as Codeforces charges it); an interactor that
/// fails (other exit, limits, testlib FAIL) is a judge error unless the
/// submission had already failed.
fn decide(
    own: Option<Verdict>,
    interactor_first: bool,
    referee: RefereeSays,
) -> (Verdict, Option<String>, Option<f64>) {
    match (own, interactor_first, referee) {
        (Some(own), false, _) => (own, None, None),
        (_, _, Err(failure)) => (Verdict::JudgeError, Some(failure.to_string()), None),
        (_, _, Ok((Judgement::WrongAnswer, message, score))) => {
            (Verdict::WrongAnswer, message, score)
        }
        (_, _, Ok((Judgement::PresentationError, message, score))) => {
            (Verdict::PresentationError, message, score)
        }
        // Accepted, but the submission must still end cleanly.
        (Some(own), true, Ok((Judgement::Accepted, _, _))) => (own, None, None),
        (None, _, Ok((Judgement::Accepted, message, score))) => (Verdict::Accepted, message, score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says(judgement: Judgement) -> RefereeSays {
        Ok((judgement, Some("move 3: illegal".into()), None))
    }

    #[test]
    fn a_rejection_first_wins_over_the_crash_it_caused() {
        let (verdict, detail, _) = decide(
            Some(Verdict::RuntimeError),
            true,
            says(Judgement::WrongAnswer),
        );
        assert_eq!(verdict, Verdict::WrongAnswer);
        assert_eq!(detail.as_deref(), Some("move 3: illegal"));
    }

    #[test]
    fn a_submission_that_failed_first_keeps_its_verdict() {
        for own in [
            Verdict::TimeLimitExceeded,
            Verdict::RuntimeError,
            Verdict::MemoryLimitExceeded,
            Verdict::OutputLimitExceeded,
        ] {
            assert_eq!(
                decide(Some(own), false, says(Judgement::WrongAnswer)).0,
                own
            );
            assert_eq!(
                decide(
                    Some(own),
                    false,
                    Err(JudgeFailure::program("interactor", "crashed"))
                )
                .0,
                own
            );
        }
    }

    #[test]
    fn a_testlib_presentation_error_is_a_rejection_too() {
        let (verdict, detail, _) = decide(
            Some(Verdict::RuntimeError),
            true,
            says(Judgement::PresentationError),
        );
        assert_eq!(verdict, Verdict::PresentationError);
        assert_eq!(detail.as_deref(), Some("move 3: illegal"));
        assert_eq!(
            decide(None, false, says(Judgement::PresentationError)).0,
            Verdict::PresentationError
        );
        // The usual testlib case: the submission crashed, then the
        // interactor read the end of its output as a PE. The crash is charged.
        assert_eq!(
            decide(
                Some(Verdict::RuntimeError),
                false,
                says(Judgement::PresentationError)
            )
            .0,
            Verdict::RuntimeError
        );
    }

    #[test]
    fn a_broken_interactor_is_a_judge_error() {
        assert_eq!(
            decide(
                None,
                false,
                Err(JudgeFailure::program("interactor", "exit 1"))
            )
            .0,
            Verdict::JudgeError
        );
        assert_eq!(
            decide(
                None,
                true,
                Err(JudgeFailure::program("interactor", "exit 1"))
            )
            .0,
            Verdict::JudgeError
        );
    }

    #[test]
    fn acceptance_needs_a_clean_end() {
        assert_eq!(
            decide(None, false, says(Judgement::Accepted)).0,
            Verdict::Accepted
        );
        assert_eq!(
            decide(None, true, says(Judgement::Accepted)).0,
            Verdict::Accepted
        );
        assert_eq!(
            decide(Some(Verdict::RuntimeError), true, says(Judgement::Accepted)).0,
            Verdict::RuntimeError
        );
    }
}
