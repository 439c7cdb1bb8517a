//! A Kattis package's settled time limit, kept in the result store: `test`
//! and `grade` on an unchanged package take it from there instead of
//! running the package's accepted submissions again (`verify` runs them
//! anyway, and remembers what they settled). The key covers everything
//! those runs depend on, so any change settles the limit anew.

use std::io::Write;
use std::path::Path;

use super::packages::{TimeSettlement, lower_bounds, settle_time_limit};
use super::{Context, stored};
use crate::cli::StoreArgs;
use crate::errors::{Error, Result, SpecError};
use crate::pipeline::Run;
use crate::spec::{Limits, ProblemSpec, ProgramRef};
use crate::store::{SettledLimit, Store, judge_version};

/// Settles a package's time limit before a submission of a learner or a
/// class is judged on it, saying where the limit came from: from the
/// result store when this package's limit was settled before (unless
/// `--fresh`), else by running its submissions (and remembering it).
pub(crate) fn settle_for_judging(
    ctx: &mut Context,
    run: &mut Run<'_>,
    problem: &mut ProblemSpec,
    store_args: &StoreArgs,
) -> Result<()> {
    if !settles_from_submissions(problem) {
        return Ok(());
    }
    let key = settle_key(ctx, problem);
    let mut store = open(&stored::store_path(ctx, store_args));
    let known = match (&store, &key, store_args.fresh) {
        (Some(store), Some(key), false) => store.settled_limit(key).unwrap_or_else(|e| {
            eprintln!("warning: not using the result store's time limits: {e}");
            None
        }),
        _ => None,
    };
    let (explanation, from_store) = match known {
        Some(settled) => {
            apply(problem, settled.time);
            (settled.explanation, true)
        }
        None => {
            let Some(settlement) = settle_time_limit(ctx, run, problem) else {
                return Ok(());
            };
            if let Some(error) = settlement.error {
                let message = format!("{}: time limit: {error}", problem.id);
                return Err(SpecError::Package(message).into());
            }
            remember(store.as_mut(), key.as_deref(), problem, &settlement);
            (settlement.explanation.unwrap_or_default(), false)
        }
    };
    let stored = if from_store {
        " (settled before, from the result store)"
    } else {
        ""
    };
    let line = format!("{}: time limit {explanation}{stored}", problem.id);
    writeln!(ctx.out, "{}", ctx.styles.dim(&line)).map_err(|source| Error::Report {
        what: "the output".into(),
        source,
    })
}

/// Remembers a settlement that found a limit (`verify`'s too).
pub(super) fn remember(
    store: Option<&mut Store>,
    key: Option<&str>,
    problem: &ProblemSpec,
    settlement: &TimeSettlement,
) {
    let (Some(store), Some(key), Some(explanation), None) =
        (store, key, &settlement.explanation, &settlement.error)
    else {
        return;
    };
    let limit = SettledLimit {
        time: problem.limits.time,
        timeout_floor: settlement.timeout_floor,
        explanation: explanation.clone(),
        warnings: settlement.warnings.clone(),
    };
    if let Err(e) = store.remember_settled_limit(key, &problem.id, &limit) {
        eprintln!("warning: the settled time limit was not stored: {e}");
    }
}

/// The store, when it can be opened: it saves time, and is never a reason
/// to fail.
fn open(path: &Path) -> Option<Store> {
    Store::open(path)
        .map_err(|e| eprintln!("warning: not using the result store: {e}"))
        .ok()
}

fn settles_from_submissions(problem: &ProblemSpec) -> bool {
    problem.package.as_deref().is_some_and(|package| {
        matches!(
            package.limits.time,
            crate::formats::TimeLimitRule::FromSubmissions { .. }
        )
    })
}

fn apply(problem: &mut ProblemSpec, time: std::time::Duration) {
    problem.limits.time = time;
    problem.limits.wall = Limits::default_wall(time);
}

/// The key of a package's settlement: the judge, the isolation and the
/// machine (timings are theirs), the package's limits and time limit rule,
/// every test (name, input, answer, arguments, `.files`), the programs
/// that judge the runs, and every submission that bounds the limit from
/// below, by content and language. `None` when a file cannot be read.
pub(super) fn settle_key(ctx: &mut Context, problem: &ProblemSpec) -> Option<String> {
    let package = problem.package.as_deref()?;
    let mut key = Key(blake3::Hasher::new());
    key.text("judge-settled-limit-1");
    key.text(judge_version());
    key.text(&ctx.sandbox.describe());
    key.text(&stored::machine());
    key.text(&format!(
        "{:?} {:?} {} {}",
        package.limits, package.interaction, problem.limits.memory, problem.limits.output
    ));
    for test in &problem.tests {
        key.text(&test.name);
        key.file(&test.input)?;
        key.file(&test.answer)?;
        key.text(&format!("{:?} {:?}", test.args, test.checker_args));
        if let Some(dir) = &test.files {
            key.folder(dir)?;
        }
    }
    let judges = [
        problem.judging_program().map(|tool| &tool.program),
        problem.output_checker().map(|tool| &tool.program),
    ];
    for program in judges.into_iter().flatten() {
        key.program(ctx, program)?;
    }
    for index in lower_bounds(ctx, problem) {
        key.program(ctx, &problem.solutions[index].program)?;
    }
    Some(key.0.finalize().to_hex().to_string())
}

/// A hash of delimited parts, so that no two different inputs hash alike.
struct Key(blake3::Hasher);

impl Key {
    fn bytes(&mut self, bytes: &[u8]) {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    fn file(&mut self, path: &Path) -> Option<()> {
        let bytes = std::fs::read(path).ok()?;
        self.bytes(blake3::hash(&bytes).as_bytes());
        Some(())
    }

    fn folder(&mut self, dir: &Path) -> Option<()> {
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.ok()?;
            let name = entry.path().strip_prefix(dir).ok()?;
            self.text(&name.to_string_lossy());
            if entry.file_type().is_file() {
                self.file(entry.path())?;
            }
        }
        Some(())
    }

    /// A program by what builds and runs it: its language's commands, and
    /// every file by name and content.
    fn program(&mut self, ctx: &Context, program: &ProgramRef) -> Option<()> {
        let languages = ctx.builder.languages();
        match program {
            ProgramRef::Sources(set) => {
                let language = languages.get(&set.language);
                self.text(&format!(
                    "{} {:?} {:?} {:?}",
                    set.language,
                    language.map(|l| (&l.compile, &l.run)),
                    set.entry.file_name(),
                    set.constants
                ));
                for file in set.sources.iter().chain(&set.beside) {
                    self.text(&file.file_name()?.to_string_lossy());
                    self.file(file)?;
                }
            }
            ProgramRef::File(path) | ProgramRef::Submitted(path) => {
                let language = languages
                    .for_file(path)
                    .map(|(key, l)| (key, &l.compile, &l.run));
                self.text(&format!("{language:?}"));
                self.file(path)?;
            }
            // A binary of the workspace: its name (its build is not
            // hashed, so a package of ours never reaches here).
            ProgramRef::Bin(name) => self.text(name),
            ProgramRef::Answers { path, .. } => {
                self.text("answers");
                self.folder(path)?;
            }
        }
        Some(())
    }
}
