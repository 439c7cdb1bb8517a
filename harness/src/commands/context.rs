//! What every command shares: the root, the sandbox, the builder, the
//! output styles, a scratch folder, and the Ctrl-C wiring.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{Cli, ColorChoice, IsolationChoice, ReportArgs};
use crate::compile::Builder;
use crate::errors::{Error, Result, SpecError};
use crate::exit_codes;
use crate::lang::{self, Languages};
use crate::report::{self, Styles};
use crate::runner::{self, Event, RunPlan, TaskReport};
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
        let sandbox = Sandbox::with_isolation(level, jobs);
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

    pub(crate) fn load_one(&self, id: &str) -> Result<ProblemSpec> {
        let (mut good, mut broken) = self.load_problems(&[id.to_string()])?;
        match broken.pop() {
            Some(error) => Err(error.into()),
            None => Ok(good.remove(0)),
        }
    }

    pub(crate) fn list(&mut self) -> Result<u8> {
        let (problems, broken) = self.load_problems(&[])?;
        report::human::list(&mut self.out, &problems).map_err(|source| Error::Report {
            what: "the list".into(),
            source,
        })?;
        for error in &broken {
            eprintln!("{} {error}", self.styles.bad("broken package:"));
        }
        Ok(if broken.is_empty() {
            exit_codes::OK
        } else {
            exit_codes::SPEC_ERROR
        })
    }

    /// Writes the JSON and JUnit reports that were asked for.
    pub(crate) fn write_reports(
        &self,
        args: &ReportArgs,
        command: &str,
        tasks: &[TaskReport],
        extra: Vec<(String, serde_json::Value)>,
    ) -> Result<()> {
        let interrupted = self.sandbox.is_cancelled();
        if let Some(path) = &args.json {
            let mut file = create(path)?;
            report::json::write(
                &mut file,
                command,
                &self.sandbox.describe(),
                tasks,
                extra,
                interrupted,
            )
            .map_err(|source| Error::Report {
                what: path.display().to_string(),
                source,
            })?;
        }
        if let Some(path) = &args.junit {
            let mut file = create(path)?;
            report::junit::write(&mut file, &format!("judge {command}"), tasks).map_err(|e| {
                Error::Report {
                    what: path.display().to_string(),
                    source: std::io::Error::other(e.to_string()),
                }
            })?;
        }
        Ok(())
    }

    /// Runs a plan with a progress bar on stderr (drawn only on a terminal).
    pub(crate) fn execute_with_progress(&self, plan: &RunPlan<'_>) -> Vec<TaskReport> {
        self.execute_reusing_with_progress(plan, None)
    }

    /// [`Context::execute_with_progress`], with stored results from `reuse`
    /// standing in for runs.
    pub(crate) fn execute_reusing_with_progress(
        &self,
        plan: &RunPlan<'_>,
        reuse: Option<&dyn runner::Reuse>,
    ) -> Vec<TaskReport> {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} tests {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let results =
            runner::execute_reusing(plan, reuse, &self.sandbox, self.scratch.path(), |event| {
                match event {
                    Event::Started { total_tests } => bar.set_length(total_tests as u64),
                    Event::TestFinished { .. } => bar.inc(1),
                    Event::TaskFinished { report, .. } => bar.set_message(format!(
                        "{} {}",
                        crate::escape::visible(&report.submission),
                        report.verdict
                    )),
                }
            });
        bar.finish_and_clear();
        results
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

fn create(path: &Path) -> Result<std::io::BufWriter<std::fs::File>> {
    std::fs::File::create(path)
        .map(std::io::BufWriter::new)
        .map_err(|source| Error::Report {
            what: path.display().to_string(),
            source,
        })
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
