//! The time limit by the package's own rules, with a sentence saying where
//! it came from.
//!
//! Kattis (both versions, as problemtools does it): the limit is the
//! smallest multiple of `time_resolution` (1 s in legacy packages), and at
//! least one, that is at least the slowest run that must not time out ×
//! `ac_to_time_limit` (legacy `time_multiplier`, default 5; 2025-09
//! default 2). In legacy packages those are the accepted submissions; in
//! 2025-09 every submission whose permitted verdicts leave out TLE, or
//! that says `use_for_time_limit: lower` (so a `wrong_answer` one can set
//! it, and the explanation names the submission, not "accepted"). Every
//! submission that must time out must need at least limit ×
//! `time_limit_to_tle` (legacy `time_safety_margin`, default 2; 2025-09
//! 1.5): an error in 2025-09 ("no time limit fits"), a warning in legacy
//! packages. A `time_limit` given in `problem.yaml` is used instead of the
//! computed one but must still satisfy the lower bound. Polygon's limit is
//! fixed.

use std::time::Duration;

use super::package::TimeLimitRule;

/// Before the limit is known, accepted submissions run under this cap
/// (problemtools uses five minutes; a minute keeps a broken package from
/// hanging `verify` for long).
pub(crate) const PROVISIONAL_CAP: Duration = Duration::from_secs(60);

/// One measured run: the CPU time and which submission it was.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timing<'a> {
    pub(crate) time: Duration,
    pub(crate) submission: &'a str,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TimeLimit {
    pub(crate) limit: Duration,
    /// Submissions that must time out have to need at least this long
    /// (limit × `time_limit_to_tle`); run them with this as their cap.
    pub(crate) timeout_floor: Option<Duration>,
    /// Where the limit came from, for the setter.
    pub(crate) explanation: String,
    pub(crate) warnings: Vec<String>,
}

/// Why the package's rule gives no time limit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum NoTimeLimit {
    #[error(
        "the time limit {} is not a multiple of time_resolution {}",
        secs(*.limit),
        num(*.resolution)
    )]
    NotAMultiple { limit: Duration, resolution: f64 },
    #[error(
        "the time limit {} is below the slowest run that must not time out: {submission} {} × ac_to_time_limit {} = {}",
        secs(*.limit),
        secs(*.time),
        num(*.factor),
        num_s(*.needed)
    )]
    BelowSlowest {
        limit: Duration,
        submission: String,
        time: Duration,
        factor: f64,
        needed: f64,
    },
    #[error("no accepted submission to derive the time limit from")]
    NoAccepted,
    /// A 2025-09 package: the safety margin is a rule.
    #[error("no time limit fits: {0}")]
    Margin(MarginMiss),
}

/// A submission that must time out but did so under limit ×
/// `time_limit_to_tle` (a warning in legacy packages).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{submission} timed out after only {}, under the safety margin {} × {} = {}",
    secs(*.time),
    secs(*.limit),
    num(*.factor),
    secs(*.floor)
)]
pub(crate) struct MarginMiss {
    submission: String,
    time: Duration,
    limit: Duration,
    factor: f64,
    floor: Duration,
}

/// The cap for the first runs, before `derive` can be called.
pub(crate) fn provisional_limit(rule: &TimeLimitRule) -> Duration {
    match rule {
        TimeLimitRule::Fixed { limit, .. } => *limit,
        TimeLimitRule::FromSubmissions {
            fixed: Some((limit, _)),
            time_limit_to_tle,
            ..
        } => limit.mul_f64(*time_limit_to_tle),
        TimeLimitRule::FromSubmissions { fixed: None, .. } => PROVISIONAL_CAP,
    }
}

/// The limit from the slowest run that bounds it from below (accepted
/// submissions) and the fastest that bounds it from above (submissions that
/// must time out). `Err` says why no limit fits.
pub(crate) fn derive(
    rule: &TimeLimitRule,
    slowest_lower: Option<Timing<'_>>,
    fastest_upper: Option<Timing<'_>>,
) -> Result<TimeLimit, NoTimeLimit> {
    let (fixed, ac_factor, tle_factor, resolution, origin, margin_is_error) = match rule {
        TimeLimitRule::Fixed { limit, origin } => {
            return Ok(TimeLimit {
                limit: *limit,
                timeout_floor: None,
                explanation: stated(*limit, origin),
                warnings: Vec::new(),
            });
        }
        TimeLimitRule::FromSubmissions {
            fixed,
            ac_to_time_limit,
            time_limit_to_tle,
            resolution,
            origin,
            margin_is_error,
        } => (
            fixed,
            *ac_to_time_limit,
            *time_limit_to_tle,
            *resolution,
            origin,
            *margin_is_error,
        ),
    };
    let mut warnings = Vec::new();
    let lower = slowest_lower.map(|run| (run, run.time.as_secs_f64() * ac_factor));
    let limit_secs = match (fixed, lower) {
        (Some((limit, _)), _) if !is_multiple(limit.as_secs_f64(), resolution) => {
            return Err(NoTimeLimit::NotAMultiple {
                limit: *limit,
                resolution,
            });
        }
        (Some((limit, _)), Some((run, needed))) if needed > limit.as_secs_f64() + 1e-9 => {
            return Err(NoTimeLimit::BelowSlowest {
                limit: *limit,
                submission: run.submission.to_string(),
                time: run.time,
                factor: ac_factor,
                needed,
            });
        }
        (Some((limit, _)), _) => limit.as_secs_f64(),
        (None, Some((_, needed))) => ((needed / resolution - 1e-9).ceil()).max(1.0) * resolution,
        (None, None) => return Err(NoTimeLimit::NoAccepted),
    };
    let limit = Duration::from_secs_f64(limit_secs);
    let floor = Duration::from_secs_f64(limit_secs * tle_factor);

    let mut explanation = match (fixed, lower) {
        (Some((_, from)), _) => stated(limit, from),
        (None, Some((run, needed))) => format!(
            "{}: slowest run that must not time out, {} {} × {} = {}, rounded up to a multiple of {} ({origin})",
            secs(limit),
            run.submission,
            secs(run.time),
            num(ac_factor),
            num_s(needed),
            num_s(resolution)
        ),
        (None, None) => unreachable!("handled above"),
    };
    explanation.push_str(&format!(
        "; runs that must time out need at least {} (× {})",
        secs(floor),
        num(tle_factor)
    ));
    if let Some(run) = fastest_upper.filter(|run| run.time < floor) {
        let miss = MarginMiss {
            submission: run.submission.to_string(),
            time: run.time,
            limit,
            factor: tle_factor,
            floor,
        };
        if margin_is_error {
            return Err(NoTimeLimit::Margin(miss));
        }
        warnings.push(miss.to_string());
    }
    Ok(TimeLimit {
        limit,
        timeout_floor: Some(floor),
        explanation,
        warnings,
    })
}

/// Where a limit the package states came from: `1 s from .timelimit`.
pub(crate) fn stated(limit: Duration, origin: &str) -> String {
    format!("{} from {origin}", secs(limit))
}

fn is_multiple(value: f64, resolution: f64) -> bool {
    let ratio = value / resolution;
    (ratio - ratio.round()).abs() < 1e-6
}

fn num(x: f64) -> String {
    let rounded = (x * 1000.0).round() / 1000.0;
    format!("{rounded}")
}

fn num_s(seconds: f64) -> String {
    format!("{} s", num(seconds))
}

fn secs(d: Duration) -> String {
    num_s(d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kattis(
        fixed: Option<f64>,
        ac: f64,
        tle: f64,
        resolution: f64,
        strict: bool,
    ) -> TimeLimitRule {
        TimeLimitRule::FromSubmissions {
            fixed: fixed.map(|s| {
                (
                    Duration::from_secs_f64(s),
                    "problem.yaml limits.time_limit".to_string(),
                )
            }),
            ac_to_time_limit: ac,
            time_limit_to_tle: tle,
            resolution,
            origin: "test rule".to_string(),
            margin_is_error: strict,
        }
    }

    fn run(seconds: f64, name: &str) -> Timing<'_> {
        Timing {
            time: Duration::from_secs_f64(seconds),
            submission: name,
        }
    }

    #[test]
    fn legacy_rounds_up_to_whole_seconds_at_least_one() {
        let rule = kattis(None, 5.0, 2.0, 1.0, false);
        let limit = derive(&rule, Some(run(0.198, "accepted/nim.py")), None).unwrap();
        assert_eq!(limit.limit, Duration::from_secs(1));
        assert_eq!(limit.timeout_floor, Some(Duration::from_secs(2)));
        assert!(
            limit.explanation.contains("accepted/nim.py"),
            "{}",
            limit.explanation
        );
        assert!(limit.explanation.contains("× 5"), "{}", limit.explanation);
        let slow = derive(&rule, Some(run(0.41, "a")), None).unwrap();
        assert_eq!(slow.limit, Duration::from_secs(3));
    }

    #[test]
    fn exact_products_do_not_round_up_a_step() {
        let rule = kattis(None, 2.0, 1.5, 0.5, true);
        let limit = derive(&rule, Some(run(0.25, "a")), None).unwrap();
        assert_eq!(limit.limit, Duration::from_millis(500));
    }

    #[test]
    fn safety_margin_is_an_error_in_2025_and_a_warning_in_legacy() {
        let strict = kattis(None, 2.0, 1.5, 0.5, true);
        let error = derive(&strict, Some(run(0.3, "a")), Some(run(1.2, "tle/b")))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("tle/b") && error.contains("no time limit fits"),
            "{error}"
        );
        assert!(derive(&strict, Some(run(0.3, "a")), Some(run(1.6, "tle/b"))).is_ok());
        let legacy = kattis(None, 5.0, 2.0, 1.0, false);
        let warned = derive(&legacy, Some(run(0.1, "a")), Some(run(1.5, "tle/b"))).unwrap();
        assert_eq!(warned.warnings.len(), 1);
    }

    #[test]
    fn fixed_limits_are_checked_against_accepted_runs() {
        let rule = kattis(Some(1.0), 2.0, 1.5, 1.0, true);
        let ok = derive(&rule, Some(run(0.4, "a")), None).unwrap();
        assert_eq!(ok.limit, Duration::from_secs(1));
        assert!(
            ok.explanation.contains("problem.yaml"),
            "{}",
            ok.explanation
        );
        let error = derive(&rule, Some(run(0.6, "slow.py")), None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("slow.py"), "{error}");
        let coarse = kattis(Some(1.25), 2.0, 1.5, 0.5, true);
        assert!(
            derive(&coarse, None, None)
                .unwrap_err()
                .to_string()
                .contains("multiple")
        );
    }

    #[test]
    fn fixed_polygon_limit_and_missing_runs() {
        let polygon = TimeLimitRule::Fixed {
            limit: Duration::from_millis(2000),
            origin: "problem.xml".to_string(),
        };
        assert_eq!(
            derive(&polygon, None, None).unwrap().limit,
            Duration::from_secs(2)
        );
        assert_eq!(provisional_limit(&polygon), Duration::from_secs(2));
        let rule = kattis(None, 2.0, 1.5, 1.0, true);
        assert!(
            derive(&rule, None, None)
                .unwrap_err()
                .to_string()
                .contains("no accepted")
        );
        assert_eq!(provisional_limit(&rule), PROVISIONAL_CAP);
    }
}
