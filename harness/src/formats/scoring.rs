//! The one scoring engine: a submission's score from its tests' verdicts
//! and scores, by groups. A package's own groups — Kattis 2025-09
//! `test_group.yaml` (`pass-fail`, `sum`, `min`, `max_score`,
//! `require_pass`), legacy `testdata.yaml` groups (by the default grader,
//! `grader.rs`), Polygon groups with points — or, for a `problem.toml`
//! problem, its test folders, each a group aggregated by `[scoring]`.
//! Samples never count (`is_sample_group`). Pure: no run.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::expect::Broken;
use super::grader::legacy_grade;
use super::package::{Aggregation, MaxScore, OutputJudging, Package, TestGroup, is_sample_group};
use super::protocol::testlib_points_score;
use crate::verdict::Verdict;

/// The submission's overall verdict where the package's own rules decide
/// it (the legacy default grader); `None`: the first rejected test's.
pub(crate) fn package_verdict(package: &Package, judged: &[Judged<'_>]) -> Option<Verdict> {
    legacy_grade(package, judged).map(|graded| graded.result.verdict)
}

/// Legacy groups whose score left their `range`, said as broken rules.
pub(crate) fn out_of_range(package: &Package, judged: &[Judged<'_>]) -> Vec<Broken> {
    legacy_grade(package, judged).map_or_else(Vec::new, |graded| graded.out_of_range)
}

/// What scoring needs of one judged test.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Judged<'a> {
    pub(crate) test: &'a str,
    pub(crate) verdict: Verdict,
    /// The checker's score (Kattis `score.txt`, testlib points), if any.
    pub(crate) score: Option<f64>,
}

/// The submission's score and each group's, by group name; `None` for a
/// package that is not scored. Tests not judged (skipped) count as failed.
pub(crate) fn package_score(
    package: &Package,
    judged: &[Judged<'_>],
) -> Option<(f64, BTreeMap<String, f64>)> {
    if !package.scoring {
        return None;
    }
    if let Some(graded) = legacy_grade(package, judged) {
        let groups = graded
            .groups
            .into_iter()
            .map(|(name, g)| (name, g.score))
            .collect();
        return Some((graded.result.score, groups));
    }
    // A test judged twice (never, in a plan) counts by its first report.
    let mut by_name = std::collections::HashMap::new();
    for j in judged {
        by_name.entry(j.test).or_insert(*j);
    }
    Some(package_rules(package, |name| by_name.get(name).copied()).score())
}

/// The maximum score of the test `name` of a 2025-09 scoring package,
/// which its validator's `score_multiplier.txt` multiplies: a static
/// validation case's `static_validation_score`, a test's group
/// `max_score` under `min`, its share of it under `sum`. `None` where the
/// specification gives a test no bounded maximum (a `pass-fail` or
/// unbounded group, a problem that is not scored, legacy groups).
pub(crate) fn test_max_score(package: &Package, name: &str) -> Option<f64> {
    if !package.scoring || package.legacy_root.is_some() {
        return None;
    }
    if let Some(case) = package.static_cases.iter().find(|c| c.name == name) {
        return case.max_score;
    }
    let test = package.tests.iter().find(|t| t.name == name)?;
    let group = package
        .groups
        .iter()
        .find(|g| Some(g.name.as_str()) == test.group.as_deref())?;
    if matches!(group.max_score, MaxScore::Unbounded)
        || !matches!(group.aggregation, Aggregation::Sum | Aggregation::Min)
    {
        return None;
    }
    let rules = package_rules(package, |_| None);
    Some(rules.share(group, test.points))
}

/// A package's groups and tests as the scoring rules see them, each test
/// judged as `judged` says.
fn package_rules<'a>(
    package: &'a Package,
    judged: impl Fn(&str) -> Option<Judged<'a>>,
) -> Rules<'a> {
    Rules {
        groups: Cow::Borrowed(&package.groups),
        tests: package
            .tests
            .iter()
            .map(|t| Ruled {
                group: t.group.as_deref(),
                points: t.points,
                sample: t.sample,
                judged: judged(&t.name),
            })
            // A static validation case is worth its `static_validation_score`.
            .chain(package.static_cases.iter().map(|case| Ruled {
                group: Some(case.group.as_str()),
                points: case.max_score,
                sample: is_sample_group(&case.group),
                judged: judged(&case.name),
            }))
            .collect(),
        // A CMS checker's (or manager's) fraction comes as a percentage of
        // the test's points.
        points_are_percent: matches!(
            package.output,
            OutputJudging::TestlibChecker {
                points_are_percent: true,
                ..
            } | OutputJudging::CmsChecker(_)
                | OutputJudging::CmsManager { .. }
        ),
    }
}

/// A `problem.toml` problem's score: each folder of the tests judged is a
/// group of its own, its tests' scores (the checker's for an accepted
/// test, else 0) aggregated by `aggregation`, and the groups summed.
/// `judged` pairs each test with its folder. `None` when no test was
/// scored.
pub(crate) fn folder_score(aggregation: Aggregation, judged: &[(&str, Judged<'_>)]) -> Option<f64> {
    if judged.iter().all(|(_, j)| j.score.is_none()) {
        return None;
    }
    let folders: std::collections::BTreeSet<&str> = judged.iter().map(|(g, _)| *g).collect();
    let rules = Rules {
        groups: folders
            .into_iter()
            .map(|name| TestGroup {
                name: name.to_string(),
                parent: None,
                aggregation,
                // No score of its own to share out: an accepted test
                // that its checker gave no score scores 0.
                max_score: MaxScore::Unbounded,
                require_pass: Vec::new(),
                legacy: None,
            })
            .collect(),
        tests: judged
            .iter()
            .map(|(group, j)| Ruled {
                group: Some(group),
                points: None,
                sample: is_sample_group(group),
                judged: Some(*j),
            })
            .collect(),
        points_are_percent: false,
    };
    Some(rules.score().0)
}

/// What a score is computed over: groups (a tree by `parent`) and tests,
/// each in at most one group.
struct Rules<'a> {
    groups: Cow<'a, [TestGroup]>,
    tests: Vec<Ruled<'a>>,
    /// A checker's points are a percentage of the test's own (Polygon's
    /// "treat points from checker as percent").
    points_are_percent: bool,
}

/// A test as the rules see it.
struct Ruled<'a> {
    /// The innermost group, if any.
    group: Option<&'a str>,
    /// The test's own points (Polygon), else a share of its group's.
    points: Option<f64>,
    sample: bool,
    /// How it was judged; `None`: not judged (skipped), so failed.
    judged: Option<Judged<'a>>,
}

impl Rules<'_> {
    /// The total and each group's score.
    fn score(&self) -> (f64, BTreeMap<String, f64>) {
        let mut groups = BTreeMap::new();
        for group in self.groups.iter() {
            groups.insert(group.name.clone(), self.group(group));
        }
        // Top-level groups and tests outside every group; samples never count.
        let mut total: f64 = self
            .groups
            .iter()
            .filter(|g| g.parent.is_none() && !is_sample_group(&g.name))
            .map(|g| groups[&g.name])
            .sum();
        total += self
            .tests
            .iter()
            .filter(|t| t.group.is_none() && !t.sample)
            .map(|t| self.test(t, t.points.unwrap_or(0.0)))
            .sum::<f64>();
        (total, groups)
    }

    /// An accepted test's score: the checker's (a percentage of `max` with
    /// Polygon's "treat points from checker as percent"), else its share `max`.
    fn test(&self, test: &Ruled<'_>, max: f64) -> f64 {
        match test.judged {
            Some(j) if j.verdict == Verdict::Accepted => j.score.map_or(max, |points| {
                testlib_points_score(points, Some(max), self.points_are_percent)
            }),
            _ => 0.0,
        }
    }

    /// Whether every test in `group` and its subgroups was accepted.
    fn all_accepted(&self, group: &str) -> bool {
        let prefix = format!("{group}/");
        self.tests
            .iter()
            .filter(|t| {
                t.group
                    .is_some_and(|g| g == group || g.starts_with(&prefix))
            })
            .all(|t| t.judged.is_some_and(|j| j.verdict == Verdict::Accepted))
    }

    fn children<'g>(&'g self, group: &'g TestGroup) -> impl Iterator<Item = &'g TestGroup> {
        self.groups
            .iter()
            .filter(move |g| g.parent.as_deref() == Some(group.name.as_str()))
    }

    /// The maximum score of a test of `group` with its own `points`: those
    /// points (Polygon, a static validation case), else the group's score
    /// under `min`, or under `sum` the group's score less its subgroups'
    /// and those points, split over its other tests (2025-09:
    /// `(max_score - static_validation_score) / N`).
    fn share(&self, group: &TestGroup, points: Option<f64>) -> f64 {
        let max = match group.max_score {
            MaxScore::Bounded(max) => max,
            MaxScore::Unbounded => 0.0,
        };
        if let Some(points) = points {
            return points;
        }
        if group.aggregation == Aggregation::Min {
            return max;
        }
        let children_max: f64 = self
            .children(group)
            .map(|g| match g.max_score {
                MaxScore::Bounded(max) => max,
                MaxScore::Unbounded => 0.0,
            })
            .sum();
        let tests = self
            .tests
            .iter()
            .filter(|t| t.group == Some(group.name.as_str()));
        let (own_points, shared) =
            tests.fold((0.0, 0usize), |(points, shared), t| match t.points {
                Some(p) => (points + p, shared),
                None => (points, shared + 1),
            });
        (max - children_max - own_points).max(0.0) / shared.max(1) as f64
    }

    fn group(&self, group: &TestGroup) -> f64 {
        if group
            .require_pass
            .iter()
            .any(|required| !self.all_accepted(required))
        {
            return 0.0;
        }
        let max = match group.max_score {
            MaxScore::Bounded(max) => max,
            MaxScore::Unbounded => 0.0,
        };
        if group.aggregation == Aggregation::PassFail {
            return if self.all_accepted(&group.name) {
                max
            } else {
                0.0
            };
        }
        let tests: Vec<_> = self
            .tests
            .iter()
            .filter(|t| t.group == Some(group.name.as_str()))
            .collect();
        let scores: Vec<f64> = tests
            .iter()
            .map(|t| self.test(t, self.share(group, t.points)))
            .chain(self.children(group).map(|g| self.group(g)))
            .collect();
        match group.aggregation {
            Aggregation::Sum | Aggregation::PassFail => scores.iter().sum(),
            Aggregation::Min => scores.iter().copied().reduce(f64::min).unwrap_or(0.0),
            Aggregation::Max => scores.iter().copied().reduce(f64::max).unwrap_or(0.0),
            Aggregation::Average => scores.iter().sum::<f64>() / scores.len().max(1) as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::read_package;
    use std::path::Path;

    fn fixture(name: &str) -> Package {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/ecosystem/problems")
            .join(name);
        read_package(&dir).unwrap().unwrap()
    }

    fn score(package: &Package, failing: &[&str]) -> f64 {
        let judged: Vec<Judged<'_>> = package
            .tests
            .iter()
            .map(|t| Judged {
                test: &t.name,
                verdict: if failing.iter().any(|f| t.name.contains(f)) {
                    Verdict::WrongAnswer
                } else {
                    Verdict::Accepted
                },
                score: None,
            })
            .collect();
        package_score(package, &judged).unwrap().0
    }

    #[test]
    fn kattis_groups_pass_fail_sum_and_require_pass() {
        let package = fixture("subtraction");
        assert_eq!(score(&package, &[]), 100.0);
        // group2 sums: four tests of 15 points each.
        assert_eq!(score(&package, &["group2/03-huge"]), 85.0);
        // group1 is pass-fail, and group2 requires it.
        assert_eq!(score(&package, &["group1/02"]), 0.0);
        // group2 also requires the samples.
        let sample = package
            .tests
            .iter()
            .find(|t| t.sample)
            .unwrap()
            .name
            .clone();
        assert_eq!(score(&package, &[&sample]), 40.0);
    }

    #[test]
    fn polygon_points_each_test_and_complete_group_with_dependency() {
        let package = fixture("pebbles");
        let full = score(&package, &[]);
        assert_eq!(full, 100.0);
        let small = package
            .tests
            .iter()
            .find(|t| t.group.as_deref() == Some("small"))
            .unwrap();
        let points = small.points.unwrap();
        // `large` depends on `small`: one failed small test costs its
        // points and the whole of `large`.
        assert_eq!(score(&package, &[&small.name]), 40.0 - points);
    }

    #[test]
    fn a_tests_maximum_score_is_its_share_of_a_bounded_sum_or_min_group() {
        let nearecho = fixture("nearecho");
        assert_eq!(test_max_score(&nearecho, "secret/1-zero"), Some(50.0));
        assert_eq!(test_max_score(&nearecho, "sample/1"), None);
        // group2 sums four tests of 15; group1 is pass-fail.
        let subtraction = fixture("subtraction");
        let in_group = |group: &str| {
            let test = subtraction
                .tests
                .iter()
                .find(|t| t.group.as_deref() == Some(group))
                .unwrap();
            test_max_score(&subtraction, &test.name)
        };
        assert_eq!(in_group("secret/group2"), Some(15.0));
        assert_eq!(in_group("secret/group1"), None);
        // The static case is worth 20; the two tests share the other 80.
        let staticecho = fixture("staticecho");
        assert_eq!(
            test_max_score(&staticecho, "secret/static_validation"),
            Some(20.0)
        );
        assert_eq!(test_max_score(&staticecho, "secret/1-zero"), Some(40.0));
        assert_eq!(test_max_score(&fixture("nimmove"), "secret/01"), None);
    }

    #[test]
    fn unscored_packages_have_no_score() {
        let package = fixture("nimmove");
        assert!(package_score(&package, &[]).is_none());
    }
}
