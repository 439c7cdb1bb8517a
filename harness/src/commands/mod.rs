//! The CLI verbs, each wired from the typed stages in one function.

mod calibrate;
mod class;
mod context;
mod doctor;
mod export;
#[cfg(test)]
pub(crate) mod fake;
mod findings;
mod handin;
mod matrix;
mod play;
mod practice;
mod queued;
mod report;
pub(crate) mod serving;
mod similar;
mod stored;
mod stress;
mod stress_package;
mod teacher;
#[cfg(test)]
pub(crate) mod tests;
mod verify;
pub(crate) mod working;

pub(crate) use context::Context;
pub(crate) use stored::problem_info;

use std::path::PathBuf;

use crate::cli::{ClassArgs, Cli, Command, ReportArgs, StoreArgs, StrengthArgs};
use crate::errors::Result;

/// Runs one command line; returns the process exit code (see `exit_codes`).
pub fn run(cli: Cli) -> Result<u8> {
    // A learner's terminal needs no problems folder to submit.
    if let Command::Submit(args) = &cli.command {
        return crate::serve::submit(args, context::styles_for(cli.color));
    }
    let mut ctx = Context::new(&cli)?;
    match cli.command {
        Command::List => list(&mut ctx),
        Command::Verify {
            ids,
            all_tests,
            reports,
            store,
            strength,
        } => verify_command(&mut ctx, &ids, all_tests, &reports, &store, &strength),
        Command::Generate { ids } => verify::generate(&mut ctx, &ids),
        Command::Test {
            id,
            file,
            fail_fast,
            reports,
            learner,
        } => practice::test(&mut ctx, &id, &file, fail_fast, &reports, &learner),
        Command::Grade {
            id,
            files,
            fail_fast,
            reports,
            class,
            store,
        } => grade_command(&mut ctx, id, &files, fail_fast, &reports, &class, &store),
        Command::Report {
            run,
            session,
            changes,
            reports,
            gradebook,
            teacher,
            db,
        } => report::report(
            &mut ctx,
            &report::Which::of(run, session),
            changes,
            &reports,
            &gradebook,
            &teacher,
            db.as_deref(),
        ),
        Command::Merge { inputs, db } => class::merge(&mut ctx, &inputs, &db),
        Command::Play { id, test } => play::play(&mut ctx, &id, test.as_deref()),
        Command::Doctor => doctor::doctor(&mut ctx),
        Command::Cache { action } => doctor::cache(&mut ctx, &action),
        Command::Export { id, kattis, force } => export::export(&mut ctx, &id, &kattis, force),
        Command::Stress(args) => stress::stress(&mut ctx, &args),
        Command::Serve(args) => serving::serve(&mut ctx, &args),
        Command::Users { command } => serving::users(&mut ctx, &command),
        Command::Submit(args) => crate::serve::submit(&args, ctx.styles),
        Command::Worker {
            ids,
            db,
            name,
            lease,
        } => {
            if !(lease.is_finite() && lease > 0.0 && lease <= 86_400.0) {
                return Err(crate::errors::Error::Usage(
                    "--lease takes seconds, more than 0 and at most a day".into(),
                ));
            }
            let options = crate::worker::WorkerOptions {
                ids,
                db,
                name,
                lease: std::time::Duration::from_secs_f64(lease),
            };
            working::worker(&mut ctx, &options)
        }
        Command::Workers { db } => queued::workers(&mut ctx, &db),
        Command::Similarity(args) => similar::similarity(&mut ctx, &args),
    }
}

/// `judge verify`: the package checks (`--constraints`,
/// `--invalid-inputs`), or the solutions judged, calibrated
/// (`--calibrate`) or as a matrix (`--matrix`).
fn verify_command(
    ctx: &mut Context,
    ids: &[String],
    all_tests: bool,
    reports: &ReportArgs,
    store: &StoreArgs,
    strength: &StrengthArgs,
) -> Result<u8> {
    if strength.constraints {
        return findings::report(ctx, ids, crate::checks::constraints::check);
    }
    if strength.invalid_inputs {
        return findings::report(ctx, ids, crate::checks::invalid_inputs::check);
    }
    match (strength.calibrate, strength.matrix) {
        (false, false) => verify::verify(ctx, ids, all_tests, reports, store),
        (true, false) => calibrate::calibrate(ctx, ids, strength.repeat, reports),
        (false, true) => matrix::matrix(ctx, ids, reports, strength.html.as_deref()),
        (true, true) => Err(crate::Error::Usage(
            "--calibrate and --matrix run separately (each writes its own report)".into(),
        )),
    }
}

/// `judge grade`: a class (`--class`, `--manifest`), or files on one
/// problem.
fn grade_command(
    ctx: &mut Context,
    id: Option<String>,
    files: &[PathBuf],
    fail_fast: bool,
    reports: &ReportArgs,
    class: &ClassArgs,
    store: &StoreArgs,
) -> Result<u8> {
    match (class.class.is_some() || class.manifest.is_some(), id) {
        (true, id) => {
            // With a class, the positional words are all problem ids.
            let ids: Vec<String> = id
                .into_iter()
                .chain(files.iter().map(|f| f.display().to_string()))
                .collect();
            class::grade_class(ctx, class, &ids, fail_fast, reports, store)
        }
        (false, Some(_))
            if class.partition.is_some()
                || class.partition_count.is_some()
                || class.gradebook.csv.is_some()
                || class.gradebook.html.is_some()
                || store.db.is_some()
                || store.fresh =>
        {
            Err(crate::errors::Error::Usage(
                "--partition, --partition-count, --csv, --html, --db and --fresh grade a class: add --class DIR or --manifest FILE".into(),
            ))
        }
        (false, Some(id)) => practice::grade(ctx, &id, files, fail_fast, reports),
        (false, None) => Err(crate::errors::Error::Usage(
            "grade needs a problem id and files, or --class DIR".into(),
        )),
    }
}

/// `judge list`: every package with its limits and test counts; broken
/// ones on stderr, with exit 3.
fn list(ctx: &mut Context) -> Result<u8> {
    let (problems, broken) = ctx.load_problems(&[])?;
    crate::report::human::list(&mut ctx.out, &problems).map_err(|source| crate::Error::Report {
        what: "the list".into(),
        source,
    })?;
    for error in &broken {
        eprintln!("{} {error}", ctx.styles.bad("broken package:"));
    }
    Ok(if broken.is_empty() {
        crate::exit_codes::OK
    } else {
        crate::exit_codes::SPEC_ERROR
    })
}
