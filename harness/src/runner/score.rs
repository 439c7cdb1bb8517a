//! A submission's verdict and score from its tests' reports, by the one
//! scoring engine (`formats::scoring`): a package's own groups and rules,
//! or a `problem.toml` problem's test folders aggregated by `[scoring]`.

use std::collections::BTreeMap;

use crate::formats::{Aggregation, Judged, Package};
use crate::spec::{ProblemSpec, ScoreAggregate};
use crate::verdict::Verdict;

use super::TestReport;

/// The submission's verdict: a package's own grader's where it decides
/// (legacy Kattis groups), else that of its first test not accepted
/// (Kattis).
pub(super) fn task_verdict(problem: &ProblemSpec, tests: &[TestReport]) -> Verdict {
    problem
        .package
        .as_deref()
        .and_then(|package| crate::formats::package_verdict(package, &judged(tests)))
        .unwrap_or_else(|| {
            tests
                .iter()
                .map(|t| t.verdict)
                .find(|v| *v != Verdict::Accepted)
                .unwrap_or(Verdict::Accepted)
        })
}

/// The submission's score on a scored problem: by the package's groups,
/// or the sum over test folders of each folder's tests aggregated by sum
/// or min (samples left out). `None` on a problem that is not scored.
pub(super) fn task_score(problem: &ProblemSpec, tests: &[TestReport]) -> Option<f64> {
    match &problem.package {
        Some(package) => package_score(package, tests).map(|(score, _)| score),
        None => folder_score(tests, problem.aggregate),
    }
}

/// A `problem.toml` problem's score: by its test folders.
fn folder_score(tests: &[TestReport], aggregate: ScoreAggregate) -> Option<f64> {
    let aggregation = match aggregate {
        ScoreAggregate::Sum => Aggregation::Sum,
        ScoreAggregate::Min => Aggregation::Min,
    };
    let judged: Vec<(&str, Judged<'_>)> = tests
        .iter()
        .zip(judged(tests))
        .map(|(t, j)| (t.group.as_str(), j))
        .collect();
    crate::formats::folder_score(aggregation, &judged)
}

/// A scoring package's score and each group's, by its own groups.
pub(crate) fn package_score(
    package: &Package,
    tests: &[TestReport],
) -> Option<(f64, BTreeMap<String, f64>)> {
    crate::formats::package_score(package, &judged(tests))
}

fn judged(tests: &[TestReport]) -> Vec<Judged<'_>> {
    tests
        .iter()
        .map(|t| Judged {
            test: &t.test,
            verdict: t.verdict,
            score: t.score,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(group: &str, verdict: Verdict, score: Option<f64>) -> TestReport {
        TestReport {
            group: group.into(),
            verdict,
            score,
            ..TestReport::unjudged(&crate::spec::TestCase {
                name: format!("{group}/x"),
                group: group.into(),
                input: "x.in".into(),
                answer: "x.ans".into(),
                ..Default::default()
            })
        }
    }

    #[test]
    fn groups_aggregate_by_sum_or_min_and_add_up() {
        let tests = [
            test("sample", Verdict::Accepted, Some(100.0)),
            test("secret/a", Verdict::Accepted, Some(10.0)),
            test("secret/a", Verdict::Accepted, Some(4.0)),
            test("secret/b", Verdict::Accepted, Some(7.0)),
            test("secret/b", Verdict::WrongAnswer, Some(7.0)),
        ];
        // Samples never count; a rejected test scores 0.
        assert_eq!(folder_score(&tests, ScoreAggregate::Sum), Some(14.0 + 7.0));
        assert_eq!(folder_score(&tests, ScoreAggregate::Min), Some(4.0 + 0.0));
    }

    #[test]
    fn unscored_problems_have_no_score() {
        let tests = [test("secret", Verdict::Accepted, None)];
        assert_eq!(folder_score(&tests, ScoreAggregate::Sum), None);
    }

    #[test]
    fn an_accepted_test_without_a_score_scores_nothing_and_skipped_tests_are_left_out() {
        // Only the tests judged count: a skipped test is not in the reports.
        let tests = [
            test("secret", Verdict::Accepted, Some(5.0)),
            test("secret", Verdict::Accepted, None),
            test("sample/more", Verdict::Accepted, Some(50.0)),
        ];
        assert_eq!(folder_score(&tests, ScoreAggregate::Sum), Some(5.0));
        assert_eq!(folder_score(&tests, ScoreAggregate::Min), Some(0.0));
    }
}
