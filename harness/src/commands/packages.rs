//! What Kattis and Polygon packages need beyond our own format, for
//! `verify`, `test` and `grade`: the time limit their own submissions
//! decide, their input validators and invalid inputs, and whether each
//! submission got what its folder, tag or `submissions.yaml` says.

use std::collections::BTreeMap;
use std::time::Duration;

use super::findings::Finding;
use super::practice::task_for;
use super::{Context, answer_checks, generators, self_tests};
use crate::formats::{Expectation, Got, Package, Seen, TimeLimitBound, TimeLimitRule, Timing};
use crate::pipeline::Run;
use crate::runner::{RunPlan, TaskReport};
use crate::spec::{Limits, ProblemSpec, SolutionSpec};
use crate::verdict::Verdict;

/// How a package's time limit was settled.
#[derive(Default)]
pub(super) struct TimeSettlement {
    /// Where the limit came from, for the setter.
    pub(super) explanation: Option<String>,
    pub(super) warnings: Vec<String>,
    /// No limit fits the package's own rules: its submissions are not run.
    pub(super) error: Option<crate::formats::NoTimeLimit>,
    /// Submissions that must time out run under this cap, so that a run
    /// which only just exceeds the limit shows up.
    pub(super) timeout_floor: Option<Duration>,
    /// The runs that decided the limit, by solution index: judged already,
    /// under a cap at least the limit, so their verdicts stand.
    pub(super) runs: Vec<(usize, TaskReport)>,
    slowest: Option<(Duration, String)>,
}

impl TimeSettlement {
    /// The slowest run that bounds the limit from below, if any ran.
    fn slowest(&self) -> Option<Timing<'_>> {
        self.slowest.as_ref().map(|(time, submission)| Timing {
            time: *time,
            submission,
        })
    }
}

fn bound(problem: &ProblemSpec, solution: &SolutionSpec) -> TimeLimitBound {
    match (&problem.package, solution.package_submission) {
        (Some(package), Some(index)) => package.submissions[index].time_limit_bound,
        _ => TimeLimitBound::None,
    }
}

/// The slowest test of a submission's runs, as CPU time.
fn slowest_test(report: &TaskReport) -> Duration {
    report
        .tests
        .iter()
        .map(|t| t.metrics.cpu)
        .max()
        .unwrap_or_default()
}

/// The solutions whose slowest run bounds the limit from below and that
/// this machine can build.
pub(super) fn lower_bounds(ctx: &mut Context, problem: &ProblemSpec) -> Vec<usize> {
    (0..problem.solutions.len())
        .filter(|&i| bound(problem, &problem.solutions[i]) == TimeLimitBound::Lower)
        .filter(|&i| {
            ctx.builder
                .unavailable_tool(&problem.solutions[i].program)
                .is_none()
        })
        .collect()
}

/// Settles the time limit of a package whose limit follows from its own
/// submissions, by running those that bound it from below under the
/// provisional cap; `None` for a limit stated outright.
pub(super) fn settle_time_limit(
    ctx: &mut Context,
    run: &mut Run<'_>,
    problem: &mut ProblemSpec,
) -> Option<TimeSettlement> {
    let package = problem.package.clone()?;
    if let TimeLimitRule::Fixed { .. } = package.limits.time {
        return None;
    }
    let lower = lower_bounds(ctx, problem);
    let mut settlement = TimeSettlement::default();
    let reports = {
        let problem: &ProblemSpec = problem;
        let tasks = lower
            .iter()
            .map(|&i| {
                let solution = &problem.solutions[i];
                let mut task = task_for(ctx, problem, &solution.program, name_of(solution));
                task.every_test = true;
                task
            })
            .collect();
        let plan = RunPlan {
            tasks,
            stop_at_first_failure: false,
            jobs: ctx.jobs,
        };
        ctx.execute(run, &plan, None)
    };
    for (&index, report) in lower.iter().zip(reports) {
        let time = slowest_test(&report);
        if settlement.slowest.as_ref().is_none_or(|(t, _)| time > *t) {
            settlement.slowest = Some((time, report.submission.clone()));
        }
        settlement.runs.push((index, report));
    }
    match crate::formats::derive(&package.limits.time, settlement.slowest(), None) {
        Ok(limit) => {
            problem.limits.time = limit.limit;
            problem.limits.wall = Limits::default_wall(limit.limit);
            settlement.explanation = Some(limit.explanation);
            settlement.warnings = limit.warnings;
            settlement.timeout_floor = limit.timeout_floor;
        }
        Err(why) => settlement.error = Some(why),
    }
    Some(settlement)
}

/// After the submissions that must time out have run under the floor:
/// the package's rule on the safety margin (a warning in legacy packages,
/// an error in 2025-09 ones).
pub(super) fn check_margin(
    problem: &ProblemSpec,
    settlement: &mut TimeSettlement,
    upper: &[&TaskReport],
) {
    let Some(package) = &problem.package else {
        return;
    };
    let fastest = upper
        .iter()
        .map(|r| (slowest_test(r), r.submission.as_str()))
        .min_by_key(|(time, _)| *time);
    let upper = fastest.map(|(time, submission)| Timing { time, submission });
    match crate::formats::derive(&package.limits.time, settlement.slowest(), upper) {
        Ok(limit) => {
            for warning in limit.warnings {
                if !settlement.warnings.contains(&warning) {
                    settlement.warnings.push(warning);
                }
            }
        }
        Err(why) => settlement.error = Some(why),
    }
}

/// A problem whose submissions that must time out run under `floor`.
pub(super) fn with_time(problem: &ProblemSpec, time: Duration) -> ProblemSpec {
    let mut problem = problem.clone();
    problem.limits.time = time;
    problem.limits.wall = Limits::default_wall(time);
    problem
}

/// Whether `solution` bounds the time limit from above.
pub(super) fn is_upper_bound(problem: &ProblemSpec, solution: &SolutionSpec) -> bool {
    bound(problem, solution) == TimeLimitBound::Upper
}

pub(super) fn name_of(solution: &SolutionSpec) -> String {
    solution.program.display_name()
}

/// The package's expectation for `solution`, if it is a package's
/// submission, with where it came from.
pub(super) fn expectation_of<'a>(
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
pub(super) fn needs_every_test(problem: &ProblemSpec, solution: &SolutionSpec) -> bool {
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
pub(super) fn expectation_holds(
    problem: &ProblemSpec,
    expectation: &Expectation,
    report: &TaskReport,
) -> Result<(), Vec<String>> {
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

/// The package's own programs on their own tests (see `self_tests`): the
/// input validators on every input and on the invalid inputs, then the
/// output validator or checker on the outputs of known verdict.
pub(super) fn check_self_tests(ctx: &mut Context, problem: &ProblemSpec) -> Vec<Finding> {
    let mut findings = self_tests::check_inputs(ctx, problem);
    if let Some(package) = &problem.package {
        // What the package's own tools would only warn about.
        findings.extend(
            package
                .warnings
                .iter()
                .map(|w| Finding::warning("", w.clone())),
        );
        if !package.generators.is_empty() {
            findings.push(Finding::skipped(
                "",
                format!(
                    "{} not run (the package holds the tests they made)",
                    crate::report::human::count(package.generators.len(), "generator")
                ),
            ));
        }
    }
    findings.extend(answer_checks::check_answers(ctx, problem));
    findings.extend(generators::check(ctx, &problem.dir));
    findings.extend(self_tests::check_outputs(ctx, problem));
    findings
}
