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
/// kept in the store at `store`. Slow the first time (compilers): a server
/// is already listening meanwhile, so each step is told to `say` as it
/// starts ("preparing 3/14: grid-game"), and where each settled (or
/// stated) time limit came from.
pub(crate) fn prepare(
    means: &mut Means<'_>,
    problems: Vec<ProblemSpec>,
    store: &Path,
    say: &mut dyn FnMut(String),
) -> Result<Vec<ServedProblem>, Error> {
    let programs: Vec<_> = problems.iter().flat_map(ProblemSpec::programs).collect();
    if programs
        .iter()
        .any(|p| matches!(p, crate::spec::ProgramRef::Bin(_)))
    {
        say("building the packages' own programs (cargo build)".into());
    }
    means.builder.build_workspace(&programs)?;
    let mut served = Vec::new();
    let count = problems.len();
    for (n, spec) in problems.into_iter().enumerate() {
        say(format!(
            "preparing {}/{count}: {} (its time limit, its checker or referee)",
            n + 1,
            spec.id
        ));
        let mut run = Run::new("serve", &RunOptions::default());
        let settled = plan::settle_for_judging(means, &mut run, spec, store, false)?;
        if let Some(source) = &settled.source {
            say(source.line(&settled.problem.id));
        }
        let judges = Judges::build(&mut *means.builder, &settled.problem);
        served.push(ServedProblem {
            spec: settled.problem,
            judges,
        });
    }
    Ok(served)
}
