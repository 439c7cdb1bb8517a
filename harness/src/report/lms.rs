//! Grades in the files a school's learning management system imports as
//! they are: Moodle's grade import CSV, Canvas's gradebook CSV, and
//! Gradescope's autograder `results.json` (one per student). Which column
//! comes from which roster field is in `roster.rs` and in docs/teaching.md.
//!
//! Only students the roster names are written: a row the LMS cannot match
//! to a person would be refused or, worse, matched to the wrong one.

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use super::csv::field;
use super::feedback::{Feedback, Visibility};
use super::gradebook::Gradebook;
use super::policy::{Policy, Totals};
use super::roster::{Person, SchoolRoster};

/// What every export needs: the gradebook, its totals, who is who.
pub struct Export<'a> {
    pub book: &'a Gradebook,
    pub policy: &'a Policy,
    pub totals: &'a Totals,
    pub roster: &'a SchoolRoster,
    /// The grade item's (assignment's) name in the LMS.
    pub item: &'a str,
}

impl Export<'_> {
    /// The students the roster knows, with their row and total; and the
    /// students it does not know (left out).
    fn matched(&self) -> (Vec<(&Person, usize, String)>, Vec<&str>) {
        let mut matched = Vec::new();
        let mut unknown = Vec::new();
        for (r, row) in self.book.rows.iter().enumerate() {
            match self.roster.people.get(&row.student) {
                Some(person) => {
                    matched.push((person, r, self.policy.format(self.totals.rows[r].total)))
                }
                None => unknown.push(row.student.as_str()),
            }
        }
        (matched, unknown)
    }

    /// One line for a gradebook's feedback field: each problem's verdict,
    /// and a late penalty where one was taken.
    fn summary(&self, row: usize) -> String {
        self.book.rows[row]
            .cells
            .iter()
            .zip(&self.book.problems)
            .zip(&self.totals.rows[row].cells)
            .map(|((cell, problem), worth)| {
                let verdict = cell
                    .submission()
                    .map_or("no submission", |s| s.report.verdict.short());
                let late = if worth.penalty > 0.0 {
                    format!(
                        " (late: -{}%)",
                        super::policy::number(worth.penalty * 100.0)
                    )
                } else {
                    String::new()
                };
                format!("{}: {verdict}{late}", problem.id)
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Moodle's grade import (Grades > Import > CSV file): a header row,
    /// then a row per student. Map "Email address" (or "ID number",
    /// "Username") to the user, the item's column to its grade item and
    /// "Feedback" to its feedback. Returns the students left out.
    pub fn moodle(&self, out: &mut dyn Write) -> io::Result<Vec<String>> {
        let (matched, unknown) = self.matched();
        write!(
            out,
            "Email address,ID number,Username,Full name,{},Feedback\r\n",
            field(self.item)
        )?;
        for (person, row, total) in matched {
            write!(
                out,
                "{},{},{},{},{total},{}\r\n",
                field(&person.email),
                field(&person.id),
                field(&person.login),
                field(&person.name),
                field(&self.summary(row))
            )?;
        }
        Ok(unknown.into_iter().map(str::to_string).collect())
    }

    /// Canvas's gradebook CSV (Grades > Import): the export's identity
    /// columns (Student, ID, SIS User ID, SIS Login ID, Section), the
    /// assignment's column, and the "Points Possible" row under the header.
    /// Canvas matches a row by ID or SIS User ID; an assignment column
    /// written `Name (number)` updates that assignment, any other name
    /// creates one. Returns the students left out.
    pub fn canvas(&self, out: &mut dyn Write) -> io::Result<Vec<String>> {
        let (matched, unknown) = self.matched();
        write!(
            out,
            "Student,ID,SIS User ID,SIS Login ID,Section,{}\r\n",
            field(self.item)
        )?;
        write!(
            out,
            "    Points Possible,,,,,{}\r\n",
            self.policy.format(self.totals.out_of)
        )?;
        for (person, _, total) in matched {
            write!(
                out,
                "{},{},{},{},{},{total}\r\n",
                field(&person.name),
                field(&person.lms_id),
                field(&person.id),
                field(&person.login),
                field(&person.section)
            )?;
        }
        Ok(unknown.into_iter().map(str::to_string).collect())
    }
}

/// Gradescope's visibility for what the rules show.
fn gradescope_visibility(visibility: Visibility) -> &'static str {
    match visibility {
        Visibility::Full | Visibility::Verdict => "visible",
        Visibility::Hidden => "hidden",
    }
}

/// One student's `results.json` (Gradescope's autograder format).
#[derive(Debug, Serialize)]
pub struct GradescopeResults {
    pub score: f64,
    pub output: String,
    pub visibility: &'static str,
    pub stdout_visibility: &'static str,
    pub tests: Vec<GradescopeTest>,
}

/// A problem (with its points) or one of its tests (without).
#[derive(Debug, Serialize)]
pub struct GradescopeTest {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
    /// `passed` or `failed`.
    pub status: &'static str,
    pub output: String,
    pub visibility: &'static str,
}

/// One student's `results.json` for Gradescope's autograder: the total as
/// `score`, a test per problem (its points of its worth) and a test per
/// test the feedback rules show.
pub fn gradescope_results(
    export: &Export<'_>,
    row: usize,
    feedback: &Feedback<'_>,
) -> GradescopeResults {
    let worths = &export.totals.rows[row].cells;
    let weights: Vec<f64> = export
        .book
        .problems
        .iter()
        .map(|p| export.policy.rule(&p.id).weight)
        .collect();
    let scale = match export.policy.out_of {
        Some(out_of) if weights.iter().sum::<f64>() > 0.0 => out_of / weights.iter().sum::<f64>(),
        _ => 1.0,
    };
    let mut tests = Vec::new();
    for ((problem, worth), weight) in feedback.problems.iter().zip(worths).zip(&weights) {
        let verdict = problem
            .graded
            .as_ref()
            .map_or("no submission", |g| g.verdict.short());
        let accepted = verdict == "AC";
        tests.push(GradescopeTest {
            name: problem.problem.id.clone(),
            score: Some(export.policy.round(worth.points)),
            max_score: Some(export.policy.round(weight * scale)),
            status: if accepted { "passed" } else { "failed" },
            output: format!(
                "{verdict}{}",
                problem
                    .penalty
                    .as_deref()
                    .map(|p| format!("; late penalty {p}"))
                    .unwrap_or_default()
            ),
            visibility: "visible",
        });
        let Some(graded) = &problem.graded else {
            continue;
        };
        for (test, visibility) in &graded.shown {
            let mut output = format!(
                "{} in {}",
                test.verdict.short(),
                super::human::ms(test.metrics.cpu)
            );
            if let (Visibility::Full, Some(d)) = (visibility, &test.difference) {
                output.push_str(&format!(
                    "\nline {}: expected {}, got {}\n{}",
                    d.line,
                    crate::escape::name(&d.expected),
                    crate::escape::name(&d.actual),
                    crate::escape::visible(&d.diff)
                ));
            }
            tests.push(GradescopeTest {
                name: format!("{}: {}", problem.problem.id, test.test),
                score: None,
                max_score: None,
                status: if test.verdict == crate::verdict::Verdict::Accepted {
                    "passed"
                } else {
                    "failed"
                },
                output,
                visibility: gradescope_visibility(*visibility),
            });
        }
    }
    GradescopeResults {
        score: export.policy.round(export.totals.rows[row].total),
        output: format!("Graded by Game Judge, run {}.", export.book.run.id),
        visibility: "visible",
        stdout_visibility: "hidden",
        tests,
    }
}

/// Writes `DIR/STEM/results.json` for every student the roster knows, and
/// `DIR/students.csv` (student, email, id, folder) for a `run_autograder`
/// script to find a submitter's file. Returns the students left out.
pub fn gradescope(
    dir: &Path,
    export: &Export<'_>,
    feedback: &[Feedback<'_>],
) -> io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    let (matched, unknown) = export.matched();
    let mut index = String::from("student,email,id,folder\r\n");
    for (person, row, _) in matched {
        let student = &export.book.rows[row].student;
        let stem = super::feedback::file_stem(student);
        let folder = dir.join(&stem);
        std::fs::create_dir_all(&folder)?;
        // Through a `Value`, whose objects keep their keys sorted.
        let results = serde_json::to_value(gradescope_results(export, row, &feedback[row]))?;
        let text = serde_json::to_string_pretty(&results).map_err(io::Error::other)?;
        std::fs::write(folder.join("results.json"), text + "\n")?;
        index.push_str(&format!(
            "{},{},{},{stem}\r\n",
            field(student),
            field(&person.email),
            field(&person.id)
        ));
    }
    std::fs::write(dir.join("students.csv"), index)?;
    Ok(unknown.into_iter().map(str::to_string).collect())
}
