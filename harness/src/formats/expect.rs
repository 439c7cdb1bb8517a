//! Whether a submission of a package got what its folder, tag or
//! `submissions.yaml` says it must, in the package's own vocabulary.
//! Pure: it reads verdicts, scores and messages of runs already made.

use std::collections::BTreeMap;

use super::package::{Expectation, ExpectationRule, PackageFormat};
use crate::verdict::Verdict;

/// One judged test, as the rules see it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seen<'a> {
    pub(crate) test: &'a str,
    pub(crate) verdict: Verdict,
    /// The checker's message (`judgemessage.txt`), if any.
    pub(crate) message: Option<&'a str>,
}

/// A verdict as the package's format names it: Kattis knows AC, WA, TLE
/// and RTE (a memory or output limit is a run-time error there, and there
/// is no presentation error); Polygon, CMS and TPS keep ours.
pub(crate) fn in_vocabulary(format: PackageFormat, verdict: Verdict) -> Verdict {
    match (format, verdict) {
        (PackageFormat::Polygon | PackageFormat::CmsItalian | PackageFormat::Tps, verdict) => {
            verdict
        }
        (_, Verdict::MemoryLimitExceeded | Verdict::OutputLimitExceeded) => Verdict::RuntimeError,
        (_, Verdict::PresentationError) => Verdict::WrongAnswer,
        (_, verdict) => verdict,
    }
}

/// What a submission got, for checking its expectation.
pub(crate) struct Got<'a> {
    /// The verdict of the first test not accepted, in test order (CE and
    /// JE when the submission never ran).
    pub(crate) overall: Verdict,
    pub(crate) tests: &'a [Seen<'a>],
    pub(crate) score: Option<f64>,
    pub(crate) group_scores: &'a BTreeMap<String, f64>,
    /// The score a fully accepted submission gets.
    pub(crate) max_score: Option<f64>,
}

/// What a submission did that its expectation does not allow.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum Broken {
    #[error("it got {0}")]
    NeverRan(&'static str),
    #[error("expected {expected}, got {got}")]
    Verdict {
        expected: &'static str,
        got: &'static str,
    },
    #[error("expected less than the full score")]
    FullScore,
    #[error("expected one of {expected}, got {got}")]
    NotOneOf { expected: String, got: &'static str },
    #[error("expected score {wanted}, got {got}")]
    Score { wanted: f64, got: f64 },
    #[error("expected score {wanted}, but none was given")]
    NoScore { wanted: f64 },
    #[error(transparent)]
    Rule(#[from] BrokenRule),
    /// A legacy group's score left its `range`, whatever the submission
    /// was expected to get (problemtools reports it as the package's error).
    #[error("score {score} on {group} is outside its range [{low}, {high}]")]
    OutOfRange {
        score: f64,
        group: String,
        low: f64,
        high: f64,
    },
}

/// `Ok` when `got` meets `expectation`, else every rule it breaks.
pub(crate) fn check(
    format: PackageFormat,
    expectation: &Expectation,
    got: &Got<'_>,
) -> Result<(), Vec<Broken>> {
    let word = |v: Verdict| in_vocabulary(format, v);
    // A submission that never ran meets no expectation (the package is
    // broken), unless its `@EXPECTED_RESULTS@` line allows a compile error.
    let may_not_compile = matches!(expectation, Expectation::OneOf { verdicts, .. } if verdicts.contains(&Verdict::CompileError));
    if got.overall == Verdict::CompileError && may_not_compile {
        return Ok(());
    }
    if matches!(got.overall, Verdict::CompileError | Verdict::JudgeError) {
        return Err(vec![Broken::NeverRan(got.overall.short())]);
    }
    let mut broken = Vec::new();
    match expectation {
        Expectation::NotRun => {}
        Expectation::Overall { verdict, partial } => {
            if word(got.overall) != *verdict {
                broken.push(Broken::Verdict {
                    expected: verdict.short(),
                    got: word(got.overall).short(),
                });
            }
            let full = matches!((got.score, got.max_score), (Some(s), Some(m)) if s >= m - 1e-9);
            if *partial && got.overall == Verdict::Accepted && full {
                broken.push(Broken::FullScore);
            }
        }
        Expectation::Rules(rules) => {
            for rule in rules {
                broken.extend(check_rule(rule, got, &word).err().map(Broken::Rule));
            }
        }
        Expectation::OneOf { verdicts, score } => {
            if !verdicts.contains(&word(got.overall)) {
                broken.push(Broken::NotOneOf {
                    expected: one_of(verdicts),
                    got: word(got.overall).short(),
                });
            }
            match (score, got.score) {
                (Some(wanted), Some(got)) if (wanted - got).abs() > 1e-6 => {
                    broken.push(Broken::Score {
                        wanted: *wanted,
                        got,
                    });
                }
                (Some(wanted), None) => {
                    broken.push(Broken::NoScore { wanted: *wanted });
                }
                _ => {}
            }
        }
    }
    if broken.is_empty() {
        Ok(())
    } else {
        Err(broken)
    }
}

/// A rule of `submissions.yaml` a submission broke; `origin` names the
/// rule, `scope` its tests (` on GLOB`, or empty).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum BrokenRule {
    #[error("{origin}: permitted [{permitted}]{scope}, but {test} got {got}")]
    NotPermitted {
        origin: String,
        permitted: String,
        scope: String,
        test: String,
        got: &'static str,
    },
    #[error("{origin}: required one of [{required}]{scope}, got none")]
    NoneRequired {
        origin: String,
        required: String,
        scope: String,
    },
    #[error("{origin}: score {wanted}{scope}, got {score}")]
    Score {
        origin: String,
        wanted: String,
        scope: String,
        score: f64,
    },
    #[error("{origin}: score{scope}, but none was given")]
    NoScore { origin: String, scope: String },
    #[error("{origin}: no judge message{scope} contains {message:?}")]
    NoMessage {
        origin: String,
        scope: String,
        message: String,
    },
}

fn check_rule(
    rule: &ExpectationRule,
    got: &Got<'_>,
    word: &dyn Fn(Verdict) -> Verdict,
) -> Result<(), BrokenRule> {
    let covered: Vec<&Seen<'_>> = got
        .tests
        .iter()
        .filter(|seen| rule.applies_to(seen.test))
        .collect();
    let names = |set: &[Verdict]| set.iter().map(|v| v.short()).collect::<Vec<_>>().join(", ");
    let scope = rule
        .tests
        .as_deref()
        .map(|glob| format!(" on {glob}"))
        .unwrap_or_default();
    let origin = rule.origin.clone();
    if let Some(permitted) = &rule.permitted {
        if let Some(seen) = covered
            .iter()
            .find(|seen| !permitted.contains(&word(seen.verdict)))
        {
            return Err(BrokenRule::NotPermitted {
                origin,
                permitted: names(permitted),
                scope,
                test: seen.test.to_string(),
                got: word(seen.verdict).short(),
            });
        }
    }
    if let Some(required) = &rule.required {
        if !covered
            .iter()
            .any(|seen| required.contains(&word(seen.verdict)))
        {
            return Err(BrokenRule::NoneRequired {
                origin,
                required: names(required),
                scope,
            });
        }
    }
    if let Some((low, high)) = rule.score {
        let score = match &rule.tests {
            None => got.score,
            Some(glob) => got.group_scores.get(glob.trim_end_matches('/')).copied(),
        };
        match score {
            Some(score) if score >= low - 1e-9 && score <= high + 1e-9 => {}
            Some(score) => {
                return Err(BrokenRule::Score {
                    origin,
                    wanted: range(low, high),
                    scope,
                    score,
                });
            }
            None => return Err(BrokenRule::NoScore { origin, scope }),
        }
    }
    if let Some(message) = &rule.message {
        if !covered
            .iter()
            .any(|seen| seen.message.is_some_and(|m| m.contains(message.as_str())))
        {
            return Err(BrokenRule::NoMessage {
                origin,
                scope,
                message: message.clone(),
            });
        }
    }
    Ok(())
}

fn one_of(set: &[Verdict]) -> String {
    set.iter().map(|v| v.short()).collect::<Vec<_>>().join("|")
}

fn range(low: f64, high: f64) -> String {
    if low == high {
        format!("{low}")
    } else {
        format!("[{low}, {high}]")
    }
}

/// A short text of what an expectation asks, for the verify table.
pub(crate) fn describe(expectation: &Expectation) -> String {
    match expectation {
        Expectation::NotRun => "not run".into(),
        Expectation::Overall { verdict, partial } => match partial {
            true => format!("{} partial", verdict.short()),
            false => verdict.short().into(),
        },
        Expectation::OneOf { verdicts, .. } => one_of(verdicts),
        Expectation::Rules(rules) => {
            let global = rules.iter().find(|r| r.tests.is_none());
            let set = |set: &Option<Vec<Verdict>>| {
                set.as_ref()
                    .map(|s| s.iter().map(|v| v.short()).collect::<Vec<_>>().join("|"))
            };
            match global {
                Some(rule) => set(&rule.required)
                    .or_else(|| set(&rule.permitted))
                    .unwrap_or_else(|| "rules".into()),
                None => "rules".into(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Accepted as AC, TimeLimitExceeded as TLE, WrongAnswer as WA};

    fn rule(tests: Option<&str>, permitted: &[Verdict], required: &[Verdict]) -> ExpectationRule {
        ExpectationRule {
            tests: tests.map(String::from),
            permitted: (!permitted.is_empty()).then(|| permitted.to_vec()),
            required: (!required.is_empty()).then(|| required.to_vec()),
            score: None,
            message: None,
            origin: "test".into(),
        }
    }

    fn got<'a>(tests: &'a [Seen<'a>], groups: &'a BTreeMap<String, f64>) -> Got<'a> {
        Got {
            overall: tests
                .iter()
                .map(|s| s.verdict)
                .find(|v| *v != AC)
                .unwrap_or(AC),
            tests,
            score: Some(70.0),
            group_scores: groups,
            max_score: Some(100.0),
        }
    }

    fn seen(test: &str, verdict: Verdict) -> Seen<'_> {
        Seen {
            test,
            verdict,
            message: None,
        }
    }

    #[test]
    fn permitted_required_and_scoped_rules() {
        let groups = BTreeMap::new();
        let tests = [
            seen("sample/1", AC),
            seen("secret/a/1", AC),
            seen("secret/b/1", TLE),
        ];
        let got = got(&tests, &groups);
        let tle = Expectation::Rules(vec![rule(None, &[AC, TLE], &[TLE])]);
        assert!(check(PackageFormat::Kattis2025, &tle, &got).is_ok());
        let accepted = Expectation::Rules(vec![rule(None, &[AC], &[])]);
        let why = check(PackageFormat::Kattis2025, &accepted, &got).unwrap_err();
        assert!(why[0].to_string().contains("secret/b/1 got TLE"), "{why:?}");
        let scoped = Expectation::Rules(vec![
            rule(Some("secret/a"), &[AC], &[]),
            rule(Some("secret/b"), &[], &[TLE]),
        ]);
        assert!(check(PackageFormat::Kattis2025, &scoped, &got).is_ok());
        let wrong = Expectation::Rules(vec![rule(Some("secret/a"), &[], &[WA])]);
        assert!(check(PackageFormat::Kattis2025, &wrong, &got).is_err());
    }

    #[test]
    fn kattis_has_no_presentation_error_or_memory_verdict() {
        let groups = BTreeMap::new();
        let tests = [seen("1", Verdict::MemoryLimitExceeded)];
        let got = got(&tests, &groups);
        let rte = Expectation::Overall {
            verdict: Verdict::RuntimeError,
            partial: false,
        };
        assert!(check(PackageFormat::KattisLegacy, &rte, &got).is_ok());
        let mle = Expectation::Rules(vec![rule(None, &[], &[Verdict::MemoryLimitExceeded])]);
        assert!(check(PackageFormat::Polygon, &mle, &got).is_ok());
    }

    #[test]
    fn scores_and_partial_acceptance() {
        let mut groups = BTreeMap::new();
        groups.insert("secret/a".to_string(), 40.0);
        let tests = [seen("secret/a/1", AC)];
        let got = got(&tests, &groups);
        let mut scored = rule(None, &[], &[]);
        scored.score = Some((70.0, 70.0));
        let mut group = rule(Some("secret/a"), &[], &[]);
        group.score = Some((0.0, 30.0));
        let why = check(
            PackageFormat::Kattis2025,
            &Expectation::Rules(vec![scored, group]),
            &got,
        )
        .unwrap_err();
        assert_eq!(why.len(), 1, "{why:?}");
        assert!(why[0].to_string().contains("got 40"), "{why:?}");
        let partial = Expectation::Overall {
            verdict: AC,
            partial: true,
        };
        assert!(check(PackageFormat::KattisLegacy, &partial, &got).is_ok());
    }

    #[test]
    fn a_submission_that_never_ran_meets_nothing() {
        let groups = BTreeMap::new();
        let mut got = got(&[], &groups);
        got.overall = Verdict::CompileError;
        let anything = Expectation::Rules(vec![rule(None, &[], &[])]);
        assert!(check(PackageFormat::Kattis2025, &anything, &got).is_err());
    }
}
