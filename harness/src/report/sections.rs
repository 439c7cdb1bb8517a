//! What a verb adds to its JSON report beside the submissions, typed: the
//! schema of every section (README "JSON report") lives here, and the
//! verbs fill it in. A section left `None` is left out of the document.

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Sections {
    /// `verify`: every solution held to its expectation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) expectations: Option<Vec<Expectation>>,
    /// `verify`: what made a package fail, one line each.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) package_errors: Option<Vec<String>>,
    /// `verify`: every finding of the package stage, and their count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) package_findings: Option<PackageFindings>,
    /// `verify --calibrate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) calibration: Option<Vec<Calibration>>,
    /// `verify --matrix`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) matrix: Option<Vec<Matrix>>,
    /// `grade --class`, `report`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) class: Option<Class>,
}

/// One solution of `verify`: held to its expectation, or not run.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum Expectation {
    Held(HeldExpectation),
    /// Not run: this machine lacks its compiler or interpreter.
    Skipped {
        problem: String,
        solution: String,
        skipped: String,
    },
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct HeldExpectation {
    pub(crate) problem: String,
    pub(crate) solution: String,
    /// The verdicts `problem.toml` allows, or a package's expectation in words.
    pub(crate) expected: Vec<String>,
    pub(crate) expected_score: Option<f64>,
    /// Where a package's expectation comes from (folder, tag, file line).
    pub(crate) expected_by: Option<String>,
    pub(crate) got: &'static str,
    pub(crate) score: Option<f64>,
    pub(crate) ok: bool,
    pub(crate) broken_rules: Vec<String>,
}

/// The package stage's findings, with the count of errors and warnings.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PackageFindings {
    pub(crate) errors: usize,
    pub(crate) warnings: usize,
    pub(crate) findings: Vec<PackageFinding>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct PackageFinding {
    pub(crate) problem: String,
    /// `passed`, `warning`, `error` or `skipped`.
    pub(crate) severity: &'static str,
    /// What it is about (a test, a file, a program), if the message does
    /// not say.
    pub(crate) place: Option<String>,
    pub(crate) message: String,
}

/// `verify --calibrate`: one problem's figures.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Calibration {
    pub(crate) problem: String,
    pub(crate) repeat: usize,
    pub(crate) limit_ms: u64,
    pub(crate) kattis_2025_09_limit_ms: Option<u64>,
    pub(crate) kattis_error: Option<String>,
    pub(crate) upper_bound_ms: Option<u64>,
    pub(crate) solutions: Vec<CalibratedSolution>,
    pub(crate) warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct CalibratedSolution {
    pub(crate) solution: String,
    /// `AC` or `TLE`.
    pub(crate) expect: &'static str,
    pub(crate) cpu_ms: u64,
    /// Its slowest test.
    pub(crate) test: String,
    /// The time reached the raised limit: a lower bound.
    pub(crate) at_least: bool,
}

/// `verify --matrix`: which test rejects which solution, for one problem.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Matrix {
    pub(crate) problem: String,
    pub(crate) solutions: Vec<MatrixSolution>,
    pub(crate) tests: Vec<MatrixTest>,
    pub(crate) tests_rejecting_nothing: Vec<String>,
    pub(crate) solutions_caught_once: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct MatrixSolution {
    pub(crate) solution: String,
    pub(crate) first_rejected_by: Option<String>,
    pub(crate) rejected_by: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct MatrixTest {
    pub(crate) test: String,
    pub(crate) kills: usize,
    /// By solution: its verdict on this test (`null`: not run).
    pub(crate) verdicts: BTreeMap<String, Option<&'static str>>,
}

/// A class's grading: the run, the students, each submission, the
/// missing ones and the files not graded.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Class {
    pub(crate) run: i64,
    pub(crate) partition: Option<String>,
    pub(crate) students: Vec<String>,
    pub(crate) submissions: Vec<ClassSubmission>,
    pub(crate) no_submission: Vec<NoSubmission>,
    pub(crate) unmatched: Vec<UnmatchedFile>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct ClassSubmission {
    pub(crate) student: String,
    pub(crate) problem: String,
    pub(crate) submission: String,
    pub(crate) language: Option<String>,
    pub(crate) verdict: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct NoSubmission {
    pub(crate) student: String,
    pub(crate) problem: String,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct UnmatchedFile {
    pub(crate) student: Option<String>,
    pub(crate) path: String,
    pub(crate) reason: String,
}
