//! The problems a server or a worker judges, made ready once: every
//! workspace program built, a package's time limit settled (kept in the
//! store), the judging programs (checker, interactor) built.

use std::path::Path;

use crate::errors::Error;
use crate::pipeline::{Run, RunOptions};
use crate::plan::{self, Judges, Means};
use crate::spec::ProblemSpec;

/// A problem ready to judge stored submissions of.
pub(crate) struct ServedProblem {
    pub(crate) spec: ProblemSpec,
    pub(crate) judges: Judges,
}

impl ServedProblem {
    /// Scored problems run every test (their score needs them all); the
    /// others stop at the first failure.
    pub(crate) fn is_scored(&self) -> bool {
        self.spec.package.as_ref().is_some_and(|p| p.scoring)
            || self.spec.solutions.iter().any(|s| s.score.is_some())
    }
}

/// `problems` made ready to judge with `means`, their settled time limits
/// kept in the store at `store`; with each problem whose limit was settled
/// (or stated), a line saying where its limit came from. Slow the first
/// time (compilers): a server is already listening meanwhile.
pub(crate) fn prepare(
    means: &mut Means<'_>,
    problems: Vec<ProblemSpec>,
    store: &Path,
) -> Result<(Vec<ServedProblem>, Vec<String>), Error> {
    let programs: Vec<_> = problems.iter().flat_map(ProblemSpec::programs).collect();
    means.builder.build_workspace(&programs)?;
    let mut served = Vec::new();
    let mut notes = Vec::new();
    for spec in problems {
        let mut run = Run::new("serve", &RunOptions::default());
        let settled = plan::settle_for_judging(means, &mut run, spec, store, false)?;
        if let Some(source) = &settled.source {
            notes.push(source.line(&settled.problem.id));
        }
        let judges = Judges::build(&mut *means.builder, &settled.problem);
        served.push(ServedProblem {
            spec: settled.problem,
            judges,
        });
    }
    Ok((served, notes))
}
