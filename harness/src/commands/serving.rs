//! `judge serve` and `judge users`: the verbs. The session file and the
//! problems are read here, the server started (`serve::Server`), the
//! problems prepared to judge (`judging::prepare`, slow the first time:
//! pages are served meanwhile), and the server judges until stopped.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Context;
use crate::cli::{ServeArgs, UsersCommand};
use crate::errors::{Error, Result};
use crate::serve::{Host, Server};
use crate::spec::ProblemSpec;
use crate::spec::SpecError;

/// The store at `db`, or the root's `judge.db`.
fn store_path(ctx: &Context, db: Option<&Path>) -> PathBuf {
    db.map_or_else(
        || ctx.root.join(crate::store::DEFAULT_FILE),
        Path::to_path_buf,
    )
}

/// `judge serve`.
pub(super) fn serve(ctx: &mut Context, args: &ServeArgs) -> Result<u8> {
    let started = std::time::Instant::now();
    let session = crate::serve::session_of(&ctx.problems_dir(), args.session.as_deref())?;
    let languages =
        crate::serve::language_choices(ctx.builder.languages(), &session, args.session.as_deref())?;
    let (specs, broken) = read(ctx, &session.problems)?;
    for error in &broken {
        eprintln!("judge serve: left out, broken: {error}");
    }
    let host = Host {
        root: ctx.root.clone(),
        sandbox: ctx.sandbox().clone(),
        languages: ctx.builder.languages().clone(),
        scratch: ctx.scratch.path().to_path_buf(),
        isolation: ctx.boxes.describe(),
        jobs: ctx.jobs,
    };
    let path = store_path(ctx, args.db.as_deref());
    if let Some(dir) = &args.export_contest {
        let what = (session, languages);
        let said = crate::serve::export_contest(&host, what, &specs, &path, args, dir)?;
        let _ = writeln!(ctx.out, "{said}");
        return Ok(crate::exit_codes::OK);
    }
    let server = Server::start(host, session, languages, &specs, path, args, started)?;
    let mut say = |line: String| {
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let prepared = crate::judging::prepare(&mut ctx.means(), specs, server.store_path(), &mut say);
    server.judge(prepared)
}

/// The session's problems (all when `ids` is empty), read but not built:
/// enough for the pages. A broken package named by the session is an
/// error; when every problem is served, broken ones are left out and
/// their errors returned.
fn read(ctx: &Context, ids: &[String]) -> Result<(Vec<ProblemSpec>, Vec<SpecError>)> {
    let (problems, broken) = ctx.load_problems(ids)?;
    if !ids.is_empty() {
        if let Some(error) = broken.into_iter().next() {
            return Err(Error::from(error));
        }
        return Ok((problems, Vec::new()));
    }
    Ok((problems, broken))
}

/// `judge users ...`.
pub(crate) fn users(ctx: &mut Context, command: &UsersCommand) -> Result<u8> {
    let root = ctx.root.clone();
    let store = move |db: Option<&Path>| {
        db.map_or_else(|| root.join(crate::store::DEFAULT_FILE), Path::to_path_buf)
    };
    crate::serve::users(command, &store, &mut *ctx.out)
}
