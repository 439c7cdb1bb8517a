//! The one path every verb runs submissions through: a plan of built tasks
//! goes to the runner, whose events go to every reporter subscribed (the
//! progress bar, a learner's test lines, the JSON and JUnit files), and the
//! run ends with one call that writes the reports. The verbs hold only what
//! differs: what to plan, which reporters to add, and what to add to the
//! reports (verify's expectations).
//!
//! ```text
//! Run::new(command, RunOptions) ─► subscribe(reporters) ─► execute(plan)…
//!     runner::execute_at ─► Event ─► Reporter::report_event (each)
//! Run::finish(sections) ─► Reporter::finish (each) ─► files written
//! ```

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use crate::errors::{Error, Result};
use crate::report::sections::Sections;
use crate::report::{Reporter, RunEnd, WriteFailed};
use crate::runner::{self, Event, Place, Reuse, RunPlan, TaskReport};

/// What a run writes besides what its reporters show: the JSON and JUnit
/// reports (`--json`, `--junit`). The verbs make it from their arguments;
/// a run nobody reads (a server's, a settling run) takes the default.
#[derive(Debug, Clone, Default)]
pub(crate) struct RunOptions {
    /// Write the JSON report here.
    pub(crate) json: Option<PathBuf>,
    /// Write the JUnit XML report here.
    pub(crate) junit: Option<PathBuf>,
}

/// One command's run: its reporters, and the tasks of every `execute`.
pub(crate) struct Run<'r> {
    command: &'static str,
    reporters: Vec<Box<dyn Reporter + 'r>>,
    /// A reporter's write error, kept for `finish`: a full disk must not
    /// stop the judging, but it must not pass in silence either.
    failed: Option<io::Error>,
}

impl<'r> Run<'r> {
    /// A run whose JSON and JUnit reports go where `options` says.
    pub(crate) fn new(command: &'static str, options: &RunOptions) -> Run<'r> {
        let mut run = Run {
            command,
            reporters: Vec::new(),
            failed: None,
        };
        if let Some(path) = &options.json {
            run.subscribe(ReportFile::new(path, FileKind::Json));
        }
        if let Some(path) = &options.junit {
            run.subscribe(ReportFile::new(path, FileKind::Junit));
        }
        run
    }

    pub(crate) fn subscribe(&mut self, reporter: impl Reporter + 'r) {
        self.reporters.push(Box::new(reporter));
    }

    /// Runs `plan` in `place` (taking stored results from `reuse` where it
    /// has them); every reporter sees its events.
    pub(crate) fn execute(
        &mut self,
        plan: &RunPlan<'_>,
        reuse: Option<&dyn Reuse>,
        place: Place<'_>,
        scratch: &Path,
    ) -> Vec<TaskReport> {
        let (reporters, failed) = (&mut self.reporters, &mut self.failed);
        runner::execute_at(plan, reuse, place, scratch, |event| {
            dispatch(reporters, failed, &event)
        })
    }

    /// Ends the run: every reporter writes what it collected.
    pub(crate) fn finish(
        mut self,
        isolation: &str,
        interrupted: bool,
        sections: Sections,
    ) -> Result<()> {
        if let Some(source) = self.failed.take() {
            return Err(Error::Report {
                what: "the output".into(),
                source,
            });
        }
        let end = RunEnd {
            command: self.command,
            isolation,
            interrupted,
            sections,
        };
        for reporter in &mut self.reporters {
            reporter.finish(&end)?;
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum FileKind {
    Json,
    Junit,
}

/// The JSON or JUnit report file: every finished task, written at the end.
struct ReportFile {
    path: PathBuf,
    kind: FileKind,
    /// By (execute, task): the plan's order, whatever order tasks end in.
    tasks: BTreeMap<(usize, usize), TaskReport>,
    executes: usize,
}

impl ReportFile {
    fn new(path: &Path, kind: FileKind) -> ReportFile {
        ReportFile {
            path: path.to_path_buf(),
            kind,
            tasks: BTreeMap::new(),
            executes: 0,
        }
    }
}

impl Reporter for ReportFile {
    fn report_event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::TaskFinished { task, report, .. } => {
                self.tasks.insert((self.executes, *task), (*report).clone());
            }
            Event::RunFinished { .. } => self.executes += 1,
            Event::Started { .. } | Event::TestFinished { .. } => {}
        }
        Ok(())
    }

    fn finish(&mut self, end: &RunEnd<'_>) -> Result<(), WriteFailed> {
        let tasks: Vec<TaskReport> = std::mem::take(&mut self.tasks).into_values().collect();
        let failed = |source: io::Error| WriteFailed {
            what: self.path.display().to_string(),
            source,
        };
        let file = std::fs::File::create(&self.path).map_err(failed)?;
        let mut out = io::BufWriter::new(file);
        match self.kind {
            FileKind::Json => crate::report::json::write(
                &mut out,
                end.command,
                end.isolation,
                &tasks,
                &end.sections,
                end.interrupted,
            )
            .map_err(failed)?,
            FileKind::Junit => {
                crate::report::junit::write(&mut out, &format!("judge {}", end.command), &tasks)
                    .map_err(|e| failed(io::Error::other(e.to_string())))?
            }
        }
        io::Write::flush(&mut out).map_err(failed)
    }
}

/// The progress bar on stderr (drawn only on a terminal).
pub(crate) struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    pub(crate) fn new() -> Progress {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} tests {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Progress { bar }
    }
}

impl Reporter for Progress {
    fn report_event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { total_tests } => {
                self.bar.reset();
                self.bar.set_length(*total_tests as u64);
            }
            Event::TestFinished { .. } => self.bar.inc(1),
            Event::TaskFinished { report, .. } => self.bar.set_message(format!(
                "{} {}",
                crate::escape::name(&report.submission),
                report.verdict
            )),
            Event::RunFinished { .. } => self.bar.finish_and_clear(),
        }
        Ok(())
    }
}

/// Hands `event` to every reporter; the first failure is kept for `finish`.
fn dispatch(
    reporters: &mut [Box<dyn Reporter + '_>],
    failed: &mut Option<io::Error>,
    event: &Event<'_>,
) {
    for reporter in reporters.iter_mut() {
        if let Err(e) = reporter.report_event(event) {
            failed.get_or_insert(e);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Reporters driven by hand-made events: no process is spawned.
    use super::*;
    use crate::runner::{TestReport, scripted};
    use crate::verdict::Verdict;
    use std::time::Duration;

    fn task(submission: &str, verdict: Verdict) -> TaskReport {
        TaskReport {
            problem: "p".into(),
            submission: submission.into(),
            owner: crate::owner::Owner::File {
                path: submission.into(),
            },
            verdict,
            score: None,
            message: None,
            tests: vec![TestReport {
                verdict,
                ..TestReport::unjudged(&crate::spec::TestCase {
                    name: "sample/1".into(),
                    group: "sample".into(),
                    ..Default::default()
                })
            }],
            skipped: 0,
        }
    }

    /// Feeds `tasks` as one execute's events, finishing them in reverse.
    fn feed(reporter: &mut dyn Reporter, tasks: &[TaskReport]) {
        let elapsed = Duration::ZERO;
        reporter
            .report_event(&Event::Started { total_tests: 1 })
            .unwrap();
        for (i, task) in tasks.iter().enumerate().rev() {
            reporter
                .report_event(&Event::TestFinished {
                    task: i,
                    owner: &task.owner,
                    test: 0,
                    report: &task.tests[0],
                    elapsed,
                })
                .unwrap();
            reporter
                .report_event(&Event::TaskFinished {
                    task: i,
                    report: task,
                    elapsed,
                })
                .unwrap();
        }
        reporter
            .report_event(&Event::RunFinished {
                elapsed,
                interrupted: false,
            })
            .unwrap();
    }

    fn end(sections: Sections) -> RunEnd<'static> {
        RunEnd {
            command: "grade",
            isolation: "none",
            interrupted: false,
            sections,
        }
    }

    #[test]
    fn the_json_file_has_every_execute_in_plan_order_and_the_verbs_fields() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        let mut file = ReportFile::new(&path, FileKind::Json);
        feed(
            &mut file,
            &[
                task("a", Verdict::Accepted),
                task("b", Verdict::WrongAnswer),
            ],
        );
        feed(&mut file, &[task("c", Verdict::TimeLimitExceeded)]);
        let sections = Sections {
            package_errors: Some(vec!["sum: no tests under data/".into()]),
            ..Sections::default()
        };
        file.finish(&end(sections)).unwrap();
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let submissions: Vec<(&str, &str)> = json["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["submission"].as_str().unwrap(),
                    s["verdict"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(submissions, [("a", "AC"), ("b", "WA"), ("c", "TLE")]);
        assert_eq!(json["command"], "grade");
        assert_eq!(
            json["package_errors"],
            serde_json::json!(["sum: no tests under data/"])
        );
        assert!(json.get("expectations").is_none(), "{json}");
    }

    #[test]
    fn the_junit_file_has_a_suite_per_task() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.xml");
        let mut file = ReportFile::new(&path, FileKind::Junit);
        feed(
            &mut file,
            &[
                task("a", Verdict::Accepted),
                task("b", Verdict::WrongAnswer),
            ],
        );
        file.finish(&end(Sections::default())).unwrap();
        let xml = std::fs::read_to_string(&path).unwrap();
        assert!(xml.contains("p/a") && xml.contains("p/b"), "{xml}");
        assert!(xml.contains("judge grade"), "{xml}");
    }

    /// Counts the events it sees; fails every one when `broken`.
    struct Counting<'a> {
        seen: &'a std::cell::Cell<usize>,
        broken: bool,
    }

    impl Reporter for Counting<'_> {
        fn report_event(&mut self, _: &Event<'_>) -> io::Result<()> {
            self.seen.set(self.seen.get() + 1);
            if self.broken {
                return Err(io::Error::other("disk full"));
            }
            Ok(())
        }
    }

    #[test]
    fn a_reporter_that_cannot_write_fails_the_run_at_its_end_and_the_judging_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let problem = scripted::problem(dir.path(), 3);
        let sandbox = scripted::Scripted::new(scripted::doubles_except("2"));
        let (broken, whole) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        let mut run = Run::new("test", &RunOptions::default());
        run.subscribe(Counting {
            seen: &broken,
            broken: true,
        });
        run.subscribe(Counting {
            seen: &whole,
            broken: false,
        });
        let scratch = tempfile::tempdir().unwrap();
        let plan = scripted::plan(&problem, false, 2);
        let reports = run.execute(&plan, None, Place::Pool(&sandbox), scratch.path());
        assert_eq!(reports[0].verdict, Verdict::WrongAnswer);
        // Started, three tests, the task, the end: to both reporters.
        assert_eq!((broken.get(), whole.get()), (6, 6));
        let error = run.finish("none", false, Sections::default()).unwrap_err();
        assert!(error.to_string().contains("disk full"), "{error}");
    }
}
