//! What a package check found, typed: how bad it is, where, and what.
//! New checks return these (see `answer_checks`, `generators`,
//! `constraints`, `invalid_inputs`); `judge verify` still prints the
//! package stage as lines, so `into_checks` turns them into the
//! (passed, failed, skipped) lines the other checks give.

use serde::Serialize;

use std::io::Write;

use super::Context;
use super::self_tests::Checks;
use crate::errors::{Error, Result};
use crate::spec::ProblemSpec;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    /// A check that held.
    Passed,
    /// Something to look at that breaks no rule.
    Warning,
    /// The package breaks a rule: `judge verify` fails.
    Error,
    /// A check not made, and why (a tool this machine lacks).
    Skipped,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Finding {
    pub(crate) severity: Severity,
    /// What it is about: a test (`secret/02`), a file, a validator.
    pub(crate) place: String,
    pub(crate) message: String,
}

impl Finding {
    pub(crate) fn new(
        severity: Severity,
        place: impl Into<String>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            severity,
            place: place.into(),
            message: message.into(),
        }
    }

    pub(crate) fn error(place: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding::new(Severity::Error, place, message)
    }

    pub(crate) fn warning(place: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding::new(Severity::Warning, place, message)
    }

    pub(crate) fn passed(place: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding::new(Severity::Passed, place, message)
    }

    pub(crate) fn skipped(place: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding::new(Severity::Skipped, place, message)
    }

    /// The line `judge verify` prints.
    pub(crate) fn line(&self) -> String {
        let text = match self.place.is_empty() {
            true => self.message.clone(),
            false => format!("{}: {}", self.place, self.message),
        };
        match self.severity {
            Severity::Warning => format!("warning: {text}"),
            _ => text,
        }
    }
}

/// The findings as `judge verify`'s package stage prints them: passed,
/// failed, and skipped (with the warnings).
pub(crate) fn into_checks(findings: &[Finding]) -> Checks {
    let (mut passed, mut failed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    for finding in findings {
        match finding.severity {
            Severity::Passed => passed.push(finding.line()),
            Severity::Error => failed.push(finding.line()),
            Severity::Warning | Severity::Skipped => skipped.push(finding.line()),
        }
    }
    (passed, failed, skipped)
}

/// `judge verify --CHECK [ID...]`: runs `check` on every problem and prints
/// its findings under the problem's name; fails when one is an error.
pub(super) fn report(
    ctx: &mut Context,
    ids: &[String],
    check: fn(&mut Context, &ProblemSpec) -> Vec<Finding>,
) -> Result<u8> {
    let (problems, broken) = ctx.load_and_build(ids)?;
    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    let mut errors = !broken.is_empty();
    for problem in &problems {
        writeln!(ctx.out, "{}", ctx.styles.bold(&problem.id)).map_err(io)?;
        for finding in check(ctx, problem) {
            errors |= finding.severity == Severity::Error;
            let line = finding.line();
            let line = match finding.severity {
                Severity::Error => ctx.styles.bad(&line),
                Severity::Warning => ctx.styles.bold(&line),
                Severity::Passed => ctx.styles.good(&line),
                Severity::Skipped => ctx.styles.dim(&line),
            };
            writeln!(ctx.out, "  {line}").map_err(io)?;
        }
    }
    Ok(ctx.exit_code(!errors))
}
