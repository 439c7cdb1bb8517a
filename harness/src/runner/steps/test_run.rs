//! What judging one submission on one test needs.

use std::path::Path;

use crate::compile::Executable;
use crate::sandbox::Runs;
use crate::spec::{ProblemSpec, TestCase};

use crate::compile::AnswerSet;

/// One submission on one test, and what judging it needs.
#[derive(Clone, Copy)]
pub struct TestRun<'a> {
    pub sandbox: &'a dyn Runs,
    pub problem: &'a ProblemSpec,
    /// The problem's built judging program (checker or interactor), when it
    /// has one.
    pub checker: Option<&'a Executable>,
    /// The built checker of a testlib interactor's output file.
    pub output_checker: Option<&'a Executable>,
    /// What is judged: a built program, or an output-only problem's answers.
    pub submission: Submission<'a>,
    pub test: &'a TestCase,
    /// An empty folder to run in, emptied again afterwards: a worker reuses
    /// one, as creating a folder per run costs more than the run itself on
    /// some filesystems.
    pub workdir: &'a Path,
    /// The submission's files and the static validator, for a Kattis
    /// static validation test case.
    pub static_validation: Option<&'a super::super::StaticSubmission>,
    /// The output visualizer, when the package has one and its images
    /// are kept.
    pub output_visualization: Option<&'a super::OutputVisualization>,
}

/// What a submission is: a built program (batch, interactive and
/// multi-pass problems), or its answer files (output-only problems).
#[derive(Clone, Copy)]
pub enum Submission<'a> {
    Program(&'a Executable),
    Answers(&'a AnswerSet),
}
