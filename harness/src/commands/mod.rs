//! The CLI verbs, each wired from the typed stages in one function.

mod calibrate;
mod context;
mod doctor;
mod matrix;
mod play;
mod practice;
mod stress;
mod verify;

use context::Context;

use crate::cli::{Cli, Command};
use crate::errors::Result;

/// Runs one command line; returns the process exit code (see `exit_codes`).
pub fn run(cli: Cli) -> Result<u8> {
    let mut ctx = Context::new(&cli)?;
    match cli.command {
        Command::List => ctx.list(),
        Command::Verify {
            ids,
            all_tests,
            reports,
            strength,
        } => match (strength.calibrate, strength.matrix) {
            (false, false) => verify::verify(&mut ctx, &ids, all_tests, &reports),
            (true, false) => calibrate::calibrate(&mut ctx, &ids, strength.repeat, &reports),
            (false, true) => matrix::matrix(&mut ctx, &ids, &reports),
            (true, true) => Err(crate::Error::Usage(
                "--calibrate and --matrix run separately (each writes its own report)".into(),
            )),
        },
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
        } => practice::grade(&mut ctx, &id, &files, fail_fast, &reports),
        Command::Play { id, test } => play::play(&mut ctx, &id, test.as_deref()),
        Command::Doctor => doctor::doctor(&mut ctx),
        Command::Stress(args) => stress::stress(&mut ctx, &args),
    }
}
