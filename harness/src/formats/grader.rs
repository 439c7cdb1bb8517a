//! The legacy default grader (legacy and 2023-07-draft packages, as
//! problemtools runs it): each test data group's result is its children's
//! results (its tests and subgroups, in name order) aggregated by the
//! group's `grader_flags`, from the `data/` folder down. Pure: it reads the
//! verdicts and scores of runs already made.
//!
//! - `on_reject: break` stops a group at its first rejected child;
//!   `continue` takes them all.
//! - A test's score is its validator's `score.txt`, else `accept_score`
//!   (accepted) or `reject_score` (rejected) of its group.
//! - Verdict modes: `worst_error` (the default: the first of JE, RTE, MLE,
//!   TLE, OLE, WA, PE present), `first_error`, `always_accept`; score
//!   modes: `sum` (the default), `avg`, `min`, `max`; flags:
//!   `ignore_sample` (the root only: the result is secret's, sample's
//!   verdict and score left out) and `accept_if_any_accepted`.
//!
//! So a partially accepted submission of `oddecho`'s kind is AC with a
//! partial score even when it fails a sample.

use std::collections::BTreeMap;

use super::expect::Broken;
use super::package::{LegacyGrading, Package};
use super::scoring::Judged;
use crate::verdict::Verdict;

/// A group's (or the submission's) result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Graded {
    pub(crate) verdict: Verdict,
    pub(crate) score: f64,
}

/// What the grader made of a submission's runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LegacyResult {
    /// The submission's: the `data/` folder's result.
    pub(crate) result: Graded,
    pub(crate) groups: BTreeMap<String, Graded>,
    /// Scoring problems: each group whose score is outside its `range`
    /// (problemtools reports those as errors of the package).
    pub(crate) out_of_range: Vec<Broken>,
}

/// The submission's result and each group's by name; `None` for packages
/// without legacy test data groups.
pub(crate) fn legacy_grade(package: &Package, judged: &[Judged<'_>]) -> Option<LegacyResult> {
    let root = package.legacy_root.as_ref()?;
    let mut grader = Grader {
        package,
        judged,
        groups: BTreeMap::new(),
        out_of_range: Vec::new(),
    };
    let result = grader.group(None, root).unwrap_or(Graded {
        verdict: Verdict::Accepted,
        score: 0.0,
    });
    Some(LegacyResult {
        result,
        groups: grader.groups,
        out_of_range: grader.out_of_range,
    })
}

struct Grader<'a> {
    package: &'a Package,
    judged: &'a [Judged<'a>],
    groups: BTreeMap<String, Graded>,
    out_of_range: Vec<Broken>,
}

/// A child of a group: a test or a subgroup, by name.
enum Child<'a> {
    Test(&'a str),
    Group(&'a str, &'a LegacyGrading),
}

impl<'a> Grader<'a> {
    /// The children of `group` (`None`: the `data/` folder) in name order.
    fn children(&self, group: Option<&str>) -> Vec<(&'a str, Child<'a>)> {
        let mut children: Vec<(&'a str, Child<'a>)> = self
            .package
            .tests
            .iter()
            .filter(|t| t.group.as_deref() == group)
            .map(|t| (t.name.as_str(), Child::Test(&t.name)))
            .chain(self.package.groups.iter().filter_map(|g| {
                let grading = g.legacy.as_ref()?;
                (g.parent.as_deref() == group)
                    .then_some((g.name.as_str(), Child::Group(&g.name, grading)))
            }))
            .collect();
        children.sort_by(|a, b| a.0.cmp(b.0));
        children
    }

    /// The group's result; `None` when none of its tests was judged.
    fn group(&mut self, name: Option<&str>, grading: &LegacyGrading) -> Option<Graded> {
        let mut results = Vec::new();
        for (_, child) in self.children(name) {
            let result = match child {
                Child::Test(test) => {
                    let Some(judged) = self.judged.iter().find(|j| j.test == test) else {
                        continue;
                    };
                    let score = match (judged.verdict, judged.score) {
                        (Verdict::Accepted, Some(score)) => score,
                        (Verdict::Accepted, None) => grading.accept_score,
                        _ => grading.reject_score,
                    };
                    Graded {
                        verdict: judged.verdict,
                        score,
                    }
                }
                Child::Group(group, sub) => match self.group(Some(group), sub) {
                    Some(result) => result,
                    None => continue,
                },
            };
            results.push(result);
            if result.verdict != Verdict::Accepted && grading.stop_on_reject {
                break;
            }
        }
        if results.is_empty() {
            return None;
        }
        let result = aggregate(&results, &grading.grader_flags);
        let (low, high) = grading.range;
        if self.package.scoring && !(low - 1e-9..=high + 1e-9).contains(&result.score) {
            self.out_of_range.push(Broken::OutOfRange {
                score: result.score,
                group: name.unwrap_or("data").to_string(),
                low,
                high,
            });
        }
        if let Some(name) = name {
            self.groups.insert(name.to_string(), result);
        }
        Some(result)
    }
}

/// The default grader on one group's children's results.
fn aggregate(results: &[Graded], flags: &[String]) -> Graded {
    if let Some(error) = results.iter().find(|r| r.verdict == Verdict::JudgeError) {
        return *error;
    }
    let has = |flag: &str| flags.iter().any(|f| f == flag);
    // `ignore_sample` is for the root, whose children are sample and secret.
    let results = match results {
        [_, secret] if has("ignore_sample") => std::slice::from_ref(secret),
        _ => results,
    };
    // The last mode given wins.
    let verdict_mode = flags
        .iter()
        .rev()
        .map(String::as_str)
        .find(|f| ["worst_error", "no_errors", "first_error", "always_accept"].contains(f))
        .unwrap_or("worst_error");
    let score_mode = flags
        .iter()
        .rev()
        .map(String::as_str)
        .find(|f| ["sum", "avg", "min", "max"].contains(f))
        .unwrap_or("sum");
    let any_accepted = results.iter().any(|r| r.verdict == Verdict::Accepted);
    let verdict = match verdict_mode {
        _ if has("accept_if_any_accepted") && any_accepted => Verdict::Accepted,
        "always_accept" => Verdict::Accepted,
        "first_error" => results
            .iter()
            .map(|r| r.verdict)
            .find(|v| *v != Verdict::Accepted)
            .unwrap_or(Verdict::Accepted),
        _ => worst(results),
    };
    let scores = results.iter().map(|r| r.score);
    let score = match score_mode {
        "avg" => scores.sum::<f64>() / results.len() as f64,
        "min" => scores.fold(f64::INFINITY, f64::min),
        "max" => scores.fold(f64::NEG_INFINITY, f64::max),
        _ => scores.sum(),
    };
    Graded { verdict, score }
}

/// `worst_error`: the first of JE, RTE, MLE, TLE, OLE, WA, PE present.
fn worst(results: &[Graded]) -> Verdict {
    const ORDER: [Verdict; 7] = [
        Verdict::JudgeError,
        Verdict::RuntimeError,
        Verdict::MemoryLimitExceeded,
        Verdict::TimeLimitExceeded,
        Verdict::OutputLimitExceeded,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
    ];
    ORDER
        .into_iter()
        .find(|v| results.iter().any(|r| r.verdict == *v))
        .unwrap_or(Verdict::Accepted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graded(verdict: Verdict, score: f64) -> Graded {
        Graded { verdict, score }
    }

    fn flags(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_default_grader_modes_and_flags() {
        use Verdict::{Accepted as AC, TimeLimitExceeded as TLE, WrongAnswer as WA};
        let results = [graded(AC, 1.0), graded(WA, 0.0), graded(TLE, 0.0)];
        // worst_error ranks TLE before WA; first_error takes the first.
        assert_eq!(aggregate(&results, &[]), graded(TLE, 1.0));
        assert_eq!(aggregate(&results, &flags("first_error")), graded(WA, 1.0));
        assert_eq!(
            aggregate(&results, &flags("always_accept max")),
            graded(AC, 1.0)
        );
        assert_eq!(
            aggregate(&results, &flags("accept_if_any_accepted avg")).verdict,
            AC
        );
        assert_eq!(aggregate(&results, &flags("min")).score, 0.0);
        // ignore_sample: only the second result (secret) counts.
        let root = [graded(WA, 0.0), graded(AC, 50.0)];
        assert_eq!(aggregate(&root, &flags("ignore_sample")), graded(AC, 50.0));
        assert_eq!(aggregate(&root, &[]), graded(WA, 50.0));
    }
}

#[cfg(test)]
mod fixture_tests {
    use super::*;
    use crate::formats::tests::read;

    /// Judges `pickmax` with every test accepted except those named.
    fn grade(package: &Package, rejected: &[&str]) -> LegacyResult {
        let judged: Vec<Judged<'_>> = package
            .tests
            .iter()
            .map(|t| Judged {
                test: &t.name,
                verdict: match rejected.contains(&t.name.as_str()) {
                    true => Verdict::WrongAnswer,
                    false => Verdict::Accepted,
                },
                score: None,
            })
            .collect();
        legacy_grade(package, &judged).unwrap()
    }

    #[test]
    fn samples_ignored_and_any_accepted_group_accepts_secret() {
        let package = read("pickmax");
        let full = grade(&package, &[]);
        assert_eq!(full.result, graded(Verdict::Accepted, 100.0));
        // first_ten.py: the second sample and group2 wrong.
        let partial = grade(&package, &["sample/2", "secret/group2/01-twenty"]);
        assert_eq!(partial.result, graded(Verdict::Accepted, 40.0));
        assert_eq!(
            partial.groups["secret/group2"],
            graded(Verdict::WrongAnswer, 0.0)
        );
        assert_eq!(partial.groups["sample"].verdict, Verdict::WrongAnswer);
        assert!(
            partial.out_of_range.is_empty(),
            "{:?}",
            partial.out_of_range
        );
        // Both groups wrong: secret's first error.
        let wrong = grade(
            &package,
            &["secret/group1/02-five", "secret/group2/01-twenty"],
        );
        assert_eq!(wrong.result, graded(Verdict::WrongAnswer, 0.0));
    }

    #[test]
    fn a_score_outside_a_groups_range_is_reported() {
        let mut package = read("pickmax");
        for group in &mut package.groups {
            if group.name == "secret/group1" {
                group.legacy.as_mut().unwrap().range = (0.0, 30.0);
            }
        }
        let graded = grade(&package, &[]);
        let said: Vec<String> = graded.out_of_range.iter().map(|b| b.to_string()).collect();
        assert_eq!(
            said,
            ["score 40 on secret/group1 is outside its range [0, 30]"]
        );
    }

    fn graded(verdict: Verdict, score: f64) -> Graded {
        Graded { verdict, score }
    }
}
