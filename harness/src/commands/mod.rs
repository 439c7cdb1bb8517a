//! The CLI verbs, each wired from the typed stages in one function.

mod context;
mod doctor;
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
        } => verify::verify(&mut ctx, &ids, all_tests, &reports),
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
