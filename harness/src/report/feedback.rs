//! Feedback for each student: what a student may see of their own results,
//! under visibility rules chosen by the teacher. Built here once as a
//! [`Feedback`] value, then written as a page (`feedback_page.rs`: HTML and
//! Markdown, ready to send or to commit back as `FEEDBACK.md`) and used by
//! the Gradescope export, so every view hides the same things.
//!
//! Visibility, per kind of test: `full` (verdict, time, memory, the first
//! difference and the diff around it), `verdict` (verdict and time only)
//! or `hidden` (only how many tests there were). Samples default to full,
//! secret tests to verdict.

use std::path::Path;

use clap::ValueEnum;

use super::gradebook::{Cell, Gradebook, Handin, ProblemInfo};
use super::policy::{Policy, Totals};
use crate::runner::TestReport;
use crate::verdict::Verdict;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Visibility {
    /// Verdict, time, memory, the first difference and the diff.
    Full,
    /// Verdict and time only.
    Verdict,
    /// Only how many tests there were.
    Hidden,
}

/// What students may see of samples and of secret tests.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub samples: Visibility,
    pub secret: Visibility,
}

impl Rules {
    pub fn for_test(&self, test: &TestReport) -> Visibility {
        if test.is_sample() {
            self.samples
        } else {
            self.secret
        }
    }
}

/// One student's feedback.
#[derive(Debug, Clone)]
pub struct Feedback<'a> {
    pub student: &'a str,
    pub run: &'a super::gradebook::RunInfo,
    pub problems: Vec<ProblemFeedback<'a>>,
    /// The total under the grading policy, and what it is out of.
    pub total: Option<(String, String)>,
    pub late_rule: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ProblemFeedback<'a> {
    pub problem: &'a ProblemInfo,
    /// `None`: no submission.
    pub graded: Option<Graded<'a>>,
    /// What the cell adds to the total, under the policy.
    pub points: Option<String>,
    /// The late penalty taken, as a percentage.
    pub penalty: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Graded<'a> {
    pub path: &'a str,
    pub verdict: Verdict,
    pub score: Option<f64>,
    /// The compile error, or what stopped the submission before any test.
    pub message: Option<&'a str>,
    pub handin: Option<&'a Handin>,
    /// The tests the rules show, each with how much of it.
    pub shown: Vec<(&'a TestReport, Visibility)>,
    /// How many tests the rules hide, and how many of those passed.
    pub hidden: usize,
}

/// Every student's feedback from one gradebook.
pub fn build<'a>(
    book: &'a Gradebook,
    policy: Option<&Policy>,
    totals: Option<&Totals>,
    rules: Rules,
) -> Vec<Feedback<'a>> {
    book.rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let problems = row
                .cells
                .iter()
                .zip(&book.problems)
                .enumerate()
                .filter(|(_, (cell, _))| !matches!(cell, Cell::OtherShard))
                .map(|(c, (cell, problem))| {
                    let worth = totals.map(|t| t.rows[r].cells[c]);
                    ProblemFeedback {
                        problem,
                        graded: cell.submission().map(|s| {
                            let (shown, hidden): (Vec<_>, Vec<_>) = s
                                .report
                                .tests
                                .iter()
                                .map(|t| (t, rules.for_test(t)))
                                .partition(|(_, v)| *v != Visibility::Hidden);
                            Graded {
                                path: &s.path,
                                verdict: s.report.verdict,
                                score: s.report.score,
                                message: s.report.message.as_deref(),
                                handin: s.handin.as_ref(),
                                shown,
                                hidden: hidden.len(),
                            }
                        }),
                        points: policy.zip(worth).map(|(p, w)| p.format(w.points)),
                        penalty: worth
                            .filter(|w| w.penalty > 0.0)
                            .map(|w| format!("{}%", super::policy::number(w.penalty * 100.0))),
                    }
                })
                .collect();
            Feedback {
                student: &row.student,
                run: &book.run,
                problems,
                total: policy
                    .zip(totals)
                    .map(|(p, t)| (p.format(t.rows[r].total), p.format(t.out_of))),
                late_rule: policy.and_then(|p| p.late).map(|l| l.describe()),
            }
        })
        .collect()
}

/// Windows' reserved device names: a file named so cannot be opened there.
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// A file name stem for `student` that is safe on every system: ASCII
/// letters, digits, `-` and `_` kept, anything else `_`, at most 60
/// characters; where that changed the name (or left a reserved one), a
/// short hash of the whole name follows, so two students never share a
/// file.
pub fn file_stem(student: &str) -> String {
    let mut stem: String = student
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let reserved = RESERVED.contains(&stem.to_ascii_lowercase().as_str());
    if stem != student || reserved || stem.is_empty() {
        let hash = blake3::hash(student.as_bytes()).to_hex();
        stem = format!("{}-{}", stem.trim_end_matches('_'), &hash[..8]);
    }
    stem
}

/// Writes every student's page into `dir` (`STEM.html`, `STEM.md`); the
/// files written, by student.
pub fn write_all(
    dir: &Path,
    feedback: &[Feedback<'_>],
) -> std::io::Result<Vec<(String, std::path::PathBuf)>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for one in feedback {
        let stem = file_stem(one.student);
        let html = dir.join(format!("{stem}.html"));
        std::fs::write(&html, super::feedback_page::html(one))?;
        std::fs::write(
            dir.join(format!("{stem}.md")),
            super::feedback_page::markdown(one),
        )?;
        written.push((one.student.to_string(), html));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_distinct() {
        assert_eq!(file_stem("alice"), "alice");
        assert_eq!(file_stem("bob-2_x"), "bob-2_x");
        let odd = ["../etc/passwd", "Doe, Ann", "Зоя", "a/b", "CON", ".", ""];
        let stems: Vec<String> = odd.iter().map(|s| file_stem(s)).collect();
        for stem in &stems {
            assert!(
                stem.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
                "{stem}"
            );
            assert!(!stem.is_empty() && stem.len() <= 70, "{stem}");
        }
        let mut unique = stems.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), stems.len(), "{stems:?}");
        assert_ne!(file_stem("a/b"), file_stem("a_b"));
        assert!(stems[4].starts_with("CON-"));
    }
}
