//! `judge verify` (the problem setter's regression run) and `judge generate`
//! (writing generated inputs and the reference's answers).

use std::io::Write;
use std::path::Path;

use serde_json::json;

use std::collections::BTreeMap;

use super::Context;
use super::packages::{self, TimeSettlement};
use super::practice::task_for;
use super::stored;
use crate::checker::{TOOL_LIMITS, run_validator};
use crate::cli::{ReportArgs, StoreArgs};
use crate::compile::{Built, Executable};
use crate::errors::{Error, Result};
use crate::formats::Expectation;
use crate::report::human;
use crate::runner::{RunPlan, TaskReport};
use crate::sandbox::{Containment, RunRequest, Sandbox, Termination};
use crate::spec::{self, ProblemSpec, ProgramRef, SolutionSpec};
use crate::store::ToolMemo;
use crate::verdict::Verdict;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// Every program a package names.
fn programs(problem: &ProblemSpec) -> Vec<&ProgramRef> {
    let mut all: Vec<&ProgramRef> = problem.solutions.iter().map(|s| &s.program).collect();
    all.extend(problem.judging_programs().map(|tool| &tool.program));
    all.extend(problem.validator.iter().map(|v| &v.program));
    all.extend(problem.answers.iter().map(|a| &a.program));
    all.extend(problem.generator.iter().map(|(g, _)| g));
    all
}

fn built_or_message(built: Built, what: &str) -> std::result::Result<Executable, String> {
    match built {
        Built::Ready(exe) => Ok(exe),
        Built::CompileError(m) | Built::JudgeError(m) => Err(format!(
            "the {what} did not build: {}",
            m.lines().next().unwrap_or_default()
        )),
    }
}

/// Runs `exe` with TOOL_LIMITS in a fresh folder; its stdout, or why not.
fn run_tool(
    sandbox: &Sandbox,
    scratch: &Path,
    exe: &Executable,
    stdin: Option<&Path>,
) -> std::result::Result<Vec<u8>, String> {
    let workdir = tempfile::tempdir_in(scratch).map_err(|e| e.to_string())?;
    let outcome = sandbox
        .run(&RunRequest {
            program: exe.program.clone(),
            args: exe.args.clone(),
            stdin: stdin.map(Path::to_path_buf),
            workdir: workdir.path().to_path_buf(),
            limits: TOOL_LIMITS,
            env: Vec::new(),
            stack: None,
            read_only: Vec::new(),
            containment: Containment::Tool,
        })
        .map_err(|e| e.to_string())?;
    match outcome.termination {
        Termination::Exited(0) => Ok(outcome.stdout),
        other => Err(format!(
            "{}: {}{}",
            exe.program.display(),
            crate::verdict::describe_termination(other),
            String::from_utf8_lossy(&outcome.stderr)
                .lines()
                .next()
                .map(|l| format!(": {l}"))
                .unwrap_or_default()
        )),
    }
}

/// A package's generator and validator, built (or why not).
struct PackageTools {
    generator: Option<std::result::Result<Executable, String>>,
    validator: Option<std::result::Result<Executable, String>>,
}

/// Builds the package's own programs; sequential, as building may compile.
fn package_tools(ctx: &mut Context, problem: &ProblemSpec) -> PackageTools {
    PackageTools {
        generator: problem
            .generator
            .as_ref()
            .map(|(program, _)| built_or_message(ctx.builder.build(program), "generator")),
        validator: problem
            .validator
            .as_ref()
            .map(|v| built_or_message(ctx.builder.build(&v.program), "validator")),
    }
}

/// `run`'s outcome, or the one `memo` remembers for `key` (see `ToolMemo`).
fn remembered<E>(
    memo: Option<&ToolMemo>,
    key: impl FnOnce(&ToolMemo) -> Option<String>,
    run: impl FnOnce() -> std::result::Result<String, E>,
) -> std::result::Result<String, E> {
    match memo {
        Some(memo) => memo.outcome(key(memo), run),
        None => run(),
    }
}

fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// The package's own checks: generators reproduce the committed inputs and
/// the validator accepts every input. Returns (what passed, what failed).
fn check_package(
    sandbox: &Sandbox,
    scratch: &Path,
    problem: &ProblemSpec,
    tools: &PackageTools,
    memo: Option<&ToolMemo>,
) -> (Vec<String>, Vec<String>) {
    let mut passed = Vec::new();
    let mut failures = Vec::new();
    if problem.tests.is_empty() {
        failures.push("no tests under data/".to_string());
    }
    if let (Some((_, tests)), Some(built)) = (&problem.generator, &tools.generator) {
        match built {
            Err(message) => failures.push(message.clone()),
            Ok(exe) => {
                let mut drifted = 0;
                for test in tests {
                    let path = problem.dir.join("data").join(format!("{}.in", test.name));
                    let made = remembered(
                        memo,
                        |memo| memo.key(exe, &test.args, None),
                        || {
                            run_tool(sandbox, scratch, &exe.with_args(&test.args), None)
                                .map(|bytes| hash(&bytes))
                        },
                    );
                    match (made, std::fs::read(&path).map(|bytes| hash(&bytes))) {
                        (Err(message), _) => {
                            failures.push(format!("generator for {}: {message}", test.name))
                        }
                        (Ok(_), Err(_)) => failures.push(format!(
                            "{} is not generated yet: run `judge generate {}`",
                            path.display(),
                            problem.id
                        )),
                        (Ok(made), Ok(committed)) if made != committed => {
                            drifted += 1;
                            failures.push(format!(
                                "{}: the generator's output differs from the committed file",
                                path.display()
                            ));
                        }
                        (Ok(_), Ok(_)) => {}
                    }
                }
                if drifted == 0 && !tests.is_empty() {
                    passed.push(format!(
                        "{} reproduced",
                        human::count(tests.len(), "generated input")
                    ));
                }
            }
        }
    }
    if let (Some(validator), Some(built)) = (&problem.validator, &tools.validator) {
        match built {
            Err(message) => failures.push(message.clone()),
            Ok(exe) => {
                let mut rejected = 0;
                let memo_args: Vec<String> = validator
                    .args
                    .iter()
                    .cloned()
                    .chain([format!("protocol={:?}", validator.protocol)])
                    .collect();
                for test in &problem.tests {
                    // Only an acceptance is remembered: a rejection is shown and checked again.
                    let validated = remembered(
                        memo,
                        // The protocol decides what an exit means: part of the key.
                        |memo| memo.key(exe, &memo_args, Some(&test.input)),
                        || {
                            let Ok(workdir) = tempfile::tempdir_in(scratch) else {
                                return Err(Err(
                                    "failed to create a folder for the validator".to_string()
                                ));
                            };
                            match run_validator(
                                sandbox,
                                exe,
                                validator,
                                &test.input,
                                workdir.path(),
                            ) {
                                Ok(Ok(())) => Ok("accepted".to_string()),
                                other => Err(other),
                            }
                        },
                    );
                    match validated.map_or_else(|other| other, |_| Ok(Ok(()))) {
                        Ok(Ok(())) => {}
                        Ok(Err(why)) => {
                            rejected += 1;
                            failures.push(format!(
                                "validator rejects {}: {}",
                                test.name,
                                why.lines().next().unwrap_or_default()
                            ));
                        }
                        Err(message) => failures.push(message),
                    }
                }
                if rejected == 0 {
                    passed.push(format!(
                        "{} valid",
                        human::count(problem.tests.len(), "input")
                    ));
                }
            }
        }
    }
    (passed, failures)
}

fn expectation_holds(solution: &SolutionSpec, report: &TaskReport) -> bool {
    solution.expect.contains(&report.verdict)
        && match (solution.score, report.score) {
            (Some(want), Some(got)) => (want - got).abs() <= 1e-6,
            (Some(_), None) => false,
            (None, _) => true,
        }
}

pub(super) fn verify(
    ctx: &mut Context,
    ids: &[String],
    all_tests: bool,
    reports: &ReportArgs,
    store: &StoreArgs,
) -> Result<u8> {
    let (mut problems, broken) = ctx.load_problems(ids)?;
    writeln!(ctx.out, "{}", ctx.styles.dim(&ctx.sandbox.describe())).map_err(io)?;
    let mut ok = broken.is_empty();
    for error in &broken {
        writeln!(ctx.out, "{} {error}", ctx.styles.bad("broken package:")).map_err(io)?;
    }
    ctx.builder
        .build_workspace(problems.iter().flat_map(programs))?;
    let (mut store_used, memo) = stored::open_for_verify(ctx, store).unzip();
    // Kattis packages learn their time limit from their own submissions.
    let mut settlements: BTreeMap<String, TimeSettlement> = BTreeMap::new();
    for problem in &mut problems {
        if let Some(settlement) = packages::settle_time_limit(ctx, problem) {
            settlements.insert(problem.id.clone(), settlement);
        }
    }
    let input_checks: Vec<_> = problems
        .iter()
        .map(|problem| packages::check_inputs(ctx, problem))
        .collect();
    // Runs that must time out get the package's safety margin on top.
    let floors: Vec<Option<ProblemSpec>> = problems
        .iter()
        .map(|p| {
            let floor = settlements.get(&p.id).and_then(|s| s.timeout_floor)?;
            Some(packages::with_time(p, floor))
        })
        .collect();

    // The packages' own checks are independent: run them side by side.
    let tools: Vec<PackageTools> = problems.iter().map(|p| package_tools(ctx, p)).collect();
    let pairs: Vec<(&ProblemSpec, &PackageTools)> = problems.iter().zip(&tools).collect();
    let package_failures = crate::runner::pool::map(&pairs, ctx.jobs, |(problem, tools)| {
        check_package(
            &ctx.sandbox,
            ctx.scratch.path(),
            problem,
            tools,
            memo.as_ref(),
        )
    });
    let mut tasks = Vec::new();
    let mut owners = Vec::new();
    // Solutions in a language whose tools this machine lacks: (problem, name, tool).
    let mut unavailable: Vec<(&str, String, String)> = Vec::new();
    for (problem, floor) in problems.iter().zip(&floors) {
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
                unavailable.push((&problem.id, name, tool));
                continue;
            }
            let runs_under = match floor {
                Some(floor) if packages::is_upper_bound(problem, solution) => floor,
                _ => problem,
            };
            let mut task = task_for(ctx, runs_under, &solution.program, name);
            task.every_test = packages::expectation_of(problem, solution)
                .is_some_and(|(expectation, _)| matches!(expectation, Expectation::Rules(_)));
            tasks.push(task);
            owners.push(solution);
        }
    }
    let plan = RunPlan {
        tasks,
        stop_at_first_failure: !all_tests,
        jobs: ctx.jobs,
    };
    let stored_as = owners
        .iter()
        .map(|s| stored::Owner::of_program(ctx, &s.program))
        .collect();
    let opened = store_used.as_mut().zip(memo.as_ref());
    let mut results = stored::verify_run(ctx, &plan, opened, store, &problems, stored_as);
    drop(plan);
    // The runs that settled a time limit were judged under a cap at least
    // the limit: their verdicts stand.
    for problem in &problems {
        if let Some(settlement) = settlements.get_mut(&problem.id) {
            for (index, report) in std::mem::take(&mut settlement.runs) {
                results.push(report);
                owners.push(&problem.solutions[index]);
            }
            let upper: Vec<&TaskReport> = results
                .iter()
                .zip(&owners)
                .filter(|(r, s)| r.problem == problem.id && packages::is_upper_bound(problem, s))
                .map(|(r, _)| r)
                .collect();
            packages::check_margin(problem, settlement, &upper);
        }
    }

    let width = owners
        .iter()
        .map(|s| s.program.display_name().len())
        .max()
        .unwrap_or(8)
        .max(8);
    let mut expectations = Vec::new();
    let (mut matched, mut unexpected) = (0, 0);
    let mut package_failures = package_failures;
    for ((problem, (passed, failures)), (inputs_passed, inputs_failed, skipped)) in problems
        .iter()
        .zip(package_failures.iter_mut())
        .zip(input_checks)
    {
        passed.extend(inputs_passed);
        failures.extend(inputs_failed);
        if let Some(settlement) = settlements.get(&problem.id) {
            failures.extend(settlement.error.clone());
        }
        let (passed, failures) = (&*passed, &*failures);
        writeln!(
            ctx.out,
            "{} — {} ({} tests; {})",
            ctx.styles.bold(&problem.id),
            problem.title,
            problem.tests.len(),
            human::limits(problem)
        )
        .map_err(io)?;
        if let Some(settlement) = settlements.get(&problem.id) {
            if let Some(explanation) = &settlement.explanation {
                writeln!(ctx.out, "  time limit {explanation}").map_err(io)?;
            }
            for warning in &settlement.warnings {
                writeln!(ctx.out, "  {} {warning}", ctx.styles.dim("warning:")).map_err(io)?;
            }
        }
        if !passed.is_empty() {
            writeln!(ctx.out, "  {}", ctx.styles.good(&passed.join(", "))).map_err(io)?;
        }
        for note in &skipped {
            writeln!(ctx.out, "  {}", ctx.styles.dim(note)).map_err(io)?;
        }
        for failure in failures {
            ok = false;
            writeln!(ctx.out, "  {} {failure}", ctx.styles.bad("package:")).map_err(io)?;
        }
        writeln!(
            ctx.out,
            "  {:<width$}  {:<9} {:<4} {:>9} {:>10} {:>7}",
            "solution", "expected", "got", "max time", "max mem", "tests"
        )
        .map_err(io)?;
        for (report, solution) in results
            .iter()
            .zip(&owners)
            .filter(|(r, _)| r.problem == problem.id)
        {
            let package_expectation = packages::expectation_of(problem, solution);
            let broken_rules = match package_expectation {
                Some((expectation, _)) => packages::expectation_holds(problem, expectation, report)
                    .err()
                    .unwrap_or_default(),
                None if expectation_holds(solution, report) => Vec::new(),
                None => vec![String::new()],
            };
            let holds = broken_rules.is_empty();
            if holds {
                matched += 1
            } else {
                unexpected += 1
            }
            ok &= holds;
            let expected: Vec<&str> = solution.expect.iter().map(|v| v.short()).collect();
            let mut expected = expected.join("|");
            if let Some((expectation, _)) = package_expectation {
                expected = crate::formats::describe_expectation(expectation);
            }
            if let Some(score) = solution.score {
                expected.push_str(&format!(" {}", human::trim_float(score)));
            }
            let mut got = ctx.styles.verdict(report.verdict);
            if let Some(score) = report.score {
                got.push_str(&format!(" {}", human::trim_float(score)));
            }
            let first_failure = report
                .tests
                .iter()
                .find(|t| t.verdict != Verdict::Accepted)
                .map(|t| format!(" on {}", t.test))
                .unwrap_or_default();
            writeln!(
                ctx.out,
                "  {:<width$}  {:<9} {} {:>9} {:>10} {:>3}/{:<3}  {}{}",
                crate::escape::visible(&report.submission),
                expected,
                got,
                human::ms(std::time::Duration::from_millis(report.max_cpu_ms() as u64)),
                human::size(report.max_memory_kib()),
                report.tests.len(),
                report.tests.len() + report.skipped,
                if holds {
                    ctx.styles.good("ok")
                } else {
                    ctx.styles.bad("UNEXPECTED")
                },
                first_failure
            )
            .map_err(io)?;
            if !holds {
                for rule in broken_rules.iter().filter(|r| !r.is_empty()) {
                    writeln!(ctx.out, "      {}", crate::escape::visible(rule)).map_err(io)?;
                }
                if let Some(message) = &report.message {
                    for line in message.lines().take(10) {
                        writeln!(ctx.out, "      {line}").map_err(io)?;
                    }
                }
                if let Some(test) = report.tests.iter().find(|t| t.verdict != Verdict::Accepted) {
                    human::test_line(&mut ctx.out, &ctx.styles, test, test.test.len())
                        .map_err(io)?;
                    human::failure_details(&mut ctx.out, &ctx.styles, test).map_err(io)?;
                }
            }
            expectations.push(json!({
                "problem": problem.id,
                "solution": report.submission,
                "expected": match package_expectation {
                    Some((expectation, _)) => vec![crate::formats::describe_expectation(expectation)],
                    None => solution.expect.iter().map(|v| v.short().to_string()).collect(),
                },
                "expected_by": package_expectation.map(|(_, origin)| origin),
                "broken_rules": broken_rules.iter().filter(|r| !r.is_empty()).collect::<Vec<_>>(),
                "expected_score": solution.score,
                "got": report.verdict.short(),
                "score": report.score,
                "ok": holds,
            }));
        }
        for (_, name, tool) in unavailable.iter().filter(|(id, ..)| *id == problem.id) {
            let note = format!("skipped: no {tool} on this machine");
            writeln!(
                ctx.out,
                "  {:<width$}  {}",
                crate::escape::visible(name),
                ctx.styles.dim(&note)
            )
            .map_err(io)?;
            expectations.push(json!({
                "problem": problem.id,
                "solution": name,
                "skipped": note,
            }));
        }
    }
    let broken_count = broken.len()
        + package_failures
            .iter()
            .filter(|(_, f)| !f.is_empty())
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
        human::count(broken_count, "package")
    );
    writeln!(
        ctx.out,
        "{}",
        if ok {
            ctx.styles.good(&summary)
        } else {
            ctx.styles.bad(&summary)
        }
    )
    .map_err(io)?;
    let extra = vec![
        ("expectations".to_string(), json!(expectations)),
        (
            "package_errors".to_string(),
            json!(
                broken
                    .iter()
                    .map(ToString::to_string)
                    .chain(package_failures.iter().flat_map(|(_, f)| f.iter().cloned()))
                    .collect::<Vec<_>>()
            ),
        ),
    ];
    ctx.write_reports(reports, "verify", &results, extra)?;
    Ok(ctx.exit_code(ok))
}

/// A package program that failed while writing tests: the package is
/// broken (exit 3), not the command line.
fn package_error(id: &str) -> impl Fn(String) -> Error + '_ {
    move |message| crate::errors::SpecError::Package(format!("{id}: {message}")).into()
}

pub(super) fn generate(ctx: &mut Context, ids: &[String]) -> Result<u8> {
    let mut ok = true;
    for id in ids {
        // Answers may be missing still: writing them is what this is for.
        let dir = ctx.problems_dir().join(id);
        if !dir.join("problem.toml").is_file() {
            return Err(crate::errors::SpecError::UnknownProblem {
                id: id.clone(),
                dir: ctx.problems_dir(),
            }
            .into());
        }
        let problem = spec::load_problem_for_answers(&dir)?;
        ctx.builder.build_workspace(programs(&problem))?;
        let mut written = 0;
        if let Some((generator, tests)) = &problem.generator {
            let exe = built_or_message(ctx.builder.build(generator), "generator")
                .map_err(package_error(id))?;
            for test in tests {
                let bytes = run_tool(
                    &ctx.sandbox,
                    ctx.scratch.path(),
                    &exe.with_args(&test.args),
                    None,
                )
                .map_err(package_error(id))?;
                let path = problem.dir.join("data").join(format!("{}.in", test.name));
                write_file(&path, &bytes)?;
                written += 1;
            }
        }
        // The answers come from the package's answers program, else from the
        // reference: the first solution that must be AC.
        let problem = spec::load_problem_for_answers(&problem.dir)?;
        let (author, exe) = match &problem.answers {
            Some(answers) => (
                answers.program.display_name(),
                built_or_message(ctx.builder.build(&answers.program), "answers program")
                    .map_err(package_error(id))?
                    .with_args(&answers.args),
            ),
            None => {
                let Some(reference) = problem
                    .solutions
                    .iter()
                    .find(|s| s.expect == [Verdict::Accepted])
                else {
                    return Err(package_error(id)(
                        "no [[solution]] with expect = \"AC\" and no [answers] to write answers with"
                            .into(),
                    ));
                };
                (
                    reference.program.display_name(),
                    built_or_message(ctx.builder.build(&reference.program), "reference")
                        .map_err(package_error(id))?,
                )
            }
        };
        let mut answers = 0;
        for test in problem.tests.iter().filter(|t| !t.is_sample()) {
            match run_tool(&ctx.sandbox, ctx.scratch.path(), &exe, Some(&test.input)) {
                Ok(bytes) => {
                    write_file(&test.answer, &bytes)?;
                    answers += 1;
                }
                Err(message) => {
                    ok = false;
                    writeln!(
                        ctx.out,
                        "{} {}: {message}",
                        ctx.styles.bad(&format!("{author} failed on")),
                        test.name
                    )
                    .map_err(io)?;
                }
            }
        }
        writeln!(
            ctx.out,
            "{id}: {written} inputs generated, {answers} answers written by {author}"
        )
        .map_err(io)?;
    }
    Ok(ctx.exit_code(ok))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| Error::Report {
            what: parent.display().to_string(),
            source,
        })?;
    }
    std::fs::write(path, bytes).map_err(|source| Error::Report {
        what: path.display().to_string(),
        source,
    })
}
