//! What a teacher acts on: per problem, how the scores of all its pairs
//! are spread, the pairs that stand out of that spread, and the students
//! who share code as a group of three or more.
//!
//! A pair stands out when its score is far above the problem's usual
//! score, and above the widest gap among such scores. Far above: its
//! modified z-score (Iglewicz and Hoaglin, *How to Detect and Handle
//! Outliers*, 1993: the distance to the median over 1.4826 times the
//! median absolute deviation) is at least [`Z`], and it is at least
//! [`FLOOR`]. The scores of independent work trail off to the right, so
//! some of it is always far above the median: of the pairs far above, only
//! those above the widest drop between two scores in turn (counting the
//! drop to the first score not far above) stand out. Every pair of two
//! students' files counts, those that share nothing at 0. The bar is per
//! problem: a task where everybody writes alike raises its own. Students
//! linked by pairs that stand out form a group when there are three or
//! more of them.

use std::collections::{BTreeMap, BTreeSet};

use super::pairs::{Document, Pair};
use super::tokens::Language;

/// The modified z-score from which a pair stands out.
pub const Z: f64 = 3.5;
/// The least score that stands out, whatever the spread.
pub const FLOOR: f64 = 0.3;

/// How the scores of one problem's pairs are spread.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    pub problem: String,
    pub language: Language,
    pub files: usize,
    /// Every pair of two students' files.
    pub pairs: usize,
    pub median: f64,
    /// The score nine pairs in ten are below.
    pub p90: f64,
    /// The score from which a pair stands out (above 1: none does).
    pub threshold: f64,
    /// How many pairs stand out.
    pub standing: usize,
    /// Pairs per tenth of the score (0–10%, …, 90–100%).
    pub histogram: [usize; 10],
}

/// Students who share code as a group: linked by pairs that stand out.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub problem: String,
    pub students: Vec<String>,
    /// The pairs among them that stand out, and their lowest and highest
    /// scores.
    pub pairs: usize,
    pub lowest: f64,
    pub highest: f64,
}

type Key<'a> = (&'a str, Language);

fn key<'a>(documents: &'a [Document], pair: &Pair) -> Key<'a> {
    let a = &documents[pair.a];
    (a.problem.as_str(), a.language)
}

/// The score below which `share` of `sorted` lies.
fn quantile(sorted: &[f64], share: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() - 1) as f64 * share).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Of the scores at least `far` (far above the rest), those above the
/// widest drop between two in turn, counting the drop to the highest score
/// below `far`: the score of the last of them (above 1 when none).
fn cut(far: f64, ascending: &[f64]) -> f64 {
    let mut above = ascending.iter().rev().take_while(|s| **s >= far).copied();
    let Some(first) = above.next() else {
        return f64::INFINITY;
    };
    let candidates: Vec<f64> = std::iter::once(first).chain(above).collect();
    let below = ascending
        .iter()
        .rev()
        .find(|s| **s < far)
        .copied()
        .unwrap_or(0.0);
    let mut widest = (f64::MIN, first);
    for (i, score) in candidates.iter().enumerate() {
        let next = candidates.get(i + 1).copied().unwrap_or(below);
        if score - next > widest.0 {
            widest = (score - next, *score);
        }
    }
    widest.1
}

/// The spread of each problem's scores (pairs not listed score 0).
pub fn distributions(documents: &[Document], pairs: &[Pair]) -> Vec<Distribution> {
    let mut students: BTreeMap<Key<'_>, BTreeSet<&str>> = BTreeMap::new();
    let mut files: BTreeMap<Key<'_>, usize> = BTreeMap::new();
    for d in documents {
        let key = (d.problem.as_str(), d.language);
        students.entry(key).or_default().insert(d.student.as_str());
        *files.entry(key).or_default() += 1;
    }
    let mut scores: BTreeMap<Key<'_>, Vec<f64>> = BTreeMap::new();
    for pair in pairs {
        scores
            .entry(key(documents, pair))
            .or_default()
            .push(pair.score());
    }
    let mut out = Vec::new();
    for (key, who) in &students {
        let all = who.len() * who.len().saturating_sub(1) / 2;
        let mut sorted = scores.remove(key).unwrap_or_default();
        sorted.resize(all.max(sorted.len()), 0.0);
        sorted.sort_by(f64::total_cmp);
        let median = quantile(&sorted, 0.5);
        let mut deviations: Vec<f64> = sorted.iter().map(|s| (s - median).abs()).collect();
        deviations.sort_by(f64::total_cmp);
        let spread = 1.4826 * quantile(&deviations, 0.5);
        // When most pairs score alike the median deviation is 0: the mean
        // deviation stands in (1.2533 makes it estimate the same spread).
        let mean = deviations.iter().sum::<f64>() / deviations.len().max(1) as f64;
        let spread = if spread > 0.0 { spread } else { 1.2533 * mean };
        let threshold = cut((median + Z * spread).max(FLOOR), &sorted);
        let mut histogram = [0; 10];
        for s in &sorted {
            histogram[((s * 10.0) as usize).min(9)] += 1;
        }
        out.push(Distribution {
            problem: key.0.to_string(),
            language: key.1,
            files: files[key],
            pairs: sorted.len(),
            median,
            p90: quantile(&sorted, 0.9),
            threshold,
            standing: sorted.iter().filter(|s| **s >= threshold).count(),
            histogram,
        });
    }
    out
}

/// Whether `pair` stands out of its problem's distribution.
pub fn stands_out(documents: &[Document], distributions: &[Distribution], pair: &Pair) -> bool {
    let (problem, language) = key(documents, pair);
    distributions
        .iter()
        .find(|d| d.problem == problem && d.language == language)
        .is_some_and(|d| pair.score() >= d.threshold)
}

/// The groups of three or more students linked by pairs that stand out.
pub fn groups(
    documents: &[Document],
    pairs: &[Pair],
    distributions: &[Distribution],
) -> Vec<Group> {
    let mut out = Vec::new();
    let mut by_problem: BTreeMap<Key<'_>, Vec<&Pair>> = BTreeMap::new();
    for pair in pairs
        .iter()
        .filter(|p| stands_out(documents, distributions, p))
    {
        by_problem
            .entry(key(documents, pair))
            .or_default()
            .push(pair);
    }
    for ((problem, _), linked) in by_problem {
        // Union-find over the students of the pairs that stand out.
        let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
        fn root<'a>(parent: &mut BTreeMap<&'a str, &'a str>, s: &'a str) -> &'a str {
            let mut at = s;
            while let Some(&up) = parent.get(at).filter(|up| **up != at) {
                at = up;
            }
            parent.insert(s, at);
            at
        }
        for pair in &linked {
            let (a, b) = (
                documents[pair.a].student.as_str(),
                documents[pair.b].student.as_str(),
            );
            parent.entry(a).or_insert(a);
            parent.entry(b).or_insert(b);
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            if ra != rb {
                parent.insert(ra.max(rb), ra.min(rb));
            }
        }
        let mut members: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let students: Vec<&str> = parent.keys().copied().collect();
        for s in students {
            let r = root(&mut parent, s);
            members.entry(r).or_default().push(s);
        }
        for students in members.into_values().filter(|m| m.len() >= 3) {
            let inside: Vec<f64> = linked
                .iter()
                .filter(|p| students.contains(&documents[p.a].student.as_str()))
                .map(|p| p.score())
                .collect();
            out.push(Group {
                problem: problem.to_string(),
                students: students.iter().map(|s| (*s).to_string()).collect(),
                pairs: inside.len(),
                lowest: inside.iter().copied().fold(1.0, f64::min),
                highest: inside.iter().copied().fold(0.0, f64::max),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_the_scores_far_above_only_those_above_the_widest_drop_stand_out() {
        // Independent work trails off to 0.47; three copies at 1.
        let scores = [0.0, 0.1, 0.2, 0.38, 0.39, 0.42, 0.47, 1.0, 1.0, 1.0];
        assert_eq!(cut(0.39, &scores), 1.0);
        // Copies spread out, the widest drop below them.
        let scores = [0.0, 0.1, 0.2, 0.25, 0.45, 0.5, 0.8, 0.85, 0.9];
        assert_eq!(cut(0.45, &scores), 0.8);
        // Nothing far above: nothing stands out.
        assert!(cut(0.95, &scores) > 1.0);
    }

    #[test]
    fn quantiles_of_sorted_scores() {
        let scores = [0.0, 0.1, 0.2, 0.3, 0.4];
        assert_eq!(quantile(&scores, 0.5), 0.2);
        assert_eq!(quantile(&scores, 0.9), 0.4);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
