//! What a problem's own solutions are expected to get (a package's
//! folder, tag or `submissions.yaml` rules), whether a report holds to
//! it, and which solutions bound a package's time limit.

use std::collections::BTreeMap;

use crate::formats::{Expectation, Got, Package, Seen, TimeLimitBound};
use crate::runner::TaskReport;
use crate::spec::{ProblemSpec, SolutionSpec};
use crate::verdict::Verdict;

/// How `solution`'s runs bound its package's time limit.
pub(super) fn bound(problem: &ProblemSpec, solution: &SolutionSpec) -> TimeLimitBound {
    match (&problem.package, solution.package_submission) {
        (Some(package), Some(index)) => package.submissions[index].time_limit_bound,
        _ => TimeLimitBound::None,
    }
}

/// Whether `solution` bounds the time limit from above.
pub(crate) fn is_upper_bound(problem: &ProblemSpec, solution: &SolutionSpec) -> bool {
    bound(problem, solution) == TimeLimitBound::Upper
}

/// The package's expectation for `solution`, if it is a package's
/// submission, with where it came from.
pub(crate) fn expectation_of<'a>(
    problem: &'a ProblemSpec,
    solution: &SolutionSpec,
) -> Option<(&'a Expectation, &'a str)> {
    let package = problem.package.as_deref()?;
    let submission = &package.submissions[solution.package_submission?];
    Some((&submission.expectation, &submission.origin))
}

/// Whether `solution` must run on every test even when runs stop at the
/// first failure: its rules speak of every test's verdict, or the legacy
/// grader takes more than a group's first rejection (`on_reject:
/// continue`).
pub(crate) fn needs_every_test(problem: &ProblemSpec, solution: &SolutionSpec) -> bool {
    let Some(package) = problem.package.as_deref() else {
        return false;
    };
    match expectation_of(problem, solution) {
        Some((Expectation::Rules(_), _)) => true,
        Some(_) => package
            .legacy_root
            .iter()
            .chain(package.groups.iter().filter_map(|g| g.legacy.as_ref()))
            .any(|grading| !grading.stop_on_reject),
        None => false,
    }
}

/// Whether every test's verdict follows the package's rules, in its own
/// vocabulary: `Err` lists what did not.
pub(crate) fn expectation_holds(
    problem: &ProblemSpec,
    expectation: &Expectation,
    report: &TaskReport,
) -> Result<(), Vec<crate::formats::Broken>> {
    let Some(package) = &problem.package else {
        return Ok(());
    };
    let seen: Vec<Seen<'_>> = report
        .tests
        .iter()
        .map(|t| Seen {
            test: &t.test,
            verdict: t.verdict,
            message: t.detail.as_deref(),
        })
        .collect();
    let (score, groups) = crate::runner::package_score(package, &report.tests)
        .map_or((None, BTreeMap::new()), |(score, groups)| {
            (Some(score), groups)
        });
    let max_score = package.scoring.then(|| full_score(package));
    let checked = crate::formats::check_expectation(
        package.format,
        expectation,
        &Got {
            overall: report.verdict,
            tests: &seen,
            score,
            group_scores: &groups,
            max_score,
        },
    );
    // A legacy group's score outside its `range` breaks the package's
    // rule whatever the submission was expected to get.
    let judged: Vec<crate::formats::Judged<'_>> = report
        .tests
        .iter()
        .map(|t| crate::formats::Judged {
            test: &t.test,
            verdict: t.verdict,
            score: t.score,
        })
        .collect();
    let out_of_range = crate::formats::out_of_range(package, &judged);
    match (checked, out_of_range.is_empty()) {
        (checked, true) => checked,
        (Ok(()), false) => Err(out_of_range),
        (Err(mut broken), false) => {
            broken.extend(out_of_range);
            Err(broken)
        }
    }
}

/// The score of a submission accepted on every test. Legacy groups: the
/// top of `data/`'s `range`, as problemtools decides "fully accepted"
/// (infinite when no range is given, so nothing is).
fn full_score(package: &Package) -> f64 {
    if let Some(root) = &package.legacy_root {
        return root.range.1;
    }
    let judged: Vec<crate::formats::Judged<'_>> = package
        .tests
        .iter()
        .map(|t| crate::formats::Judged {
            test: &t.name,
            verdict: Verdict::Accepted,
            score: None,
        })
        .collect();
    crate::formats::package_score(package, &judged).map_or(0.0, |(score, _)| score)
}
