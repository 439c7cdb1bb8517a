//! `judge stress` (a setter or learner looks for a small failing input)
//! and the counterexample `judge test` may show after a wrong answer.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Context;
use super::stress_package::PackageStress;
use crate::cli::StressArgs;
use crate::compile::{Executable, NotBuilt, NotProgram};
use crate::errors::{Error, Result};
use crate::exit_codes;
use crate::report::human;
use crate::spec::{ProblemSpec, ProgramRef, check_template};
use crate::stress::{
    Bench, Ended, Failure, Programs, Progress, Settings, StressError, Summary, search,
};
use crate::verdict::Verdict;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// Lines of an input or output shown; the rest is counted.
const SHOWN_LINES: usize = 24;
/// Characters of a line shown.
const SHOWN_WIDTH: usize = 160;

pub(super) fn stress(ctx: &mut Context, args: &StressArgs) -> Result<u8> {
    let mut problem = ctx.load_one(&args.id)?;
    let package = super::stress_package::use_package_generator(
        ctx,
        &mut problem,
        args.generator_args.as_deref(),
    )?;
    let templates = templates(&problem, package.as_ref(), args)?;
    let (candidate, against) = programs(&problem, package.as_ref(), args)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let settings = Settings {
        templates,
        seed,
        cases: args.cases,
        time: args.time,
        shrink_time: args.shrink_time,
    };
    let session = match prepare(ctx, &problem, &candidate, against.as_ref())? {
        Ok(session) => session,
        Err(unprepared) => {
            writeln!(ctx.out, "{unprepared}").map_err(io)?;
            return Ok(unprepared.exit_code());
        }
    };
    writeln!(
        ctx.out,
        "{} — {}: {} against {}, inputs from `{}`, seed {seed}",
        ctx.styles.bold(&problem.id),
        problem.title,
        candidate.display_name(),
        session.reference_name,
        settings.templates.join("`, `"),
    )
    .map_err(io)?;
    let summary = run_search(ctx, &problem, &session.programs, &settings)?;
    let summary = match summary {
        Ok(summary) => summary,
        Err(error) => {
            writeln!(ctx.out, "{} {error}", ctx.styles.bad("judge error:")).map_err(io)?;
            return Ok(exit_codes::INTERNAL);
        }
    };
    report_summary(ctx, &problem, &session, &summary, seed)?;
    if let (Some(out), Some(failure)) = (&args.out, &summary.failure) {
        let base = failure_folder(ctx, &problem, package.is_some(), out.as_deref(), failure)?;
        save(ctx, &base, failure)?;
    }
    Ok(ctx.exit_code(summary.failure.is_none()))
}

/// The input templates: the package generator's (`--gen` naming it), or
/// `--gen`'s, or the problem's `[stress]` ones; the problem must have a
/// generator and at least one template.
fn templates(
    problem: &ProblemSpec,
    package: Option<&PackageStress>,
    args: &StressArgs,
) -> Result<Vec<String>> {
    let templates = match (package, &args.generator_args) {
        (Some(package), _) => {
            check_template(&package.template).map_err(|e| Error::Usage(format!("--gen: {e}")))?;
            vec![package.template.clone()]
        }
        (None, Some(template)) => {
            check_template(template).map_err(|e| Error::Usage(format!("--gen: {e}")))?;
            vec![template.clone()]
        }
        (None, None) => problem.stress.args.clone(),
    };
    if problem.generator.is_none() {
        return Err(Error::Usage(format!(
            "{} has no [generator]: stress needs one to make inputs",
            problem.id
        )));
    }
    if templates.is_empty() {
        return Err(Error::Usage(format!(
            "{} has no `args` under [stress] in problem.toml; pass --gen \"ARGS with {{seed}}\"",
            problem.id
        )));
    }
    Ok(templates)
}

/// The program stressed, and the one it is held against (`--against`, or
/// the package generator's reference), each a file or a solution's name.
fn programs(
    problem: &ProblemSpec,
    package: Option<&PackageStress>,
    args: &StressArgs,
) -> Result<(ProgramRef, Option<ProgramRef>)> {
    let candidate = program_named(problem, &args.file.to_string_lossy()).ok_or_else(|| {
        Error::Usage(format!(
            "{}: no such file, nor a solution of {}",
            args.file.display(),
            problem.id
        ))
    })?;
    let against_name = args
        .against
        .clone()
        .or_else(|| package.and_then(|p| p.reference.clone()));
    let against = match &against_name {
        Some(name) => Some(program_named(problem, name).ok_or_else(|| {
            Error::Usage(format!(
                "--against {name}: no such file, nor a solution of {}",
                problem.id
            ))
        })?),
        None => None,
    };
    Ok((candidate, against))
}

/// Where `--out` saves a failure: the folder given, else a test of the
/// package (for a package generator, an entry added to its
/// generators.yaml).
fn failure_folder(
    ctx: &mut Context,
    problem: &ProblemSpec,
    from_package: bool,
    out: Option<&Path>,
    failure: &Failure,
) -> Result<PathBuf> {
    Ok(match out {
        // The package's tests come from generators.yaml: an entry there.
        None if from_package => {
            let name = super::stress_package::add_case(
                &problem.dir,
                failure.seed,
                failure.shrunk.input.as_bytes(),
                &failure.answer,
            )?;
            writeln!(ctx.out, "added to generators/generators.yaml as {name}").map_err(io)?;
            problem.dir.join("data").join(name)
        }
        None => package_test(&problem.dir, failure.seed),
        Some(dir) => dir.join(format!("stress-{}-{}", problem.id, failure.seed)),
    })
}

/// The search `judge test` runs after a wrong answer: short, so the
/// learner's loop stays quick, and with a fixed seed, so the same program
/// finds the same input every time.
const OFFER_SEED: u64 = 1;
const OFFER_CASES: u64 = 300;
const OFFER_TIME: Duration = Duration::from_secs(20);

/// After a wrong answer in `judge test`: where the problem allows it
/// (`[stress] offer-counterexample`), a small input the program fails on.
pub(super) fn offer_counterexample(
    ctx: &mut Context,
    problem: &ProblemSpec,
    program: &ProgramRef,
) -> Result<()> {
    if !problem.stress.offer_counterexample
        || problem.stress.args.is_empty()
        || problem.generator.is_none()
        || ctx.boxes.is_cancelled()
    {
        return Ok(());
    }
    writeln!(
        ctx.out,
        "{}",
        ctx.styles.dim(
            "looking for a small input your program fails on (this problem allows it; --no-counterexample skips this)"
        )
    )
    .map_err(io)?;
    let session = match prepare(ctx, problem, program, None)? {
        Ok(session) => session,
        Err(unprepared) => {
            writeln!(ctx.out, "{unprepared}").map_err(io)?;
            return Ok(());
        }
    };
    let settings = Settings {
        templates: problem.stress.args.clone(),
        seed: OFFER_SEED,
        cases: OFFER_CASES,
        time: OFFER_TIME,
        shrink_time: OFFER_TIME,
    };
    match run_search(ctx, problem, &session.programs, &settings)? {
        Ok(summary) => report_summary(ctx, problem, &session, &summary, OFFER_SEED),
        Err(error) => {
            writeln!(ctx.out, "{} {error}", ctx.styles.bad("judge error:")).map_err(io)?;
            Ok(())
        }
    }
}

/// What a stress session runs, built, with the names to show.
pub(super) struct Session {
    pub(super) programs: Programs,
    pub(super) reference_name: String,
    pub(super) candidate_name: String,
}

/// A source file, or one of the package's solutions by name.
fn program_named(problem: &ProblemSpec, name: &str) -> Option<ProgramRef> {
    let path = Path::new(name);
    if path.is_file() {
        return Some(ProgramRef::Submitted(
            std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
        ));
    }
    problem
        .solutions
        .iter()
        .find(|s| s.program.display_name() == name)
        .map(|s| s.program.clone())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
}

/// Why a stress session has no programs: the candidate's compile error is
/// the candidate's failure, anything else a judge error.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unprepared {
    #[error("{program}: CE\n{error}")]
    CandidateCompileError {
        program: String,
        error: crate::compile::CompileError,
    },
    #[error("judge error: the {what} did not build: {why}")]
    NotBuilt {
        what: &'static str,
        why: crate::compile::NotBuilt,
    },
    #[error("judge error: the {what} did not build: an answer set, not a program")]
    AnswerSet { what: &'static str },
}

impl Unprepared {
    fn exit_code(&self) -> u8 {
        match self {
            Unprepared::CandidateCompileError { .. } => exit_codes::FAILED,
            Unprepared::NotBuilt { .. } | Unprepared::AnswerSet { .. } => exit_codes::INTERNAL,
        }
    }
}

/// Builds the session's programs; `Ok(Err)` when one does not build.
pub(super) fn prepare(
    ctx: &mut Context,
    problem: &ProblemSpec,
    candidate: &ProgramRef,
    against: Option<&ProgramRef>,
) -> Result<std::result::Result<Session, Unprepared>> {
    let reference = match against {
        Some(reference) => reference.clone(),
        None => match problem
            .solutions
            .iter()
            .find(|s| s.expect == [Verdict::Accepted])
        {
            Some(solution) => solution.program.clone(),
            None => {
                return Err(Error::Usage(format!(
                    "{}: no [[solution]] with expect = \"AC\"; pass --against",
                    problem.id
                )));
            }
        },
    };
    let Some((generator, _)) = &problem.generator else {
        return Err(Error::Usage(format!("{} has no [generator]", problem.id)));
    };
    let judging = problem.judging_program();
    let mut wanted = vec![generator, &reference, candidate];
    wanted.extend(problem.validator.iter().map(|v| &v.program));
    wanted.extend(problem.answers.iter().map(|a| &a.program));
    wanted.extend(problem.judging_programs().map(|tool| &tool.program));
    ctx.builder.build_workspace(&wanted)?;

    let mut build = |program: &ProgramRef, what: &'static str| match ctx
        .builder
        .build(program)
        .into_program()
    {
        Ok(exe) => Ok(exe),
        Err(NotProgram::NotBuilt(NotBuilt::Compile(error))) if what == "program under test" => {
            Err(Unprepared::CandidateCompileError {
                program: program.display_name(),
                error,
            })
        }
        Err(NotProgram::NotBuilt(why)) => Err(Unprepared::NotBuilt { what, why }),
        Err(NotProgram::AnswerSet(_)) => Err(Unprepared::AnswerSet { what }),
    };
    let built = (|| -> std::result::Result<Programs, Unprepared> {
        let with_args = |exe: Executable, args: &[String]| exe.with_args(args);
        Ok(Programs {
            generator: build(generator, "generator")?,
            validator: match &problem.validator {
                Some(v) => Some((build(&v.program, "validator")?, v.clone())),
                None => None,
            },
            answers: match &problem.answers {
                Some(a) => Some(with_args(build(&a.program, "answers program")?, &a.args)),
                None => None,
            },
            judging: match judging {
                Some(tool) => Some(build(&tool.program, "checker or interactor")?),
                None => None,
            },
            output_checker: match problem.output_checker() {
                Some(tool) => Some(build(&tool.program, "checker")?),
                None => None,
            },
            reference: build(&reference, "reference")?,
            candidate: build(candidate, "program under test")?,
        })
    })();
    Ok(built.map(|programs| Session {
        programs,
        reference_name: reference.display_name(),
        candidate_name: candidate.display_name(),
    }))
}

/// Runs the search with a progress bar on stderr (drawn on a terminal).
/// `Ok(Err)` is a judge error from a package program.
pub(super) fn run_search(
    ctx: &Context,
    problem: &ProblemSpec,
    programs: &Programs,
    settings: &Settings,
) -> Result<std::result::Result<Summary, StressError>> {
    let folder = tempfile::Builder::new()
        .prefix("stress-")
        .tempdir_in(ctx.scratch.path())
        .map_err(|source| Error::Report {
            what: "a stress folder".into(),
            source,
        })?;
    let bench = Bench {
        sandbox: ctx.builder.worker(),
        problem,
        programs,
        folder: folder.path().to_path_buf(),
    };
    let bar = indicatif::ProgressBar::new(settings.cases);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} inputs {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let summary = search(&bench, settings, &mut |progress| match progress {
        Progress::Case { index } => bar.set_position(index + 1),
        Progress::Found { index, verdict } => {
            bar.set_message(format!("{verdict} on input {}; shrinking", index + 1))
        }
        Progress::Smaller { size, tried } => bar.set_message(format!(
            "shrinking: {} tokens, {} tried",
            size.tokens, tried
        )),
    });
    bar.finish_and_clear();
    Ok(summary)
}

/// Prints how the search ended and the smallest failing input.
pub(super) fn report_summary(
    ctx: &mut Context,
    problem: &ProblemSpec,
    session: &Session,
    summary: &Summary,
    seed: u64,
) -> Result<()> {
    if let Some(why) = &summary.first_not_test {
        writeln!(
            ctx.out,
            "{} {} generated inputs were no tests; the first, {why}",
            ctx.styles.bad("package:"),
            summary.not_tests
        )
        .map_err(io)?;
    }
    let Some(failure) = &summary.failure else {
        let why = match summary.ended {
            Ended::Interrupted => "interrupted",
            Ended::TimeUp => "time is up",
            _ => "all inputs done",
        };
        writeln!(
            ctx.out,
            "{} on {} ({why}): no failing input found",
            ctx.styles.good("AC"),
            human::count(summary.judged as usize, "input")
        )
        .map_err(io)?;
        return Ok(());
    };
    let shrunk = &failure.shrunk;
    writeln!(
        ctx.out,
        "{} on input {} of {} (generator `{}`); shrunk in {} ({} tried){}",
        ctx.styles.verdict(failure.verdict).trim_end(),
        failure.index + 1,
        summary.judged,
        failure.args.join(" "),
        human::count(shrunk.steps, "step"),
        shrunk.tried,
        if shrunk.minimal {
            String::new()
        } else {
            ctx.styles.bad(" — stopped early: the best so far")
        }
    )
    .map_err(io)?;
    let size = crate::stress::Case::parse(&shrunk.input);
    let generated = crate::stress::Case::parse(&failure.original);
    writeln!(
        ctx.out,
        "smallest failing input ({}, {}; the generated one had {}):",
        human::count(size.tokens(), "token"),
        human::count(shrunk.input.lines().count(), "line"),
        human::count(generated.tokens(), "token"),
    )
    .map_err(io)?;
    show_text(ctx, shrunk.input.as_bytes())?;
    if !problem.kind.is_interactive() {
        writeln!(ctx.out, "expected ({}):", session.reference_name).map_err(io)?;
        show_text(ctx, &failure.answer)?;
        if !ctx.boxes.is_cancelled() {
            let output = Bench {
                sandbox: ctx.builder.worker(),
                problem,
                programs: &session.programs,
                folder: ctx.scratch.path().to_path_buf(),
            }
            .output_of_candidate(shrunk.input.as_bytes());
            if let Ok(output) = output {
                writeln!(ctx.out, "got ({}):", session.candidate_name).map_err(io)?;
                show_text(ctx, &output)?;
            }
        }
    }
    let width = failure.report.test.len();
    human::test_line(&mut ctx.out, &ctx.styles, &failure.report, width).map_err(io)?;
    human::failure_details(&mut ctx.out, &ctx.styles, &failure.report).map_err(io)?;
    writeln!(
        ctx.out,
        "seed {seed} (case seed {}): `judge stress {} {} --seed {seed}` finds it again",
        failure.seed, problem.id, session.candidate_name
    )
    .map_err(io)?;
    Ok(())
}

/// Up to `SHOWN_LINES` lines, indented, control characters made visible.
fn show_text(ctx: &mut Context, bytes: &[u8]) -> Result<()> {
    let text = crate::escape::visible_bytes(bytes);
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(SHOWN_LINES) {
        let shown: String = line.chars().take(SHOWN_WIDTH).collect();
        let more = if line.chars().count() > SHOWN_WIDTH {
            "…"
        } else {
            ""
        };
        writeln!(ctx.out, "    {shown}{more}").map_err(io)?;
    }
    if lines.len() > SHOWN_LINES {
        writeln!(ctx.out, "    … {} more lines", lines.len() - SHOWN_LINES).map_err(io)?;
    }
    if lines.is_empty() {
        writeln!(ctx.out, "    {}", ctx.styles.dim("(nothing)")).map_err(io)?;
    }
    Ok(())
}

/// Where `--out` with no folder puts a counterexample in the package: a
/// test `stress-<seed>` beside the secret tests, or in a new group
/// `secret/stress/` when the secret tests are in groups (a folder holds
/// tests or groups, not both).
fn package_test(problem_dir: &Path, seed: u64) -> PathBuf {
    let secret = problem_dir.join("data/secret");
    let grouped = std::fs::read_dir(&secret)
        .map(|entries| entries.flatten().any(|e| e.path().is_dir()))
        .unwrap_or(false);
    let folder = match grouped {
        true => secret.join("stress"),
        false => secret,
    };
    folder.join(format!("stress-{seed}"))
}

/// Writes the failing input and its answer as `BASE.in` and `BASE.ans`.
fn save(ctx: &mut Context, base: &Path, failure: &Failure) -> Result<()> {
    let write = |path: PathBuf, bytes: &[u8]| {
        let folder = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(&path, bytes))
            .map_err(|source| Error::Report {
                what: path.display().to_string(),
                source,
            })
    };
    write(base.with_extension("in"), failure.shrunk.input.as_bytes())?;
    write(base.with_extension("ans"), &failure.answer)?;
    writeln!(ctx.out, "saved as {}.in and .ans", base.display()).map_err(io)?;
    Ok(())
}
