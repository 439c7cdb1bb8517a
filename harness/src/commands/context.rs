//! What every command shares: the root, the sandbox, the builder, the
//! output styles, a scratch folder, and the Ctrl-C wiring.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{Cli, ColorChoice, IsolationChoice, ReportArgs, StoreArgs};
use crate::compile::Builder;
use crate::errors::{Error, Result, SpecError};
use crate::exit_codes;
use crate::lang::{self, Languages};
use crate::pipeline::{Progress, Run};
use crate::plan::{self, Means, Planner};
use crate::report::Styles;
use crate::runner::{self, RunPlan, TaskReport};
use crate::sandbox::{IsolationLevel, Sandbox};
use crate::spec::{self, ProblemSpec};

pub(crate) struct Context {
    pub(crate) root: PathBuf,
    pub(crate) jobs: usize,
    pub(crate) styles: Styles,
    pub(crate) sandbox: Sandbox,
    pub(crate) builder: Builder,
    /// Run folders live here; removed when the command ends.
    pub(crate) scratch: tempfile::TempDir,
    pub(crate) out: Box<dyn Write>,
}

impl Context {
    pub(crate) fn new(cli: &Cli) -> Result<Context> {
        let root = match &cli.root {
            Some(root) => root.clone(),
            // A report of a store runs nothing: it needs no problems/.
            None if !cli.command.needs_problems() => find_root().or_else(|_| {
                std::env::current_dir().map_err(|source| {
                    Error::from(SpecError::Read {
                        path: ".".into(),
                        source,
                    })
                })
            })?,
            None => find_root()?,
        };
        let root = root.canonicalize().map_err(|source| SpecError::Read {
            path: root.clone(),
            source,
        })?;
        let level = match cli.isolation {
            IsolationChoice::Full => IsolationLevel::Full,
            IsolationChoice::Limits => IsolationLevel::Limits,
        };
        let jobs = cli
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let sandbox = Sandbox::with_uid_range(level, jobs, cli.uid_range);
        // First Ctrl-C or SIGTERM: stop, kill every child, write what we have.
        // A second one exits at once.
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            let flag = sandbox.cancel_flag();
            let _ = signal_hook::flag::register_conditional_shutdown(
                signal,
                i32::from(exit_codes::INTERRUPTED),
                flag.clone(),
            );
            let _ = signal_hook::flag::register(signal, flag);
        }
        let user_languages = cli
            .languages
            .clone()
            .unwrap_or_else(|| lang::user_table(&root));
        let languages = Languages::load(Some(&user_languages))?;
        let colour = match cli.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        let scratch = tempfile::Builder::new()
            .prefix("judge-")
            .tempdir()
            .map_err(|source| Error::Report {
                what: "a scratch folder".into(),
                source,
            })?;
        Ok(Context {
            builder: Builder::new(&root, languages, sandbox.clone()),
            root,
            jobs,
            styles: Styles { colour },
            sandbox,
            scratch,
            out: Box::new(std::io::stdout()),
        })
    }

    pub(crate) fn problems_dir(&self) -> PathBuf {
        self.root.join("problems")
    }

    /// Loads the named problems (all when `ids` is empty). Broken packages
    /// are returned beside the good ones, never instead of them.
    pub(crate) fn load_problems(
        &self,
        ids: &[String],
    ) -> Result<(Vec<ProblemSpec>, Vec<SpecError>)> {
        let dir = self.problems_dir();
        let loaded = if ids.is_empty() {
            spec::discover_problems(&dir)?
        } else {
            ids.iter()
                .map(|id| {
                    let path = dir.join(id);
                    if spec::is_package(&path) {
                        spec::load_problem(&path)
                    } else {
                        Err(SpecError::UnknownProblem {
                            id: id.clone(),
                            dir: dir.clone(),
                        })
                    }
                })
                .collect()
        };
        let mut good = Vec::new();
        let mut broken = Vec::new();
        for result in loaded {
            match result {
                Ok(problem) => good.push(problem),
                Err(error) => broken.push(error),
            }
        }
        Ok((good, broken))
    }

    /// The named problems (all when `ids` is empty), every program they
    /// name built; broken packages are listed on the output and returned.
    pub(crate) fn load_and_build(
        &mut self,
        ids: &[String],
    ) -> Result<(Vec<ProblemSpec>, Vec<SpecError>)> {
        let (problems, broken) = self.load_problems(ids)?;
        for error in &broken {
            writeln!(self.out, "{} {error}", self.styles.bad("broken package:")).map_err(
                |source| Error::Report {
                    what: "the output".into(),
                    source,
                },
            )?;
        }
        self.builder
            .build_workspace(problems.iter().flat_map(ProblemSpec::programs))?;
        Ok((problems, broken))
    }

    pub(crate) fn load_one(&self, id: &str) -> Result<ProblemSpec> {
        let (mut good, mut broken) = self.load_problems(&[id.to_string()])?;
        match broken.pop() {
            Some(error) => Err(error.into()),
            None => Ok(good.remove(0)),
        }
    }

    /// What the plan stage takes of the context.
    pub(crate) fn means(&mut self) -> Means<'_> {
        Means {
            builder: &mut self.builder,
            sandbox: &self.sandbox,
            isolation: self.sandbox.describe(),
            scratch: self.scratch.path(),
            jobs: self.jobs,
        }
    }

    /// A planner that builds with the context's builder, its plan running
    /// `--jobs` tests at once.
    pub(crate) fn planner<'p>(&mut self) -> Planner<'_, 'p> {
        Planner::new(&mut self.builder, self.jobs)
            .with_visualizations(self.root.join("visualizations"))
    }

    /// `problem` made ready to plan submissions on (a package's time limit
    /// settled, see `plan::settle_for_judging`, its settling runs on
    /// `run`), saying where a settled limit came from.
    pub(crate) fn settled(
        &mut self,
        run: &mut Run<'_>,
        problem: ProblemSpec,
        store: &StoreArgs,
    ) -> Result<ProblemSpec> {
        let path = super::stored::store_path(self, store);
        let settled =
            plan::settle_for_judging(&mut self.means(), run, problem, &path, store.fresh)?;
        if let Some(source) = &settled.source {
            let line = source.line(&settled.problem.id);
            writeln!(self.out, "{}", self.styles.dim(&line)).map_err(|source| Error::Report {
                what: "the output".into(),
                source,
            })?;
        }
        Ok(settled.problem)
    }

    /// A run of `command` with the reports `args` asks for and a progress bar.
    pub(crate) fn run_with_progress<'r>(
        &self,
        command: &'static str,
        args: &ReportArgs,
    ) -> Run<'r> {
        let mut run = Run::new(command, args);
        run.subscribe(Progress::new());
        run
    }

    /// Runs `plan` as part of `run` (stored results from `reuse` stand in
    /// for runs).
    pub(crate) fn execute(
        &self,
        run: &mut Run<'_>,
        plan: &RunPlan<'_>,
        reuse: Option<&dyn runner::Reuse>,
    ) -> Vec<TaskReport> {
        run.execute(plan, reuse, &self.sandbox, self.scratch.path())
    }

    /// Ends `run`: its reporters write their files. `sections`: the
    /// verb's own sections of the JSON report.
    pub(crate) fn finish(
        &self,
        run: Run<'_>,
        sections: crate::report::sections::Sections,
    ) -> Result<()> {
        run.finish(
            &self.sandbox.describe(),
            self.sandbox.is_cancelled(),
            sections,
        )
    }

    /// The exit code once results are in: interrupted beats everything.
    pub(crate) fn exit_code(&self, ok: bool) -> u8 {
        if self.sandbox.is_cancelled() {
            exit_codes::INTERRUPTED
        } else if ok {
            exit_codes::OK
        } else {
            exit_codes::FAILED
        }
    }
}

/// The nearest folder from the current one up that holds `problems/`.
fn find_root() -> Result<PathBuf> {
    let here = std::env::current_dir().map_err(|source| SpecError::Read {
        path: ".".into(),
        source,
    })?;
    here.ancestors()
        .find(|dir| dir.join("problems").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            Error::Usage(format!(
                "no problems/ folder in {} or above it; pass --root",
                here.display()
            ))
        })
}
