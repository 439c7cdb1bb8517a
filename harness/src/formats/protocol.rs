//! The exit-status protocols of package programs, as small pure functions:
//! what a validator's, checker's or interactor's exit means. `exit` is the
//! exit code, or `None` when the program did not exit by itself (killed by
//! a signal or a limit), which is always the program's failure.

/// What a checker, output validator or interactor said about a run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CheckerOutcome {
    Accepted,
    WrongAnswer,
    /// testlib only; Kattis has no presentation error.
    PresentationError,
    /// testlib `quitp`: the points from the start of its message.
    Points(f64),
    /// The program failed or broke its protocol: never the submission's fault.
    JudgeError(String),
}

/// A CMS checker ("comparator"): exit 0 and the fraction of the test's
/// points on the first line of stdout: 1 accepts, 0 rejects, a number
/// between is accepted with that share (as a percentage, testlib's
/// `Points` with the percent rule). Any other exit, or no number from 0 to
/// 1, is a judge error.
pub(crate) fn cms_checker(exit: Option<i32>, stdout: &str) -> CheckerOutcome {
    if exit != Some(0) {
        let how = exit.map_or("was killed".to_string(), |code| {
            format!("exited with code {code}")
        });
        return CheckerOutcome::JudgeError(format!("{how} (a CMS checker exits 0)"));
    }
    let first = stdout.split_whitespace().next().unwrap_or_default();
    match first.parse::<f64>() {
        Ok(1.0) => CheckerOutcome::Accepted,
        Ok(0.0) => CheckerOutcome::WrongAnswer,
        Ok(fraction) if fraction > 0.0 && fraction < 1.0 => {
            CheckerOutcome::Points(fraction * 100.0)
        }
        _ => CheckerOutcome::JudgeError(format!(
            "wrote {first:?} on stdout, not a fraction of the points from 0 to 1"
        )),
    }
}

/// Kattis output validator (and interactive validator): 42 accepts, 43
/// rejects, anything else (0 included) is a judge error.
pub(crate) fn kattis_output_validator(exit: Option<i32>) -> CheckerOutcome {
    match exit {
        Some(42) => CheckerOutcome::Accepted,
        Some(43) => CheckerOutcome::WrongAnswer,
        Some(code) => CheckerOutcome::JudgeError(format!(
            "output validator exited with {code} (expected 42 or 43)"
        )),
        None => CheckerOutcome::JudgeError("output validator was killed".to_string()),
    }
}

/// Kattis input validator: the input is valid only on exit 42.
pub(crate) fn kattis_input_validator(exit: Option<i32>) -> bool {
    exit == Some(42)
}

/// checktestdata broke its protocol: the script or the tool is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CheckTestDataFailure {
    #[error("checktestdata exited with {0}")]
    Exited(i32),
    #[error("checktestdata was killed")]
    Killed,
}

/// checktestdata: 0 valid, 1 invalid; anything else means the script or the
/// tool is broken (`Err`).
pub(crate) fn checktestdata(exit: Option<i32>) -> Result<bool, CheckTestDataFailure> {
    match exit {
        Some(0) => Ok(true),
        Some(1) => Ok(false),
        Some(code) => Err(CheckTestDataFailure::Exited(code)),
        None => Err(CheckTestDataFailure::Killed),
    }
}

/// testlib validator: exit 0 valid, anything else (FAIL = 3) invalid.
pub(crate) fn testlib_validator(exit: Option<i32>) -> bool {
    exit == Some(0)
}

/// testlib checker or interactor (default build): 0 OK, 1 WA, 2 PE (also
/// trailing "dirt"), 3 FAIL → judge error, 7 points (`quitp`, whose message
/// starts with `points <value>` or the bare value), 8 unexpected EOF (only
/// in builds with `ENABLE_UNEXPECTED_EOF`, a PE otherwise). Other codes,
/// including `_pc(n)` partial codes that collide with WA/PE, are judge
/// errors. Messages leave out who failed (`checker`, `interactor`): the
/// caller names it.
pub(crate) fn testlib_checker(exit: Option<i32>, message: &str) -> CheckerOutcome {
    match exit {
        Some(0) => CheckerOutcome::Accepted,
        Some(1) => CheckerOutcome::WrongAnswer,
        Some(2 | 8) => CheckerOutcome::PresentationError,
        Some(3) => CheckerOutcome::JudgeError(format!("failed: {}", message.trim())),
        Some(7) => match points_in(message) {
            Some(points) => CheckerOutcome::Points(points),
            None => {
                CheckerOutcome::JudgeError(format!("gave points but no number: {}", message.trim()))
            }
        },
        Some(code) => CheckerOutcome::JudgeError(format!(
            "exited with {code} (testlib uses 0, 1, 2, 3 and 7)"
        )),
        None => CheckerOutcome::JudgeError("was killed".to_string()),
    }
}

/// The points at the start of a testlib `quitp` message.
fn points_in(message: &str) -> Option<f64> {
    let mut words = message.split_whitespace();
    let first = words.next()?;
    let number = if first == "points" {
        words.next()?
    } else {
        first
    };
    number.parse::<f64>().ok().filter(|p| p.is_finite())
}

/// A test's score from a testlib `Points` outcome: Polygon's "treat points
/// from checker as percent" scales the test's own points; otherwise the
/// checker's value is the score.
pub(crate) fn testlib_points_score(points: f64, test_points: Option<f64>, percent: bool) -> f64 {
    match (percent, test_points) {
        (true, Some(worth)) => worth * points / 100.0,
        _ => points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cms_checker_gives_a_fraction_of_the_points() {
        assert_eq!(cms_checker(Some(0), "1\n"), CheckerOutcome::Accepted);
        assert_eq!(cms_checker(Some(0), "0.0\n"), CheckerOutcome::WrongAnswer);
        assert_eq!(cms_checker(Some(0), "0.25\n"), CheckerOutcome::Points(25.0));
        for (exit, stdout) in [
            (Some(1), "1"),
            (None, "1"),
            (Some(0), ""),
            (Some(0), "1.5"),
            (Some(0), "yes"),
        ] {
            assert!(
                matches!(cms_checker(exit, stdout), CheckerOutcome::JudgeError(_)),
                "{exit:?} {stdout}"
            );
        }
    }

    #[test]
    fn kattis_exit_codes() {
        assert_eq!(kattis_output_validator(Some(42)), CheckerOutcome::Accepted);
        assert_eq!(
            kattis_output_validator(Some(43)),
            CheckerOutcome::WrongAnswer
        );
        for other in [Some(0), Some(1), None] {
            assert!(matches!(
                kattis_output_validator(other),
                CheckerOutcome::JudgeError(_)
            ));
        }
        assert!(kattis_input_validator(Some(42)));
        assert!(!kattis_input_validator(Some(0)));
        assert!(!kattis_input_validator(None));
    }

    #[test]
    fn testlib_exit_codes() {
        assert_eq!(testlib_checker(Some(0), "ok"), CheckerOutcome::Accepted);
        assert_eq!(
            testlib_checker(Some(1), "wrong answer"),
            CheckerOutcome::WrongAnswer
        );
        assert_eq!(
            testlib_checker(Some(2), "wrong output format"),
            CheckerOutcome::PresentationError
        );
        assert_eq!(
            testlib_checker(Some(8), "unexpected eof"),
            CheckerOutcome::PresentationError
        );
        assert!(
            matches!(testlib_checker(Some(3), "FAIL bad answer"), CheckerOutcome::JudgeError(m) if m.contains("bad answer"))
        );
        assert!(matches!(
            testlib_checker(Some(4), ""),
            CheckerOutcome::JudgeError(_)
        ));
        assert!(matches!(
            testlib_checker(None, ""),
            CheckerOutcome::JudgeError(_)
        ));
        assert_eq!(
            testlib_checker(Some(7), "points 0.5 half right"),
            CheckerOutcome::Points(0.5)
        );
        assert_eq!(
            testlib_checker(Some(7), "12 of 20"),
            CheckerOutcome::Points(12.0)
        );
        assert!(matches!(
            testlib_checker(Some(7), "points"),
            CheckerOutcome::JudgeError(_)
        ));
        assert!(testlib_validator(Some(0)));
        assert!(!testlib_validator(Some(3)));
    }

    #[test]
    fn checktestdata_and_points() {
        assert_eq!(checktestdata(Some(0)), Ok(true));
        assert_eq!(checktestdata(Some(1)), Ok(false));
        assert!(checktestdata(Some(2)).is_err());
        assert!((testlib_points_score(50.0, Some(20.0), true) - 10.0).abs() < 1e-9);
        assert!((testlib_points_score(7.0, Some(20.0), false) - 7.0).abs() < 1e-9);
    }
}
