//! A Kattis package's time limit, settled from its own submissions before
//! its plan is made: the submissions that bound the limit from below run
//! under the provisional cap, and the package's rule derives the limit
//! from the slowest. The settlement is kept in the result store, so `test`,
//! `grade` and `serve` on an unchanged package take it from there instead
//! of running those submissions again (`verify` runs them anyway, for their
//! verdicts, and remembers what they settled). The key covers everything
//! those runs depend on, so any change settles the limit anew.

use std::path::Path;
use std::time::Duration;

use super::expect::bound;
use super::{Means, Planner};
use crate::errors::Result;
use crate::formats::{TimeLimitBound, TimeLimitRule, Timing};
use crate::pipeline::Run;
use crate::runner::{Place, TaskReport};
use crate::sandbox::Limits;
use crate::spec::SpecError;
use crate::spec::{ProblemSpec, ProgramRef};
use crate::store::{SettledLimit, Store, judge_version, machine};

/// How a package's time limit was settled.
#[derive(Default)]
pub(crate) struct TimeSettlement {
    /// Where the limit came from, for the setter.
    pub(crate) explanation: Option<String>,
    pub(crate) warnings: Vec<String>,
    /// No limit fits the package's own rules. A package that states its
    /// limit is still judged under it (as problemtools and BAPCtools judge
    /// it); one that states none cannot be.
    pub(crate) error: Option<crate::formats::NoTimeLimit>,
    /// Submissions that must time out run under this cap, so that a run
    /// which only just exceeds the limit shows up.
    pub(crate) timeout_floor: Option<Duration>,
    /// The runs that decided the limit (each owned by its solution):
    /// judged already, under a cap at least the limit, so their verdicts
    /// stand.
    pub(crate) runs: Vec<TaskReport>,
    /// Tests the settling runs judged (those judged again later included).
    pub(crate) tests_run: usize,
    slowest: Option<(Duration, String)>,
}

impl TimeSettlement {
    /// Whether the package's submissions have a limit to be judged under:
    /// one settled, or one the package states (even when it breaks the
    /// package's rule, which `error` reports).
    pub(crate) fn has_limit(&self) -> bool {
        self.explanation.is_some()
    }

    /// The slowest run that bounds the limit from below, if any ran.
    fn slowest(&self) -> Option<Timing<'_>> {
        self.slowest.as_ref().map(|(time, submission)| Timing {
            time: *time,
            submission,
        })
    }
}

/// A problem made ready to plan: its time limit settled when its package
/// takes it from its own submissions.
pub(crate) struct Settled {
    pub(crate) problem: ProblemSpec,
    /// Where the settled limit came from (`None`: the limit is stated).
    pub(crate) source: Option<LimitSource>,
}

/// Where a package's settled time limit came from, for the user.
pub(crate) struct LimitSource {
    pub(crate) explanation: String,
    /// Settled before, and taken from the result store.
    pub(crate) from_store: bool,
}

impl LimitSource {
    /// The line that tells the user, e.g. `pickmax: time limit 2 s (...)`.
    pub(crate) fn line(&self, problem: &str) -> String {
        let stored = if self.from_store {
            " (settled before, from the result store)"
        } else {
            ""
        };
        format!("{problem}: time limit {}{stored}", self.explanation)
    }
}

/// The slowest test of a submission's runs, as CPU time.
fn slowest_test(report: &TaskReport) -> Duration {
    report
        .tests
        .iter()
        .map(|t| t.metrics.cpu)
        .max()
        .unwrap_or_default()
}

/// The solutions whose slowest run bounds the limit from below and that
/// this machine can build.
fn lower_bounds(means: &mut Means<'_>, problem: &ProblemSpec) -> Vec<usize> {
    (0..problem.solutions.len())
        .filter(|&i| bound(problem, &problem.solutions[i]) == TimeLimitBound::Lower)
        .filter(|&i| {
            means
                .builder
                .unavailable_tool(&problem.solutions[i].program)
                .is_none()
        })
        .collect()
}

/// Makes `problem` ready to plan a learner's, a class's or a server's
/// submissions on it: a package whose time limit follows from its own
/// submissions takes the limit settled before from the store at `store`
/// (unless `fresh`), else settles it by running them (on `run`) and
/// remembers it there.
pub(crate) fn settle_for_judging(
    means: &mut Means<'_>,
    run: &mut Run<'_>,
    mut problem: ProblemSpec,
    store: &Path,
    fresh: bool,
) -> Result<Settled> {
    if !settles_from_submissions(&problem) {
        return Ok(Settled {
            problem,
            source: None,
        });
    }
    if let Some((limit, origin)) = stated_limit(&problem) {
        // Judging needs no settling runs: the package states its limit.
        // Whether that limit keeps the package's rule is `verify`'s
        // question, which runs them anyway.
        let explanation = format!(
            "{} (checked against the package's own submissions by `judge verify`)",
            crate::formats::stated(limit, &origin)
        );
        set_time(&mut problem, limit);
        return Ok(Settled {
            problem,
            source: Some(LimitSource {
                explanation,
                from_store: false,
            }),
        });
    }
    let key = settle_key(means, &problem);
    let mut store = open(store);
    let known = match (&store, &key, fresh) {
        (Some(store), Some(key), false) => store.settled_limit(key).unwrap_or_else(|e| {
            eprintln!("warning: not using the result store's time limits: {e}");
            None
        }),
        _ => None,
    };
    let source = match known {
        Some(settled) => {
            set_time(&mut problem, settled.time);
            Some(LimitSource {
                explanation: settled.explanation,
                from_store: true,
            })
        }
        None => {
            let settlement = settle_time_limit(means, run, &mut problem);
            match settlement {
                Some(TimeSettlement {
                    error: Some(error), ..
                }) => {
                    return Err(
                        SpecError::Package(format!("{}: time limit: {error}", problem.id)).into(),
                    );
                }
                Some(settlement) => {
                    remember(store.as_mut(), key.as_deref(), &problem, &settlement);
                    Some(LimitSource {
                        explanation: settlement.explanation.unwrap_or_default(),
                        from_store: false,
                    })
                }
                None => None,
            }
        }
    };
    Ok(Settled { problem, source })
}

/// Settles the time limit of a package whose limit follows from its own
/// submissions, by running those that bound it from below under the
/// provisional cap (on `run`); `None` for a limit stated outright.
pub(crate) fn settle_time_limit(
    means: &mut Means<'_>,
    run: &mut Run<'_>,
    problem: &mut ProblemSpec,
) -> Option<TimeSettlement> {
    let package = problem.package.clone()?;
    if let TimeLimitRule::Fixed { .. } = package.limits.time {
        return None;
    }
    let lower = lower_bounds(means, problem);
    let mut settlement = TimeSettlement::default();
    let reports = {
        let problem: &ProblemSpec = problem;
        let mut planner = Planner::new(means.builder, means.jobs);
        if let Some(folder) = &means.visualizations {
            planner = planner.with_visualizations(folder.clone());
        }
        for index in lower {
            planner.solution(problem, index).every_test = true;
        }
        let plan = planner.plan(false);
        run.execute(&plan, None, Place::Pool(means.sandbox), means.scratch)
    };
    for report in reports {
        settlement.tests_run += report.tests.len();
        let time = slowest_test(&report);
        if settlement.slowest.as_ref().is_none_or(|(t, _)| time > *t) {
            settlement.slowest = Some((time, report.submission.clone()));
        }
        settlement.runs.push(report);
    }
    match crate::formats::derive(&package.limits.time, settlement.slowest(), None) {
        Ok(limit) => {
            set_time(problem, limit.limit);
            settlement.explanation = Some(limit.explanation);
            settlement.warnings = limit.warnings;
            settlement.timeout_floor = limit.timeout_floor;
        }
        Err(why) => {
            settlement.error = Some(why);
            if let TimeLimitRule::FromSubmissions {
                fixed: Some((limit, origin)),
                time_limit_to_tle,
                ..
            } = &package.limits.time
            {
                judge_under_stated(problem, &mut settlement, *limit, origin, *time_limit_to_tle);
            }
        }
    }
    Some(settlement)
}

/// A package whose stated limit breaks its own rule is still judged under
/// that limit: the finding is reported and every submission gets a
/// result, as problemtools and BAPCtools judge it. The settling runs ran
/// under a higher cap; a run that needed more than the stated limit on a
/// test is judged again under it (its verdict could change), the others
/// stand.
fn judge_under_stated(
    problem: &mut ProblemSpec,
    settlement: &mut TimeSettlement,
    limit: Duration,
    origin: &str,
    time_limit_to_tle: f64,
) {
    set_time(problem, limit);
    let limits = &problem.limits;
    settlement.runs.retain(|report| {
        report
            .tests
            .iter()
            .all(|t| t.metrics.cpu <= limits.time && t.metrics.wall <= limits.wall)
    });
    settlement.timeout_floor = Some(limit.mul_f64(time_limit_to_tle));
    settlement.explanation = Some(format!(
        "{}, as the package states it (its own rule asks otherwise: see below)",
        crate::formats::stated(limit, origin)
    ));
}

/// After the submissions that must time out have run under the floor:
/// the package's rule on the safety margin (a warning in legacy packages,
/// an error in 2025-09 ones).
pub(crate) fn check_margin(
    problem: &ProblemSpec,
    settlement: &mut TimeSettlement,
    upper: &[&TaskReport],
) {
    let Some(package) = &problem.package else {
        return;
    };
    let fastest = upper
        .iter()
        .map(|r| (slowest_test(r), r.submission.as_str()))
        .min_by_key(|(time, _)| *time);
    let upper = fastest.map(|(time, submission)| Timing { time, submission });
    match crate::formats::derive(&package.limits.time, settlement.slowest(), upper) {
        Ok(limit) => {
            for warning in limit.warnings {
                if !settlement.warnings.contains(&warning) {
                    settlement.warnings.push(warning);
                }
            }
        }
        Err(why) => settlement.error = Some(why),
    }
}

/// A copy of `problem` judged under the time limit `time`.
pub(crate) fn with_time(problem: &ProblemSpec, time: Duration) -> ProblemSpec {
    let mut problem = problem.clone();
    set_time(&mut problem, time);
    problem
}

fn set_time(problem: &mut ProblemSpec, time: Duration) {
    problem.limits.time = time;
    problem.limits.wall = Limits::default_wall(time);
}

/// Remembers a settlement that found a limit (`verify`'s too) under `key`.
pub(crate) fn remember(
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

/// The limit a package whose rule follows from its submissions states
/// outright (`.timelimit`, `limits.time_limit`), and where it said so.
fn stated_limit(problem: &ProblemSpec) -> Option<(Duration, String)> {
    match &problem.package.as_deref()?.limits.time {
        TimeLimitRule::FromSubmissions { fixed, .. } => fixed.clone(),
        TimeLimitRule::Fixed { .. } => None,
    }
}

fn settles_from_submissions(problem: &ProblemSpec) -> bool {
    problem.package.as_deref().is_some_and(|package| {
        matches!(
            package.limits.time,
            crate::formats::TimeLimitRule::FromSubmissions { .. }
        )
    })
}

/// The key of a package's settlement: the judge, the isolation and the
/// machine (timings are theirs), the package's limits and time limit rule,
/// every test (name, input, answer, arguments, `.files`), the programs
/// that judge the runs, and every submission that bounds the limit from
/// below, by content and language. `None` when a file cannot be read.
pub(crate) fn settle_key(means: &mut Means<'_>, problem: &ProblemSpec) -> Option<String> {
    let package = problem.package.as_deref()?;
    let mut key = Key(blake3::Hasher::new());
    key.text("judge-settled-limit-1");
    key.text(judge_version());
    key.text(&means.isolation);
    key.text(&machine());
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
        key.program(means, program)?;
    }
    for index in lower_bounds(means, problem) {
        key.program(means, &problem.solutions[index].program)?;
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
    fn program(&mut self, means: &Means<'_>, program: &ProgramRef) -> Option<()> {
        let languages = means.builder.languages();
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
