//! Multi-pass judging driven by a scripted sandbox: the `nimrounds`
//! fixture's spec, with a pretend submission and output validator whose
//! behaviour each test chooses, so that every rule of the protocol is
//! exercised without starting a process.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use crate::compile::Executable;
use crate::sandbox::SandboxError;
use crate::sandbox::{Interaction, RunOutcome, RunRequest, Runs, Termination};
use crate::spec::{ProblemSpec, ProgramRef, Protocol, ToolSpec, load_problem};
use crate::verdict::Verdict;

use super::super::scripted::outcome;
use super::super::{Submission, TestRun, judge_test};

/// What the pretend output validator does after pass `n` (from 1): its
/// exit code and whether it writes `nextpass.in`.
type ValidatorScript = fn(pass: usize, feedback: &Path) -> (i32, bool);

/// A sandbox that plays both programs: the submission prints `1 1` (or
/// exceeds its time on `slow_pass`), the validator follows `validator`.
struct Passes {
    validator: ValidatorScript,
    slow_pass: Option<usize>,
    /// The submission's stdin, pass by pass.
    inputs: Mutex<Vec<String>>,
    /// The validator's input file, run by run.
    validator_inputs: Mutex<Vec<String>>,
    validator_runs: Mutex<usize>,
}

impl Runs for Passes {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        if request.program == Path::new("/validator") {
            let mut runs = self.validator_runs.lock().unwrap();
            *runs += 1;
            // validator input answer feedback/ < team_output
            let input = std::fs::read_to_string(&request.args[0]).unwrap();
            self.validator_inputs.lock().unwrap().push(input);
            let feedback = PathBuf::from(request.args[2].to_str().unwrap());
            let (exit, next) = (self.validator)(*runs, &feedback);
            if next {
                std::fs::write(
                    feedback.join("nextpass.in"),
                    format!("pass {}\n", *runs + 1),
                )
                .unwrap();
            }
            return Ok(outcome(Termination::Exited(exit), 1, ""));
        }
        let mut inputs = self.inputs.lock().unwrap();
        let stdin = request.stdin.as_deref().unwrap();
        inputs.push(std::fs::read_to_string(stdin).unwrap());
        let pass = inputs.len();
        Ok(match self.slow_pass {
            Some(slow) if slow == pass => outcome(Termination::CpuLimit, 1100, ""),
            _ => outcome(Termination::Exited(0), 10 * pass as u64, "1 1\n"),
        })
    }

    /// An interactive pass: the submission talks, then the validator decides.
    fn run_interactive(
        &self,
        submission: &RunRequest,
        interactor: &RunRequest,
    ) -> Result<Interaction, SandboxError> {
        assert!(submission.stdin.is_none(), "the submission sees no input");
        self.inputs.lock().unwrap().push(String::new());
        let validator = self.run(interactor)?;
        Ok(Interaction {
            submission: outcome(Termination::Exited(0), 10, ""),
            interactor: Ok(validator),
            interactor_first: false,
            interactor_stalled: false,
            transcript: Default::default(),
        })
    }

    fn is_cancelled(&self) -> bool {
        false
    }
}

fn nimrounds() -> ProblemSpec {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ecosystem/problems/nimrounds");
    load_problem(&dir).unwrap()
}

fn program(path: &str) -> Executable {
    Executable {
        program: PathBuf::from(path),
        args: Vec::new(),
        read_only: Vec::new(),
        note: None,
    }
}

/// Judges a secret test; returns its report and the sandbox.
fn judge(validator: ValidatorScript, slow_pass: Option<usize>) -> (super::TestReport, Passes) {
    judge_problem(&nimrounds(), validator, slow_pass)
}

fn judge_problem(
    problem: &ProblemSpec,
    validator: ValidatorScript,
    slow_pass: Option<usize>,
) -> (super::TestReport, Passes) {
    let sandbox = Passes {
        validator,
        slow_pass,
        inputs: Mutex::new(Vec::new()),
        validator_inputs: Mutex::new(Vec::new()),
        validator_runs: Mutex::new(0),
    };
    let test = problem
        .tests
        .iter()
        .find(|t| t.name == "secret/01-small")
        .unwrap();
    let runs = tempfile::tempdir().unwrap();
    let workdir = runs.path().join("work");
    std::fs::create_dir(&workdir).unwrap();
    let report = judge_test(&TestRun {
        sandbox: &sandbox,
        problem,
        checker: Some(&program("/validator")),
        output_checker: None,
        submission: Submission::Program(&program("/submission")),
        test,
        workdir: &workdir,
        static_validation: None,
        output_visualization: None,
    });
    (report, sandbox)
}

#[test]
fn a_second_pass_runs_on_nextpass_in_with_the_feedback_kept() {
    let (report, sandbox) = judge(
        |pass, feedback| {
            if pass == 1 {
                std::fs::write(feedback.join("judgemessage.txt"), "round 1 ok\n").unwrap();
                return (42, true);
            }
            // What pass 1 wrote is still there; nextpass.in is gone.
            assert!(feedback.join("judgemessage.txt").exists());
            assert!(!feedback.join("nextpass.in").exists());
            (42, false)
        },
        None,
    );
    assert_eq!(report.verdict, Verdict::Accepted, "{report:?}");
    let inputs = sandbox.inputs.lock().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0], "1 2\n1 2\n");
    assert_eq!(inputs[1], "pass 2\n");
    // The validator reads the same input as the submission in each pass.
    assert_eq!(*sandbox.validator_inputs.lock().unwrap(), *inputs);
    assert_eq!(report.detail.as_deref(), Some("round 1 ok"));
    // The limits apply to each pass: the test's time is its slowest pass's.
    assert_eq!(report.metrics.cpu, Duration::from_millis(20));
}

#[test]
fn asking_for_more_passes_than_allowed_is_a_judge_error() {
    let (report, sandbox) = judge(|_, _| (42, true), None);
    assert_eq!(report.verdict, Verdict::JudgeError);
    let detail = report.detail.unwrap();
    assert!(
        detail.contains("pass 3") && detail.contains("validation_passes is 2"),
        "{detail}"
    );
    assert_eq!(sandbox.inputs.lock().unwrap().len(), 2);
}

#[test]
fn nextpass_in_with_a_rejection_is_a_judge_error() {
    let (report, _) = judge(|_, _| (43, true), None);
    assert_eq!(report.verdict, Verdict::JudgeError);
    assert!(report.detail.unwrap().contains("only an acceptance"));
}

#[test]
fn a_rejection_without_nextpass_in_ends_the_test() {
    let (report, sandbox) = judge(
        |pass, _| if pass == 1 { (42, true) } else { (43, false) },
        None,
    );
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    assert_eq!(report.detail.as_deref(), Some("pass 2"));
    assert_eq!(sandbox.inputs.lock().unwrap().len(), 2);
}

#[test]
fn a_submission_that_fails_in_a_later_pass_keeps_its_verdict() {
    let (report, sandbox) = judge(|_, _| (42, true), Some(2));
    assert_eq!(report.verdict, Verdict::TimeLimitExceeded);
    assert!(report.detail.unwrap().starts_with("pass 2: "));
    // The validator never ran after the failed pass.
    assert_eq!(*sandbox.validator_runs.lock().unwrap(), 1);
}

#[test]
fn an_interactive_multi_pass_problem_talks_again_each_pass() {
    let mut problem = nimrounds();
    problem.interactor = Some(ToolSpec {
        program: ProgramRef::Bin("validator".into()),
        args: Vec::new(),
        protocol: Protocol::Kattis,
    });
    let (report, sandbox) = judge_problem(&problem, |pass, _| (42, pass == 1), None);
    assert_eq!(report.verdict, Verdict::Accepted, "{report:?}");
    assert_eq!(*sandbox.validator_runs.lock().unwrap(), 2);
    // The interactive validator reads pass 2's nextpass.in as its input.
    assert_eq!(
        *sandbox.validator_inputs.lock().unwrap(),
        ["1 2\n1 2\n", "pass 2\n"]
    );
    let (report, _) = judge_problem(&problem, |_, _| (42, true), None);
    assert_eq!(report.verdict, Verdict::JudgeError);
}
