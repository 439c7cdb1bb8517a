//! `judge verify`, the problem setter's regression run: the package stage
//! (`checks`), then every solution through the pipeline, each held to its
//! expectation (`table`); and `judge generate` (`generate`).

mod checks;
mod generate;
mod table;

use std::collections::BTreeMap;
use std::io::Write;

use super::Context;
use super::findings::{Finding, Severity, Tally};
use super::packages::{self, TimeSettlement};
use super::practice::task_for;
use super::{settled, stored};
use crate::cli::{ReportArgs, StoreArgs};
use crate::errors::{Error, Result};
use crate::report::human;
use crate::report::sections::{Expectation, PackageFinding, PackageFindings, Sections};
use crate::runner::{RunPlan, TaskReport};
use crate::spec::{ProblemSpec, SolutionSpec};
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
    if let Some((expectation, origin)) = packages::expectation_of(problem, solution) {
        return Row {
            solution,
            report,
            expected: crate::formats::describe_expectation(expectation),
            expected_by: Some(origin),
            held: match packages::expectation_holds(problem, expectation, report) {
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
    writeln!(ctx.out, "{}", ctx.styles.dim(&ctx.sandbox.describe())).map_err(io)?;
    let (mut problems, broken) = ctx.load_and_build(ids)?;
    let (mut store_used, memo) = stored::open_for_verify(ctx, store).unzip();
    let mut run = ctx.run_with_progress("verify", reports);

    // Kattis packages learn their time limit from their own submissions.
    let mut settlements: BTreeMap<String, TimeSettlement> = BTreeMap::new();
    for problem in &mut problems {
        if let Some(settlement) = packages::settle_time_limit(ctx, &mut run, problem) {
            // `test` and `grade` take it from the store next time.
            let key = settled::settle_key(ctx, problem);
            settled::remember(store_used.as_mut(), key.as_deref(), problem, &settlement);
            settlements.insert(problem.id.clone(), settlement);
        }
    }
    let mut package_checks = checks::package_checks(ctx, &problems, memo.as_ref());
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
            Some(packages::with_time(p, floor))
        })
        .collect();
    let mut tasks = Vec::new();
    // Who each task is: (problem index, solution index), in plan order.
    let mut owners: Vec<(usize, usize)> = Vec::new();
    // Solutions in a language whose tools this machine lacks: (problem, name, tool).
    let mut unavailable: Vec<(usize, String, String)> = Vec::new();
    for (p, (problem, floor)) in problems.iter().zip(&floors).enumerate() {
        let settlement = settlements.get(&problem.id);
        if settlement.is_some_and(|s| s.error.is_some()) {
            continue;
        }
        for (index, solution) in problem.solutions.iter().enumerate() {
            let name = solution.program.display_name();
            if settlement.is_some_and(|s| s.runs.iter().any(|(ran, _)| *ran == index)) {
                continue;
            }
            if let Some(tool) = ctx.builder.unavailable_tool(&solution.program) {
                unavailable.push((p, name, tool));
                continue;
            }
            let runs_under = match floor {
                Some(floor) if packages::is_upper_bound(problem, solution) => floor,
                _ => problem,
            };
            let mut task = task_for(ctx, runs_under, &solution.program, name);
            task.every_test = packages::needs_every_test(problem, solution);
            tasks.push(task);
            owners.push((p, index));
        }
    }
    let plan = RunPlan {
        tasks,
        stop_at_first_failure: !all_tests,
        jobs: ctx.jobs,
    };
    let stored_as = owners
        .iter()
        .map(|&(p, s)| stored::Owner::of_program(ctx, &problems[p].solutions[s].program))
        .collect();
    let opened = store_used.as_mut().zip(memo.as_ref());
    let mut results = stored::verify_run(ctx, &mut run, &plan, opened, store, &problems, stored_as);
    drop(plan);
    // The runs that settled a time limit were judged under a cap at least
    // the limit: their verdicts stand.
    for (p, problem) in problems.iter().enumerate() {
        if let Some(settlement) = settlements.get_mut(&problem.id) {
            for (index, report) in std::mem::take(&mut settlement.runs) {
                results.push(report);
                owners.push((p, index));
            }
            let upper: Vec<&TaskReport> = results
                .iter()
                .zip(&owners)
                .filter(|&(_, &(of, s))| {
                    of == p && packages::is_upper_bound(problem, &problem.solutions[s])
                })
                .map(|(r, _)| r)
                .collect();
            packages::check_margin(problem, settlement, &upper);
        }
    }

    let mut ok = broken.is_empty();
    let mut expectations = Vec::new();
    let (mut matched, mut unexpected) = (0, 0);
    for (p, (problem, check)) in problems.iter().zip(&package_checks).enumerate() {
        ok &= !check.failed();
        // In the package's order, whichever run judged them.
        let mut ran: Vec<(usize, &TaskReport)> = results
            .iter()
            .zip(&owners)
            .filter(|&(_, &(of, _))| of == p)
            .map(|(report, &(_, s))| (s, report))
            .collect();
        ran.sort_by_key(|(s, _)| *s);
        let rows: Vec<Row<'_>> = ran
            .into_iter()
            .map(|(s, report)| row(problem, &problem.solutions[s], report))
            .collect();
        for row in &rows {
            if row.holds() {
                matched += 1;
            } else {
                unexpected += 1;
                ok = false;
            }
            expectations.push(Expectation::Held(row.json(problem)));
        }
        let findings = ProblemFindings {
            check,
            settlement: settlements.get(&problem.id),
            unavailable: unavailable
                .iter()
                .filter(|(of, ..)| *of == p)
                .map(|(_, name, tool)| (name.as_str(), tool.as_str()))
                .collect(),
        };
        table::print_problem(&mut ctx.out, &ctx.styles, problem, &findings, &rows).map_err(io)?;
        for (name, tool) in &findings.unavailable {
            expectations.push(Expectation::Skipped {
                problem: problem.id.clone(),
                solution: name.to_string(),
                skipped: format!("skipped: no {tool} on this machine"),
            });
        }
    }
    let broken_packages = broken.len()
        + problems
            .iter()
            .zip(&package_checks)
            .filter(|(_, check)| check.failed())
            .count();
    let skipped = if unavailable.is_empty() {
        String::new()
    } else {
        format!(", {} skipped (tools missing)", unavailable.len())
    };
    let summary = format!(
        "verify: {}, {}: {matched} as expected, {unexpected} unexpected{skipped}; {} with problems",
        human::count(problems.len() + broken.len(), "problem"),
        human::count(matched + unexpected + unavailable.len(), "solution"),
        human::count(broken_packages, "package")
    );
    let summary = if ok {
        ctx.styles.good(&summary)
    } else {
        ctx.styles.bad(&summary)
    };
    writeln!(ctx.out, "{summary}").map_err(io)?;
    let package_errors: Vec<String> = broken
        .iter()
        .map(ToString::to_string)
        .chain(package_checks.iter().flat_map(|c| c.lines(Severity::Error)))
        .collect();
    let sections = Sections {
        expectations: Some(expectations),
        package_errors: Some(package_errors),
        package_findings: Some(package_findings(&problems, &package_checks)),
        ..Sections::default()
    };
    ctx.finish(run, sections)?;
    Ok(ctx.exit_code(ok))
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
