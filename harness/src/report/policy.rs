//! A grading policy: how a gradebook's cells make a total. Read from a
//! small TOML file (`--policy FILE`), kept in the result store with the run
//! it graded, and applied by every class report (text, CSV, HTML, LMS
//! exports, feedback), so they all show the same numbers.
//!
//! ```toml
//! out-of = 100          # the total's scale (default: the sum of the weights)
//! decimals = 1          # digits after the point (default 2)
//! rounding = "half-up"  # or "down", "up"
//! late = "10%/day"      # per started day after the deadline
//! late-cap = "50%"      # the most a late penalty takes (default 100%)
//!
//! [problems.sum]
//! weight = 2            # default 1
//! count = "solved"      # 1 for AC, else 0 (the default)
//! [problems.guess]
//! count = "points"      # the score, as a share of `max`
//! max = 100
//! ```
//!
//! A problem the file does not name counts with weight 1, as solved.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use super::gradebook::{Cell, Gradebook, Submission};
use crate::spec::{FieldError, line_of};
use crate::verdict::Verdict;

/// A policy that cannot be used, with the file, line and key at fault.
#[derive(Debug, Error)]
pub enum PolicyError {
    #[error("failed to read the grading policy {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(transparent)]
    Invalid(#[from] crate::spec::FieldError),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPolicy {
    out_of: Option<toml::Spanned<f64>>,
    decimals: Option<toml::Spanned<i64>>,
    rounding: Option<toml::Spanned<String>>,
    late: Option<toml::Spanned<String>>,
    late_cap: Option<toml::Spanned<String>>,
    #[serde(default)]
    problems: BTreeMap<String, toml::Spanned<RawProblemRule>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawProblemRule {
    weight: Option<toml::Spanned<f64>>,
    count: Option<toml::Spanned<String>>,
    max: Option<toml::Spanned<f64>>,
}

/// What a problem's cell counts for, before its weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Count {
    /// 1 for AC, else 0.
    Solved,
    /// The score as a share of `max` (at most 1); a problem without
    /// scores counts as solved.
    Points { max: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProblemRule {
    pub weight: f64,
    pub count: Count,
}

impl Default for ProblemRule {
    fn default() -> ProblemRule {
        ProblemRule {
            weight: 1.0,
            count: Count::Solved,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    HalfUp,
    Down,
    Up,
}

/// A penalty per started day after the deadline, up to a cap (shares of
/// the cell's worth, 0 to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LateRule {
    pub per_day: f64,
    pub cap: f64,
}

/// A late rule or cap that does not read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{text}`: {expected}")]
pub struct BadLateRule {
    pub text: String,
    pub expected: &'static str,
}

impl LateRule {
    /// `10%/day` (and an optional cap such as `50%`), as the command line
    /// and the policy write them.
    pub fn parse(rule: &str, cap: Option<&str>) -> Result<LateRule, BadLateRule> {
        let per_day = rule
            .trim()
            .strip_suffix("/day")
            .ok_or_else(|| BadLateRule {
                text: rule.to_string(),
                expected: "write a share per day, e.g. 10%/day",
            })
            .and_then(percent)?;
        let cap = cap.map(percent).transpose()?.unwrap_or(1.0);
        Ok(LateRule { per_day, cap })
    }

    /// The share of a cell's worth taken for `late_seconds` after the
    /// deadline: per started day, up to the cap.
    pub fn penalty(&self, late_seconds: i64) -> f64 {
        if late_seconds <= 0 {
            return 0.0;
        }
        let days = (late_seconds as f64 / 86_400.0).ceil();
        (self.per_day * days).min(self.cap)
    }

    /// As written back: `10%/day, at most 50%`.
    pub fn describe(&self) -> String {
        format!(
            "{}%/day, at most {}%",
            number(self.per_day * 100.0),
            number(self.cap * 100.0)
        )
    }

    /// The `--late` and `--late-cap` form, as stored.
    pub fn to_stored(&self) -> String {
        format!(
            "{}%/day max {}%",
            number(self.per_day * 100.0),
            number(self.cap * 100.0)
        )
    }

    pub fn from_stored(text: &str) -> Option<LateRule> {
        let (rule, cap) = text.split_once(" max ")?;
        LateRule::parse(rule, Some(cap)).ok()
    }
}

/// `10%` as 0.1: a share from 0% to 100%.
fn percent(text: &str) -> Result<f64, BadLateRule> {
    let bad = |expected| BadLateRule {
        text: text.to_string(),
        expected,
    };
    let value: f64 = text
        .trim()
        .strip_suffix('%')
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| bad("write a percentage, e.g. 10%"))?;
    if !(0.0..=100.0).contains(&value) {
        return Err(bad("a percentage from 0% to 100%"));
    }
    Ok(value / 100.0)
}

#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// The file's text, as stored with a run.
    pub text: String,
    pub problems: BTreeMap<String, ProblemRule>,
    pub out_of: Option<f64>,
    pub decimals: u32,
    pub rounding: Rounding,
    pub late: Option<LateRule>,
}

/// The policy file being read: each refused value names it, its line
/// and its key.
struct PolicyFile<'a> {
    path: &'a Path,
    text: &'a str,
}

impl PolicyFile<'_> {
    fn invalid(&self, span: std::ops::Range<usize>, key: &str, message: String) -> PolicyError {
        PolicyError::Invalid(FieldError::at(self.path, self.text, span, key, message))
    }

    fn positive(&self, value: &toml::Spanned<f64>, key: &str) -> Result<f64, PolicyError> {
        let v = *value.get_ref();
        if v.is_finite() && v > 0.0 {
            Ok(v)
        } else {
            Err(self.invalid(value.span(), key, format!("{v}: a number above 0")))
        }
    }

    fn decimals(&self, decimals: Option<&toml::Spanned<i64>>) -> Result<u32, PolicyError> {
        match decimals {
            None => Ok(2),
            Some(d) if (0..=6).contains(d.get_ref()) => Ok(*d.get_ref() as u32),
            Some(d) => Err(self.invalid(
                d.span(),
                "decimals",
                format!("{}: from 0 to 6", d.get_ref()),
            )),
        }
    }

    fn rounding(&self, rounding: Option<&toml::Spanned<String>>) -> Result<Rounding, PolicyError> {
        match rounding.map(|r| (r.get_ref().as_str(), r)) {
            None | Some(("half-up", _)) => Ok(Rounding::HalfUp),
            Some(("down", _)) => Ok(Rounding::Down),
            Some(("up", _)) => Ok(Rounding::Up),
            Some((other, r)) => Err(self.invalid(
                r.span(),
                "rounding",
                format!("`{other}`: one of half-up, down, up"),
            )),
        }
    }

    fn late(
        &self,
        late: Option<&toml::Spanned<String>>,
        cap: Option<&toml::Spanned<String>>,
    ) -> Result<Option<LateRule>, PolicyError> {
        let Some(rule) = late else {
            return match cap {
                Some(cap) => Err(self.invalid(cap.span(), "late-cap", "needs `late`".into())),
                None => Ok(None),
            };
        };
        let parsed = LateRule::parse(rule.get_ref(), cap.map(|c| c.get_ref().as_str()));
        parsed.map(Some).map_err(|bad| {
            let (span, key) = match cap {
                Some(c) if bad.text == *c.get_ref() => (c.span(), "late-cap"),
                _ => (rule.span(), "late"),
            };
            self.invalid(span, key, bad.expected.to_string())
        })
    }

    /// The rule of problem `id`: its weight (1 unless given) and what it
    /// counts.
    fn problem_rule(&self, id: &str, rule: &RawProblemRule) -> Result<ProblemRule, PolicyError> {
        let key = |field: &str| format!("problems.{id}.{field}");
        let weight = match &rule.weight {
            Some(w) if w.get_ref().is_finite() && *w.get_ref() >= 0.0 => *w.get_ref(),
            Some(w) => {
                return Err(self.invalid(
                    w.span(),
                    &key("weight"),
                    format!("{}: a number from 0 up", w.get_ref()),
                ));
            }
            None => 1.0,
        };
        let max = rule.max.as_ref();
        let count = match rule.count.as_ref() {
            None => Count::Solved,
            Some(c) if c.get_ref() == "solved" => Count::Solved,
            Some(c) if c.get_ref() == "points" => match max {
                Some(m) => Count::Points {
                    max: self.positive(m, &key("max"))?,
                },
                None => {
                    return Err(self.invalid(
                        c.span(),
                        &key("count"),
                        "\"points\" needs `max`: the score that earns the full weight".into(),
                    ));
                }
            },
            Some(c) => {
                return Err(self.invalid(
                    c.span(),
                    &key("count"),
                    format!("`{}`: \"solved\" or \"points\"", c.get_ref()),
                ));
            }
        };
        if let (Count::Solved, Some(m)) = (count, max) {
            return Err(self.invalid(m.span(), &key("max"), "only with count = \"points\"".into()));
        }
        Ok(ProblemRule { weight, count })
    }
}

impl Policy {
    pub fn load(path: &Path) -> Result<Policy, PolicyError> {
        let text = std::fs::read_to_string(path).map_err(|source| PolicyError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Policy::parse(&text, path)
    }

    /// `text` as a policy; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Policy, PolicyError> {
        let raw: RawPolicy = toml::from_str(text).map_err(|e| PolicyError::Parse {
            path: path.to_path_buf(),
            line: e.span().map_or(1, |span| line_of(text, span.start)),
            message: e.message().to_string(),
        })?;
        let file = PolicyFile { path, text };
        let out_of = raw
            .out_of
            .as_ref()
            .map(|v| file.positive(v, "out-of"))
            .transpose()?;
        let decimals = file.decimals(raw.decimals.as_ref())?;
        let rounding = file.rounding(raw.rounding.as_ref())?;
        let late = file.late(raw.late.as_ref(), raw.late_cap.as_ref())?;
        let mut problems = BTreeMap::new();
        for (id, rule) in &raw.problems {
            problems.insert(id.clone(), file.problem_rule(id, rule.get_ref())?);
        }
        Ok(Policy {
            text: text.to_string(),
            problems,
            out_of,
            decimals,
            rounding,
            late,
        })
    }

    pub fn rule(&self, problem: &str) -> ProblemRule {
        self.problems.get(problem).copied().unwrap_or_default()
    }

    /// `value` rounded as the policy says.
    pub fn round(&self, value: f64) -> f64 {
        let scale = 10f64.powi(self.decimals as i32);
        // A hair of tolerance, so 2.675 (stored as 2.67499…) rounds as written.
        let scaled = value * scale;
        let rounded = match self.rounding {
            Rounding::HalfUp => (scaled + 1e-9).round(),
            Rounding::Down => (scaled + 1e-9).floor(),
            Rounding::Up => (scaled - 1e-9).ceil(),
        };
        rounded / scale
    }

    /// `value` rounded and written with at most the policy's decimals,
    /// never as `-0`.
    pub fn format(&self, value: f64) -> String {
        number(self.round(value))
    }

    /// Every student's cells and total under this policy.
    pub fn apply(&self, book: &Gradebook) -> Totals {
        let rules: Vec<ProblemRule> = book.problems.iter().map(|p| self.rule(&p.id)).collect();
        let weights: f64 = rules.iter().map(|r| r.weight).sum();
        let scale = match self.out_of {
            Some(out_of) if weights > 0.0 => out_of / weights,
            _ => 1.0,
        };
        let rows = book
            .rows
            .iter()
            .map(|row| {
                let cells: Vec<CellWorth> = row
                    .cells
                    .iter()
                    .zip(&rules)
                    .map(|(cell, rule)| self.worth(cell, rule, scale))
                    .collect();
                let total = self.round(cells.iter().map(|c| c.points).sum());
                RowTotal { cells, total }
            })
            .collect();
        Totals {
            rows,
            out_of: self.round(weights * scale),
        }
    }

    fn worth(&self, cell: &Cell, rule: &ProblemRule, scale: f64) -> CellWorth {
        let Some(submission) = cell.submission() else {
            return CellWorth::default();
        };
        let share = share(submission, rule.count);
        let late_seconds = submission.handin.as_ref().and_then(|h| h.late_seconds);
        let penalty = match (self.late, late_seconds) {
            (Some(rule), Some(seconds)) => rule.penalty(seconds),
            _ => 0.0,
        };
        CellWorth {
            points: rule.weight * scale * share * (1.0 - penalty),
            penalty,
        }
    }
}

/// Without a file (only `--late` given): every problem weight 1, counted
/// as solved, two decimals.
impl Default for Policy {
    fn default() -> Policy {
        Policy {
            text: String::new(),
            problems: BTreeMap::new(),
            out_of: None,
            decimals: 2,
            rounding: Rounding::HalfUp,
            late: None,
        }
    }
}

/// What a submission earns of its problem's worth, from 0 to 1.
fn share(submission: &Submission, count: Count) -> f64 {
    let accepted = submission.report.verdict == Verdict::Accepted;
    match (count, submission.report.score) {
        (Count::Points { max }, Some(score)) => (score / max).clamp(0.0, 1.0),
        _ if accepted => 1.0,
        _ => 0.0,
    }
}

/// A number as reports write it: up to six decimals, trailing zeros
/// dropped, and never `-0`.
pub fn number(value: f64) -> String {
    let text = format!("{value:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// One cell's worth under a policy.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CellWorth {
    /// On the total's scale, after any late penalty (not rounded).
    pub points: f64,
    /// The share a late penalty took (0 when on time).
    pub penalty: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RowTotal {
    /// One per problem, in the gradebook's order.
    pub cells: Vec<CellWorth>,
    /// Rounded.
    pub total: f64,
}

/// A gradebook's totals: one row per student, in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct Totals {
    pub rows: Vec<RowTotal>,
    /// The most a student can earn.
    pub out_of: f64,
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
