//! What every command shares: the root, the boxes programs run in, the
//! builder, the output styles, a scratch folder, and the Ctrl-C wiring.
//!
//! The boxes and the builder are held through their traits (`Boxes`,
//! `Builds`): `Context::new` makes the real ones, and a unit test makes a
//! context of fakes (`Context::fake`, see `fake.rs`) whose verbs start no
//! process and write into a buffer.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{Cli, ColorChoice, IsolationChoice, StoreArgs};
use crate::compile::{Builder, Builds};
use crate::errors::{Error, Result};
use crate::exit_codes;
use crate::lang::{self, Languages};
use crate::pipeline::{Progress, Run, RunOptions};
use crate::plan::{self, Means, Planner};
use crate::report::Styles;
use crate::runner::{self, RunPlan, TaskReport};
use crate::sandbox::{Boxes, IsolationLevel, Sandbox};
use crate::spec::SpecError;
use crate::spec::{self, ProblemSpec};

/// The output's styles for `--color`: with `auto`, colour only when
/// stdout is a terminal and `NO_COLOR` is unset.
pub(crate) fn styles_for(choice: ColorChoice) -> Styles {
    let colour = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    Styles { colour }
}

pub(crate) struct Context {
    pub(crate) root: PathBuf,
    pub(crate) jobs: usize,
    pub(crate) styles: Styles,
    /// Where judging opens its boxes: the `Sandbox`, or a test's fake.
    pub(crate) boxes: Box<dyn Boxes>,
    /// The `Builder`, or a test's fake.
    pub(crate) builder: Box<dyn Builds>,
    /// The real sandbox, for the verbs that open boxes on threads of their
    /// own (a server, a queue's worker); `None` in a test's context.
    sandbox: Option<Sandbox>,
    /// Run folders live here; removed when the command ends (or at the
    /// next start, when it was killed).
    pub(crate) scratch: crate::scratch::Scratch,
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
        let colour = styles_for(cli.color).colour;
        let scratch = crate::scratch::Scratch::new().map_err(|source| Error::Report {
            what: "a scratch folder".into(),
            source,
        })?;
        Ok(Context {
            builder: Box::new(Builder::new(&root, languages, sandbox.clone())),
            boxes: Box::new(sandbox.clone()),
            sandbox: Some(sandbox),
            root,
            jobs,
            styles: Styles { colour },
            scratch,
            out: Box::new(std::io::stdout()),
        })
    }

    /// A context on `root` whose programs are built by `builder` and run
    /// in `boxes` (fakes: no process starts), one test at a time, without
    /// colour; what its verbs print goes to the returned buffer.
    #[cfg(test)]
    pub(crate) fn fake(
        root: &Path,
        builder: Box<dyn Builds>,
        boxes: Box<dyn Boxes>,
    ) -> (Context, super::fake::Printed) {
        let printed = super::fake::Printed::default();
        let context = Context {
            root: root.to_path_buf(),
            jobs: 1,
            styles: Styles { colour: false },
            boxes,
            builder,
            sandbox: None,
            scratch: crate::scratch::Scratch::plain().expect("a scratch folder"),
            out: Box::new(printed.clone()),
        };
        (context, printed)
    }

    /// The real sandbox, for a verb that opens boxes on threads of its own
    /// (a server, a queue's worker). Their threads are not tested without
    /// a process; the job each thread does is, on a fake box
    /// (`worker::judge_job`, `serve::judges::judge_entry`).
    pub(crate) fn sandbox(&self) -> &Sandbox {
        self.sandbox
            .as_ref()
            .expect("a server or a queue's worker runs on the real sandbox, not a test's fakes")
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
        let programs: Vec<_> = problems.iter().flat_map(ProblemSpec::programs).collect();
        self.builder.build_workspace(&programs)?;
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
        self.means_and_out().0
    }

    /// `means`, with the output and its styles beside it, for a step that
    /// prints as it goes (`judge generate`).
    pub(crate) fn means_and_out(&mut self) -> (Means<'_>, &mut dyn Write, &Styles) {
        let visualizations = Some(self.visualizations());
        let means = Means {
            builder: &mut *self.builder,
            sandbox: &*self.boxes,
            isolation: self.boxes.describe(),
            scratch: self.scratch.path(),
            jobs: self.jobs,
            visualizations,
        };
        (means, &mut *self.out, &self.styles)
    }

    /// Where output visualizers' images go: `visualizations/` in the root.
    fn visualizations(&self) -> PathBuf {
        self.root.join("visualizations")
    }

    /// A planner that builds with the context's builder, its plan running
    /// `--jobs` tests at once.
    pub(crate) fn planner<'p>(&mut self) -> Planner<'_, 'p> {
        let visualizations = self.visualizations();
        Planner::new(&mut *self.builder, self.jobs).with_visualizations(visualizations)
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

    /// A run of `command` with the reports `options` asks for and a progress bar.
    pub(crate) fn run_with_progress<'r>(
        &self,
        command: &'static str,
        options: &RunOptions,
    ) -> Run<'r> {
        let mut run = Run::new(command, options);
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
        run.execute(
            plan,
            reuse,
            runner::Place::Pool(&*self.boxes),
            self.scratch.path(),
        )
    }

    /// Ends `run`: its reporters write their files. `sections`: the
    /// verb's own sections of the JSON report.
    pub(crate) fn finish(
        &self,
        run: Run<'_>,
        sections: crate::report::sections::Sections,
    ) -> Result<()> {
        run.finish(&self.boxes.describe(), self.boxes.is_cancelled(), sections)
    }

    /// The exit code once results are in: interrupted beats everything.
    pub(crate) fn exit_code(&self, ok: bool) -> u8 {
        if self.boxes.is_cancelled() {
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
