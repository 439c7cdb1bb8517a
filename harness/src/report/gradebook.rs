//! The gradebook: one grading run read back from the store, as students ×
//! problems. Every class report (text, CSV, HTML, changes) is drawn from it,
//! so a report never depends on whether a result was run or reused, or on
//! which shard ran it.

use std::collections::BTreeMap;

use super::clarifications::ClarificationLine;
use crate::runner::TaskReport;
use crate::verdict::Verdict;

/// What a stored run says about itself.
#[derive(Debug, Clone, Default)]
pub struct RunInfo {
    pub id: i64,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub command: String,
    pub judge_version: String,
    pub isolation: String,
    pub machine: String,
    /// `K/N` for one shard of a class.
    pub partition: Option<String>,
    /// The class folder or manifest graded.
    pub source: Option<String>,
    /// A merged run: the runs it was merged from.
    pub merged_from: Option<String>,
    /// Stopped by Ctrl-C or SIGTERM: its tests are sound, its verdicts may
    /// lack the tests it never ran.
    pub interrupted: bool,
    /// `--deadline`, as RFC 3339 with its offset.
    pub deadline: Option<String>,
    /// `--late`, as `10%/day max 50%`.
    pub late_rule: Option<String>,
    /// The grading policy's TOML text (`--policy`).
    pub policy: Option<String>,
}

/// A problem of the run, with the limits its bars are drawn against.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemInfo {
    pub id: String,
    pub title: String,
    pub time_ms: u64,
    pub wall_ms: u64,
    pub memory_kib: u64,
    pub tests: usize,
}

impl ProblemInfo {
    /// What a gradebook shows of `problem`.
    pub(crate) fn of(problem: &crate::spec::ProblemSpec) -> ProblemInfo {
        ProblemInfo {
            id: problem.id.clone(),
            title: problem.title.clone(),
            time_ms: problem.limits.time.as_millis() as u64,
            wall_ms: problem.limits.wall.as_millis() as u64,
            memory_kib: problem.limits.memory / 1024,
            tests: problem.tests.len(),
        }
    }
}

/// One student's file for one problem, judged.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The file as graded (relative to the class folder when there is one).
    pub path: String,
    pub language: Option<String>,
    pub content_hash: Option<String>,
    /// The verdict, score, message and every test (in test order).
    pub report: TaskReport,
    /// Per test of `report.tests`: reused from an earlier run, not run.
    pub reused: Vec<bool>,
    /// When and from what it was handed in, for a class graded against a
    /// deadline.
    pub handin: Option<Handin>,
}

/// When a submission was handed in, for a class graded with `--deadline`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handin {
    /// The commit graded (hex), when the student's folder is a Git repository.
    pub commit: Option<String>,
    /// The commit's date, or the file's modification time (RFC 3339).
    pub at: String,
    /// Where `at` comes from: `commit` or `file time`.
    pub from: String,
    /// Seconds after the deadline (negative or zero: on time).
    pub late_seconds: Option<i64>,
}

impl Submission {
    /// What the submission counts for in a total: its score on a scored
    /// problem, else 1 if accepted and 0 if not.
    pub fn points(&self) -> f64 {
        match self.report.score {
            Some(score) => score,
            None if self.report.verdict == Verdict::Accepted => 1.0,
            None => 0.0,
        }
    }
}

/// What a gradebook knows of one student and problem.
#[derive(Debug, Clone)]
pub enum Cell {
    Graded(Box<Submission>),
    /// The student has no file for the problem.
    NoSubmission,
    /// Graded by another shard (only in a shard's own gradebook).
    OtherShard,
}

impl Cell {
    pub fn submission(&self) -> Option<&Submission> {
        match self {
            Cell::Graded(submission) => Some(submission),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct StudentRow {
    pub student: String,
    /// One per problem of the gradebook, in its order.
    pub cells: Vec<Cell>,
}

impl StudentRow {
    fn submissions(&self) -> impl Iterator<Item = &Submission> {
        self.cells.iter().filter_map(Cell::submission)
    }

    pub fn solved(&self) -> usize {
        self.submissions()
            .filter(|s| s.report.verdict == Verdict::Accepted)
            .count()
    }
}

/// A file in the class that was not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unmatched {
    pub student: Option<String>,
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default)]
pub struct Gradebook {
    pub run: RunInfo,
    pub problems: Vec<ProblemInfo>,
    /// Sorted by student.
    pub rows: Vec<StudentRow>,
    pub unmatched: Vec<Unmatched>,
    /// A served session's clarifications (empty for a grading).
    pub clarifications: Vec<ClarificationLine>,
}

/// A verdict that differs between two gradings.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub student: String,
    pub problem: String,
    /// `None`: no submission.
    pub before: Option<Verdict>,
    pub after: Option<Verdict>,
}

impl Change {
    pub fn lost_accepted(&self) -> bool {
        self.before == Some(Verdict::Accepted) && self.after != Some(Verdict::Accepted)
    }
}

impl Gradebook {
    /// Assembles a gradebook from loose submissions: `(student, problem,
    /// submission)`, where `None` is a student's "no submission" for it. A
    /// pair with no entry at all was another shard's.
    pub fn assemble(
        run: RunInfo,
        problems: Vec<ProblemInfo>,
        entries: Vec<(String, String, Option<Submission>)>,
        mut unmatched: Vec<Unmatched>,
    ) -> Gradebook {
        let column: BTreeMap<&str, usize> = problems
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.as_str(), i))
            .collect();
        let mut rows: BTreeMap<String, Vec<Cell>> = BTreeMap::new();
        for (student, problem, submission) in entries {
            let cells = rows
                .entry(student)
                .or_insert_with(|| vec![Cell::OtherShard; problems.len()]);
            if let Some(&i) = column.get(problem.as_str()) {
                cells[i] = match submission {
                    Some(submission) => Cell::Graded(Box::new(submission)),
                    None => Cell::NoSubmission,
                };
            }
        }
        unmatched.sort();
        Gradebook {
            run,
            rows: rows
                .into_iter()
                .map(|(student, cells)| StudentRow { student, cells })
                .collect(),
            problems,
            unmatched,
            clarifications: Vec::new(),
        }
    }

    /// Every submission with its student and problem.
    pub fn submissions(&self) -> impl Iterator<Item = (&str, &ProblemInfo, &Submission)> {
        self.rows.iter().flat_map(move |row| {
            row.cells
                .iter()
                .zip(&self.problems)
                .filter_map(move |(cell, problem)| {
                    cell.submission()
                        .map(|s| (row.student.as_str(), problem, s))
                })
        })
    }

    fn verdicts(&self) -> BTreeMap<(&str, &str), Option<Verdict>> {
        let mut all = BTreeMap::new();
        for row in &self.rows {
            for (cell, problem) in row.cells.iter().zip(&self.problems) {
                if !matches!(cell, Cell::OtherShard) {
                    all.insert(
                        (row.student.as_str(), problem.id.as_str()),
                        cell.submission().map(|s| s.report.verdict),
                    );
                }
            }
        }
        all
    }

    /// The verdicts that differ from `earlier`'s, for every student and
    /// problem in either.
    pub fn changes_since(&self, earlier: &Gradebook) -> Vec<Change> {
        let before = earlier.verdicts();
        let after = self.verdicts();
        let mut keys: Vec<&(&str, &str)> = before.keys().chain(after.keys()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .filter_map(|key| {
                let (was, is) = (
                    before.get(key).copied().flatten(),
                    after.get(key).copied().flatten(),
                );
                (was != is).then(|| Change {
                    student: key.0.to_string(),
                    problem: key.1.to_string(),
                    before: was,
                    after: is,
                })
            })
            .collect()
    }

    /// Per problem (by column), how many submissions got each verdict (in
    /// `Verdict::ALL` order, verdicts nobody got left out), and how many
    /// students had none.
    pub fn distribution(&self, problem: usize) -> (Vec<(Verdict, usize)>, usize) {
        let cells: Vec<&Cell> = self.rows.iter().map(|row| &row.cells[problem]).collect();
        let got: Vec<Verdict> = cells
            .iter()
            .filter_map(|cell| cell.submission().map(|s| s.report.verdict))
            .collect();
        let counts = Verdict::ALL
            .into_iter()
            .map(|v| (v, got.iter().filter(|g| **g == v).count()))
            .filter(|(_, n)| *n > 0)
            .collect();
        let missing = cells
            .iter()
            .filter(|cell| matches!(cell, Cell::NoSubmission))
            .count();
        (counts, missing)
    }

    /// All reports, in student then problem order (for JSON and JUnit).
    pub fn task_reports(&self) -> Vec<TaskReport> {
        self.submissions()
            .map(|(_, _, s)| s.report.clone())
            .collect()
    }
}
