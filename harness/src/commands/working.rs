//! `judge worker`: the verb. The packages are read and prepared here
//! (built, time limits settled in the store), each named by its hash,
//! and the worker takes jobs from the store's queue until stopped.

use std::io::Write;

use super::Context;
use crate::errors::{Error, Result};
use crate::judging::package::package_hash;
use crate::worker::{Host, Judging, WorkerOptions};

/// `judge worker`.
pub(super) fn worker(ctx: &mut Context, options: &WorkerOptions) -> Result<u8> {
    let judging = judging(ctx, &options.ids, &options.db, crate::worker::name(options))?;
    let host = Host {
        root: ctx.root.clone(),
        sandbox: ctx.sandbox().clone(),
        threads: ctx.jobs,
    };
    crate::worker::run(host, judging, options, &mut *ctx.out)
}

/// The problems `ids` names (all when empty) of `ctx`'s root, ready to
/// judge (built, time limits settled in the store at `db`), for the
/// worker called `name`. Named problems must all load, as for `grade ID`;
/// of all, a broken package is left to other workers.
pub(super) fn judging(
    ctx: &mut Context,
    ids: &[String],
    db: &std::path::Path,
    name: String,
) -> Result<Judging> {
    let (specs, mut broken) = ctx.load_problems(ids)?;
    if !ids.is_empty() {
        if let Some(error) = broken.pop() {
            return Err(error.into());
        }
    }
    for error in &broken {
        eprintln!("broken package (its jobs are left to other workers): {error}");
    }
    let mut hashes = Vec::new();
    for spec in &specs {
        let hash = package_hash(&spec.dir).map_err(|source| Error::Report {
            what: spec.dir.display().to_string(),
            source,
        })?;
        hashes.push(hash);
    }
    let mut notes = Vec::new();
    let problems =
        crate::judging::prepare(&mut ctx.means(), specs, db, &mut |line| notes.push(line))?;
    for note in notes {
        let _ = writeln!(ctx.out, "{note}");
    }
    Ok(Judging::new(
        name,
        problems.into_iter().zip(hashes).collect(),
        ctx.builder.languages().clone(),
        ctx.boxes.describe(),
        ctx.scratch.path().to_path_buf(),
    ))
}
