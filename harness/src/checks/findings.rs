//! What a package check found, typed: how bad it is, where, and what. The
//! one channel of every package check (`judge verify`'s package stage, its
//! `--constraints` and `--invalid-inputs` runs), counted as problemtools
//! counts its errors and warnings.

use serde::Serialize;

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

impl Severity {
    /// As the JSON report writes it.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Severity::Passed => "passed",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Skipped => "skipped",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Finding {
    pub(crate) severity: Severity,
    /// What it is about: a test (`secret/02`), a file, a validator; `None`
    /// when the message says it all.
    pub(crate) place: Option<String>,
    pub(crate) message: String,
}

impl Finding {
    /// A finding; an empty `place` is none (the message says it all).
    pub(crate) fn new(
        severity: Severity,
        place: impl Into<String>,
        message: impl Into<String>,
    ) -> Finding {
        let place: String = place.into();
        Finding {
            severity,
            place: (!place.is_empty()).then_some(place),
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
        let text = match &self.place {
            None => self.message.clone(),
            Some(place) => format!("{place}: {}", self.message),
        };
        match self.severity {
            Severity::Warning => format!("warning: {text}"),
            _ => text,
        }
    }
}

/// How many findings are errors and how many warnings (problemtools'
/// `X errors, Y warnings`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Tally {
    pub(crate) errors: usize,
    pub(crate) warnings: usize,
}

impl Tally {
    pub(crate) fn of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Tally {
        let mut tally = Tally::default();
        for finding in findings {
            match finding.severity {
                Severity::Error => tally.errors += 1,
                Severity::Warning => tally.warnings += 1,
                Severity::Passed | Severity::Skipped => {}
            }
        }
        tally
    }
}
