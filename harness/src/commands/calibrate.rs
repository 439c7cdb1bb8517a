//! `judge verify --calibrate`: the time limit the Kattis 2025-09 rule
//! gives from the CPU times of the package's AC and TLE solutions, next to
//! the limit in `problem.toml`, and where that limit is timing-sensitive.
//!
//! Every solution runs `repeat` times, one test at a time (an otherwise
//! idle worker), with the time limit raised to `CAP_FACTOR` × the limit so
//! a TLE solution's time is measured rather than cut at the limit; a
//! solution's figure is the largest over tests of each test's median.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use super::Context;
use crate::cli::ReportArgs;
use crate::errors::{Error, Result};
use crate::formats::{TimeLimitRule, Timing, derive};
use crate::report::human;
use crate::report::sections::{self, CalibratedSolution, Sections};
use crate::sandbox::Limits;
use crate::spec::{ProblemSpec, SolutionSpec};
use crate::verdict::Verdict;

/// Kattis 2025-09 defaults (`problem.yaml` `limits`).
const AC_TO_TIME_LIMIT: f64 = 2.0;
const TIME_LIMIT_TO_TLE: f64 = 1.5;
/// `time_resolution`, seconds.
const RESOLUTION: f64 = 1.0;
/// TLE solutions run up to this many times the limit: twice the margin
/// they must keep, so "needs at least the margin" is measured, not assumed.
const CAP_FACTOR: f64 = 2.0 * TIME_LIMIT_TO_TLE;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// One solution's figure.
#[derive(Debug, Clone, PartialEq)]
struct Measured {
    name: String,
    /// The slowest test's median CPU time, and that test.
    time: Duration,
    test: String,
    /// The median run of that test reached the raised limit: the time is a
    /// lower bound.
    capped: bool,
}

/// What the rule says about one problem.
#[derive(Debug, Clone, PartialEq)]
struct Calibration {
    /// The limit the rule gives, or why none fits.
    kattis: std::result::Result<Duration, crate::formats::NoTimeLimit>,
    /// The fastest TLE solution ÷ `time_limit_to_tle`: no limit above this
    /// keeps the margin.
    upper: Option<Duration>,
    warnings: Vec<String>,
}

fn secs(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// The rule applied to the measured figures, against `limit` (problem.toml).
fn figures(limit: Duration, ac: &[Measured], tle: &[Measured]) -> Calibration {
    let slowest = ac.iter().max_by_key(|m| m.time);
    let fastest = tle.iter().min_by_key(|m| m.time);
    let rule = TimeLimitRule::FromSubmissions {
        fixed: None,
        ac_to_time_limit: AC_TO_TIME_LIMIT,
        time_limit_to_tle: TIME_LIMIT_TO_TLE,
        resolution: RESOLUTION,
        origin: "Kattis 2025-09 defaults".into(),
        margin_is_error: true,
    };
    fn timing(m: &Measured) -> Timing<'_> {
        Timing {
            time: m.time,
            submission: m.name.as_str(),
        }
    }
    let kattis = derive(&rule, slowest.map(timing), fastest.map(timing)).map(|t| t.limit);
    let mut warnings = Vec::new();
    for m in ac {
        let needed = m.time.mul_f64(AC_TO_TIME_LIMIT);
        if needed > limit {
            warnings.push(format!(
                "timing-sensitive: {} needs {} on {}; × {AC_TO_TIME_LIMIT} = {} is over the limit {}",
                m.name,
                secs(m.time),
                m.test,
                secs(needed),
                secs(limit)
            ));
        }
    }
    let floor = limit.mul_f64(TIME_LIMIT_TO_TLE);
    for m in tle.iter().filter(|m| !m.capped && m.time < floor) {
        warnings.push(format!(
            "timing-sensitive: {} finishes in {} on {}, within the limit × {TIME_LIMIT_TO_TLE} = {}",
            m.name,
            secs(m.time),
            m.test,
            secs(floor)
        ));
    }
    Calibration {
        kattis,
        upper: fastest.map(|m| m.time.div_f64(TIME_LIMIT_TO_TLE)),
        warnings,
    }
}

/// The median of `times` (the lower one of an even count).
fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[(times.len() - 1) / 2]
}

pub(super) fn calibrate(
    ctx: &mut Context,
    ids: &[String],
    repeat: usize,
    reports: &ReportArgs,
) -> Result<u8> {
    let (problems, broken) = ctx.load_and_build(ids)?;
    let mut ok = broken.is_empty();
    let mut all = Vec::new();
    for problem in &problems {
        let (json, holds) = calibrate_one(ctx, problem, repeat.max(1))?;
        ok &= holds;
        all.push(json);
        if ctx.boxes.is_cancelled() {
            break;
        }
    }
    // The measuring runs are repeated trials, not the report's submissions.
    let run = crate::pipeline::Run::new("verify --calibrate", &reports.into());
    let sections = Sections {
        calibration: Some(all),
        ..Sections::default()
    };
    ctx.finish(run, sections)?;
    Ok(ctx.exit_code(ok))
}

/// Runs `problem`'s solutions `solutions` (by index) `repeat` times, one
/// test at a time, under its limits with the time raised to `cap`, each
/// stopping at its first failed test when `stop`; returns each one's figure
/// and what went unexpectedly.
fn measure(
    ctx: &mut Context,
    problem: &ProblemSpec,
    solutions: &[usize],
    cap: Duration,
    stop: bool,
    repeat: usize,
) -> (Vec<Measured>, Vec<String>) {
    let mut raised = problem.clone();
    raised.limits = Limits {
        time: cap,
        wall: Limits::default_wall(cap).max(problem.limits.wall),
        ..problem.limits
    };
    // (solution, test) → CPU time of each run, and whether it hit the cap.
    let mut runs: BTreeMap<(usize, String), Vec<(Duration, bool)>> = BTreeMap::new();
    let mut unexpected = Vec::new();
    for _ in 0..repeat {
        let mut planner = ctx.planner();
        for &index in solutions {
            planner.solution(&raised, index);
        }
        let mut plan = planner.plan(stop);
        plan.jobs = 1;
        let mut run = ctx.run_with_progress(
            "verify --calibrate",
            &crate::pipeline::RunOptions::default(),
        );
        for task in ctx.execute(&mut run, &plan, None) {
            if !stop && task.verdict != Verdict::Accepted {
                unexpected.push(format!(
                    "{} gets {} with the limit raised to {}",
                    task.submission,
                    task.verdict.short(),
                    secs(cap)
                ));
            }
            let Some(index) = task.owner.solution_of(&problem.id) else {
                continue;
            };
            for test in &task.tests {
                let capped = test.verdict == Verdict::TimeLimitExceeded;
                runs.entry((index, test.test.clone()))
                    .or_default()
                    .push((test.metrics.cpu, capped));
            }
        }
    }
    let figure = |&index: &usize| -> Option<Measured> {
        let name = problem.solutions[index].program.display_name();
        runs.iter()
            .filter(|((who, _), _)| *who == index)
            .map(|((_, test), times)| {
                let mut cpu: Vec<Duration> = times.iter().map(|(t, _)| *t).collect();
                let middle = median(&mut cpu);
                let capped = times.iter().filter(|(_, c)| *c).count() * 2 > times.len();
                Measured {
                    name: name.clone(),
                    time: if capped { middle.max(cap) } else { middle },
                    test: test.clone(),
                    capped,
                }
            })
            .max_by_key(|m| m.time)
    };
    unexpected.dedup();
    (solutions.iter().filter_map(figure).collect(), unexpected)
}

/// Measures one problem's AC and TLE solutions and prints the table.
/// Returns the JSON entry and whether the limit holds without warnings.
fn calibrate_one(
    ctx: &mut Context,
    problem: &ProblemSpec,
    repeat: usize,
) -> Result<(sections::Calibration, bool)> {
    let limit = problem.limits.time;
    let with_expect = |wanted: fn(&SolutionSpec) -> bool| -> Vec<usize> {
        (0..problem.solutions.len())
            .filter(|&i| wanted(&problem.solutions[i]))
            .collect()
    };
    let accepted = with_expect(|s| s.expect == [Verdict::Accepted]);
    let slow = with_expect(|s| s.expect.contains(&Verdict::TimeLimitExceeded));
    // AC solutions run every test; TLE solutions stop at the first test
    // they fail (a capped run already says "at least the cap"), capped at
    // CAP_FACTOR × the larger of the two limits, so the margin of the
    // rule's limit is measured too.
    let (ac, mut unexpected) = measure(
        ctx,
        problem,
        &accepted,
        limit.mul_f64(CAP_FACTOR),
        false,
        repeat,
    );
    let from_ac = figures(limit, &ac, &[]).kattis.unwrap_or(limit).max(limit);
    let (tle, _) = measure(
        ctx,
        problem,
        &slow,
        from_ac.mul_f64(CAP_FACTOR),
        true,
        repeat,
    );
    unexpected.sort();
    unexpected.dedup();
    let calibration = figures(limit, &ac, &tle);
    print_table(ctx, problem, repeat, &ac, &tle, &calibration, &unexpected)?;
    let holds = calibration.warnings.is_empty() && unexpected.is_empty();
    let entry = |m: &Measured, expect: &'static str| CalibratedSolution {
        solution: m.name.clone(),
        expect,
        cpu_ms: m.time.as_millis() as u64,
        test: m.test.clone(),
        at_least: m.capped,
    };
    let json = sections::Calibration {
        problem: problem.id.clone(),
        repeat,
        limit_ms: limit.as_millis() as u64,
        kattis_2025_09_limit_ms: calibration
            .kattis
            .as_ref()
            .ok()
            .map(|d| d.as_millis() as u64),
        kattis_error: calibration.kattis.as_ref().err().map(ToString::to_string),
        upper_bound_ms: calibration.upper.map(|d| d.as_millis() as u64),
        solutions: ac
            .iter()
            .map(|m| entry(m, "AC"))
            .chain(tle.iter().map(|m| entry(m, "TLE")))
            .collect(),
        warnings: calibration
            .warnings
            .iter()
            .chain(&unexpected)
            .cloned()
            .collect(),
    };
    Ok((json, holds))
}

fn print_table(
    ctx: &mut Context,
    problem: &ProblemSpec,
    repeat: usize,
    ac: &[Measured],
    tle: &[Measured],
    calibration: &Calibration,
    unexpected: &[String],
) -> Result<()> {
    let limit = problem.limits.time;
    let rule = match &calibration.kattis {
        Ok(kattis) if *kattis == limit => ctx.styles.good(&format!("{} (the same)", secs(*kattis))),
        Ok(kattis) => secs(*kattis),
        Err(why) => ctx.styles.bad(&why.to_string()),
    };
    writeln!(
        ctx.out,
        "{} — {}: limit {} in problem.toml; Kattis 2025-09 rule: {rule}",
        ctx.styles.bold(&problem.id),
        problem.title,
        secs(limit)
    )
    .map_err(io)?;
    let width = ac
        .iter()
        .chain(tle)
        .map(|m| m.name.len())
        .max()
        .unwrap_or(8)
        .max(8);
    writeln!(
        ctx.out,
        "  {:<width$}  {:<6} {:>12}  {:<34} bound on the limit",
        "solution",
        "expect",
        format!("CPU (med {repeat})"),
        "slowest test"
    )
    .map_err(io)?;
    for (m, expect) in ac
        .iter()
        .map(|m| (m, "AC"))
        .chain(tle.iter().map(|m| (m, "TLE")))
    {
        let time = format!("{}{}", if m.capped { "≥ " } else { "" }, human::ms(m.time));
        let bound = if expect == "AC" {
            format!(
                "≥ {} (× {AC_TO_TIME_LIMIT})",
                secs(m.time.mul_f64(AC_TO_TIME_LIMIT))
            )
        } else {
            format!(
                "≤ {} (÷ {TIME_LIMIT_TO_TLE})",
                secs(m.time.div_f64(TIME_LIMIT_TO_TLE))
            )
        };
        writeln!(
            ctx.out,
            "  {:<width$}  {:<6} {:>12}  {:<34} {bound}",
            m.name, expect, time, m.test
        )
        .map_err(io)?;
    }
    for warning in calibration.warnings.iter().chain(unexpected) {
        writeln!(ctx.out, "  {}", ctx.styles.bad(warning)).map_err(io)?;
    }
    if calibration.warnings.is_empty() && unexpected.is_empty() {
        writeln!(
            ctx.out,
            "  {}",
            ctx.styles.good("the limit keeps both margins")
        )
        .map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(name: &str, ms: u64, capped: bool) -> Measured {
        Measured {
            name: name.into(),
            time: Duration::from_millis(ms),
            test: "secret/01".into(),
            capped,
        }
    }

    #[test]
    fn medians_resist_one_slow_run() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(30), ms(10), ms(900)]), ms(30));
        assert_eq!(median(&mut [ms(40), ms(10)]), ms(10));
        assert_eq!(median(&mut [ms(7)]), ms(7));
    }

    #[test]
    fn a_fast_reference_and_slow_timeouts_keep_one_second() {
        let c = figures(
            Duration::from_secs(1),
            &[measured("ref", 230, false), measured("other", 90, false)],
            &[measured("brute", 3000, true)],
        );
        assert_eq!(c.kattis, Ok(Duration::from_secs(1)));
        assert_eq!(c.upper, Some(Duration::from_secs(2)));
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }

    #[test]
    fn an_accepted_run_near_the_limit_is_timing_sensitive() {
        let c = figures(Duration::from_secs(1), &[measured("ref", 650, false)], &[]);
        assert_eq!(c.kattis, Ok(Duration::from_secs(2)));
        assert_eq!(c.warnings.len(), 1);
        assert!(
            c.warnings[0].contains("ref needs 0.650 s"),
            "{:?}",
            c.warnings
        );
    }

    #[test]
    fn a_timeout_inside_the_margin_is_timing_sensitive() {
        let c = figures(
            Duration::from_secs(1),
            &[measured("ref", 100, false)],
            &[measured("scan", 1200, false)],
        );
        assert!(
            c.kattis.as_ref().unwrap_err().to_string().contains("scan"),
            "{c:?}"
        );
        assert_eq!(c.upper, Some(Duration::from_millis(800)));
        assert!(
            c.warnings[0].contains("scan finishes in 1.200 s"),
            "{:?}",
            c.warnings
        );
        // A capped run is "at least": never a warning.
        let capped = figures(
            Duration::from_secs(1),
            &[measured("ref", 100, false)],
            &[measured("scan", 3000, true)],
        );
        assert!(capped.warnings.is_empty());
    }
}
