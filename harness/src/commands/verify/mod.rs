//! `judge verify`, the problem setter's regression run: the package stage
//! (`checks`), then every solution through the pipeline, each held to its
//! expectation (`table`); and `judge generate` (`generate`).

mod generate;
mod table;

use std::collections::BTreeMap;
use std::io::Write;

use super::Context;
use super::stored;
use crate::checks::{self, Finding, Severity, Tally};
use crate::cli::{ReportArgs, StoreArgs};
use crate::errors::{Error, Result};
use crate::owner::Owner;
use crate::pipeline::Run;
use crate::plan::{self, TimeSettlement};
use crate::report::human;
use crate::report::sections::{Expectation, PackageFinding, PackageFindings, Sections};
use crate::runner::{RunPlan, TaskReport};
use crate::spec::{ProblemSpec, SolutionSpec};
use crate::store::Store;
use table::{Held, ProblemFindings, Row};

pub(super) use generate::generate;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// A solution's result held to its expectation: a package's (its folder,
/// tag or `submissions.yaml` rules) or `problem.toml`'s (`expect`, `score`).
fn row<'a>(
    problem: &'a ProblemSpec,
    solution: &'a SolutionSpec,
    report: &'a TaskReport,
) -> Row<'a> {
    if let Some((expectation, origin)) = plan::expectation_of(problem, solution) {
        return Row {
            solution,
            report,
            expected: crate::formats::describe_expectation(expectation),
            expected_by: Some(origin),
            held: match plan::expectation_holds(problem, expectation, report) {
                Ok(()) => Held::Yes,
                Err(broken) => Held::Broken(broken),
            },
        };
    }
    let holds = solution.expect.contains(&report.verdict)
        && match (solution.score, report.score) {
            (Some(want), Some(got)) => (want - got).abs() <= 1e-6,
            (Some(_), None) => false,
            (None, _) => true,
        };
    let verdicts: Vec<&str> = solution.expect.iter().map(|v| v.short()).collect();
    let mut expected = verdicts.join("|");
    if let Some(score) = solution.score {
        expected.push_str(&format!(" {}", human::trim_float(score)));
    }
    Row {
        solution,
        report,
        expected,
        expected_by: None,
        held: if holds { Held::Yes } else { Held::NotExpected },
    }
}

pub(super) fn verify(
    ctx: &mut Context,
    ids: &[String],
    all_tests: bool,
    reports: &ReportArgs,
    store: &StoreArgs,
) -> Result<u8> {
    writeln!(ctx.out, "{}", ctx.styles.dim(&ctx.boxes.describe())).map_err(io)?;
    let (mut problems, broken) = ctx.load_and_build(ids)?;
    let (mut store_used, memo) = stored::open_for_verify(ctx, store).unzip();
    let mut run = ctx.run_with_progress("verify", &reports.into());

    // Kattis packages learn their time limit from their own submissions.
    let mut settlements = settle(ctx, &mut run, &mut problems, store_used.as_mut());
    let mut package_checks = checks::package_checks(&mut ctx.means(), &problems, memo.as_ref());
    for (problem, check) in problems.iter().zip(&mut package_checks) {
        let settlement = settlements.get(&problem.id);
        check.findings.extend(
            settlement
                .and_then(|s| s.error.clone())
                .map(|error| Finding::error("time limit", error.to_string())),
        );
    }

    // Runs that must time out get the package's safety margin on top.
    let floors: Vec<Option<ProblemSpec>> = problems
        .iter()
        .map(|p| {
            let floor = settlements.get(&p.id).and_then(|s| s.timeout_floor)?;
            Some(plan::with_time(p, floor))
        })
        .collect();
    let (plan, unavailable) = plan_solutions(ctx, &problems, &floors, &settlements, all_tests);
    let opened = store_used.as_mut().zip(memo.as_ref());
    let (mut results, store_counts) =
        stored::verify_run(ctx, &mut run, &plan, opened, store, &problems);
    drop(plan);
    let settling_tests = settlements.values().map(|s| s.tests_run).sum();
    with_settling_runs(&problems, &mut settlements, &mut results);

    let held = hold_each(
        ctx,
        &problems,
        &package_checks,
        &settlements,
        &unavailable,
        &results,
    )?;
    let ok = broken.is_empty() && held.ok;
    let broken_packages = broken.len()
        + problems
            .iter()
            .zip(&package_checks)
            .filter(|(_, check)| check.failed())
            .count();
    let summary = summary(
        problems.len() + broken.len(),
        (held.matched, held.unexpected, unavailable.len()),
        broken_packages,
    );
    let summary = if ok {
        ctx.styles.good(&summary)
    } else {
        ctx.styles.bad(&summary)
    };
    writeln!(ctx.out, "{summary}").map_err(io)?;
    if let Some(counts) = store_counts {
        eprintln!("{}", counts.line(settling_tests));
    }
    let package_errors: Vec<String> = broken
        .iter()
        .map(ToString::to_string)
        .chain(package_checks.iter().flat_map(|c| c.lines(Severity::Error)))
        .collect();
    let sections = Sections {
        expectations: Some(held.expectations),
        package_errors: Some(package_errors),
        package_findings: Some(package_findings(&problems, &package_checks)),
        ..Sections::default()
    };
    ctx.finish(run, sections)?;
    Ok(ctx.exit_code(ok))
}

/// What holding every solution to its expectation came to.
struct Outcome {
    expectations: Vec<Expectation>,
    matched: usize,
    unexpected: usize,
    /// No package check failed and every solution was as expected.
    ok: bool,
}

/// Holds every problem's results to their expectations, in the package's
/// order whichever run judged them, and prints each problem's table.
fn hold_each(
    ctx: &mut Context,
    problems: &[ProblemSpec],
    package_checks: &[checks::PackageCheck],
    settlements: &BTreeMap<String, TimeSettlement>,
    unavailable: &[(Owner, String, String)],
    results: &[TaskReport],
) -> Result<Outcome> {
    let mut held = Outcome {
        expectations: Vec::new(),
        matched: 0,
        unexpected: 0,
        ok: true,
    };
    for (problem, check) in problems.iter().zip(package_checks) {
        held.ok &= !check.failed();
        let mut ran: Vec<(usize, &TaskReport)> = results
            .iter()
            .filter_map(|report| Some((report.owner.solution_of(&problem.id)?, report)))
            .collect();
        ran.sort_by_key(|(s, _)| *s);
        let rows: Vec<Row<'_>> = ran
            .into_iter()
            .map(|(s, report)| row(problem, &problem.solutions[s], report))
            .collect();
        for row in &rows {
            if row.holds() {
                held.matched += 1;
            } else {
                held.unexpected += 1;
                held.ok = false;
            }
            held.expectations.push(Expectation::Held(row.json(problem)));
        }
        let findings = ProblemFindings {
            check,
            settlement: settlements.get(&problem.id),
            unavailable: unavailable
                .iter()
                .filter_map(|(of, name, tool)| {
                    of.solution_of(&problem.id)
                        .map(|_| (name.as_str(), tool.as_str()))
                })
                .collect(),
        };
        table::print_problem(&mut ctx.out, &ctx.styles, problem, &findings, &rows).map_err(io)?;
        for (name, tool) in &findings.unavailable {
            held.expectations.push(Expectation::Skipped {
                problem: problem.id.clone(),
                solution: name.to_string(),
                skipped: format!("skipped: no {tool} on this machine"),
            });
        }
    }
    Ok(held)
}

/// Every problem's package findings for the JSON report, counted as
/// problemtools counts its errors and warnings.
fn package_findings(problems: &[ProblemSpec], checks: &[checks::PackageCheck]) -> PackageFindings {
    let tally = Tally::of(checks.iter().flat_map(|c| &c.findings));
    PackageFindings {
        errors: tally.errors,
        warnings: tally.warnings,
        findings: problems
            .iter()
            .zip(checks)
            .flat_map(|(problem, check)| {
                check.findings.iter().map(|finding| PackageFinding {
                    problem: problem.id.clone(),
                    severity: finding.severity.word(),
                    place: finding.place.clone(),
                    message: finding.message.clone(),
                })
            })
            .collect(),
    }
}

/// The last line: how many problems, how many solutions (as expected,
/// unexpected, skipped for a missing tool), how many broken packages.
fn summary(
    problems: usize,
    (matched, unexpected, skipped): (usize, usize, usize),
    broken: usize,
) -> String {
    let skipped_note = if skipped == 0 {
        String::new()
    } else {
        format!(", {skipped} skipped (tools missing)")
    };
    format!(
        "verify: {}, {}: {matched} as expected, {unexpected} unexpected{skipped_note}; {} with problems",
        human::count(problems, "problem"),
        human::count(matched + unexpected + skipped, "solution"),
        human::count(broken, "package")
    )
}

/// Settles the time limit of every package that takes it from its own
/// submissions (on `run`), and remembers it for `test` and `grade`.
fn settle(
    ctx: &mut Context,
    run: &mut Run<'_>,
    problems: &mut [ProblemSpec],
    mut store: Option<&mut Store>,
) -> BTreeMap<String, TimeSettlement> {
    let mut settlements = BTreeMap::new();
    for problem in problems {
        let mut means = ctx.means();
        if let Some(settlement) = plan::settle_time_limit(&mut means, run, problem) {
            let key = plan::settle_key(&mut means, problem);
            plan::remember(store.as_deref_mut(), key.as_deref(), problem, &settlement);
            settlements.insert(problem.id.clone(), settlement);
        }
    }
    settlements
}

/// The runs that settled a time limit were judged under a cap at least the
/// limit: their verdicts stand beside `results`, and with the runs of the
/// solutions that bound the limit from above the package's margin rule is
/// checked.
fn with_settling_runs(
    problems: &[ProblemSpec],
    settlements: &mut BTreeMap<String, TimeSettlement>,
    results: &mut Vec<TaskReport>,
) {
    for problem in problems {
        let Some(settlement) = settlements.get_mut(&problem.id) else {
            continue;
        };
        results.append(&mut settlement.runs);
        let upper: Vec<&TaskReport> = results
            .iter()
            .filter(|r| {
                r.owner
                    .solution_of(&problem.id)
                    .is_some_and(|s| plan::is_upper_bound(problem, &problem.solutions[s]))
            })
            .collect();
        plan::check_margin(problem, settlement, &upper);
    }
}

/// Every solution of every problem, held to its expectation, but those
/// whose runs settled a time limit already and those in a language this
/// machine lacks: the plan, and the solutions left out for a missing tool
/// as (owner, name, tool).
fn plan_solutions<'p>(
    ctx: &mut Context,
    problems: &'p [ProblemSpec],
    floors: &'p [Option<ProblemSpec>],
    settlements: &BTreeMap<String, TimeSettlement>,
    all_tests: bool,
) -> (RunPlan<'p>, Vec<(Owner, String, String)>) {
    let mut planner = ctx.planner();
    let mut unavailable = Vec::new();
    for (problem, floor) in problems.iter().zip(floors) {
        let settlement = settlements.get(&problem.id);
        if settlement.is_some_and(|s| !s.has_limit()) {
            continue;
        }
        for (index, solution) in problem.solutions.iter().enumerate() {
            let settled = settlement.is_some_and(|s| {
                s.runs
                    .iter()
                    .any(|r| r.owner.solution_of(&problem.id) == Some(index))
            });
            if settled {
                continue;
            }
            if let Some(tool) = planner.builder().unavailable_tool(&solution.program) {
                let owner = Owner::Solution {
                    problem: problem.id.clone(),
                    index,
                };
                unavailable.push((owner, solution.program.display_name(), tool));
                continue;
            }
            let runs_under = match floor {
                Some(floor) if plan::is_upper_bound(problem, solution) => floor,
                _ => problem,
            };
            planner.solution(runs_under, index).every_test =
                plan::needs_every_test(problem, solution);
        }
    }
    (planner.plan(!all_tests), unavailable)
}
