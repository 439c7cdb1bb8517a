//! `judge verify --matrix`: how strong the secret tests are. Every wrong
//! or slow solution runs on every test; the table says which secret test
//! rejects it first and how many tests each one rejects, and flags the
//! tests that reject nothing and the solutions only one test catches.

use std::io::Write;
use std::path::Path;

use super::Context;
use crate::cli::ReportArgs;
use crate::errors::{Error, Result};
use crate::report::html::{CSS, badge, esc};
use crate::report::sections::{self, MatrixSolution, MatrixTest, Sections};
use crate::runner::TaskReport;
use crate::spec::ProblemSpec;
use crate::verdict::Verdict;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// Who rejects whom: `verdicts[s][t]` is solution `s`'s verdict on secret
/// test `t` (`None`: not run).
#[derive(Debug, Clone, PartialEq)]
struct Matrix {
    solutions: Vec<String>,
    tests: Vec<String>,
    verdicts: Vec<Vec<Option<Verdict>>>,
}

impl Matrix {
    fn rejects(&self, solution: usize, test: usize) -> bool {
        self.verdicts[solution][test].is_some_and(|v| v != Verdict::Accepted)
    }

    /// The first secret test that rejects `solution`.
    fn first_rejection(&self, solution: usize) -> Option<usize> {
        (0..self.tests.len()).find(|&t| self.rejects(solution, t))
    }

    fn kills(&self, test: usize) -> usize {
        (0..self.solutions.len())
            .filter(|&s| self.rejects(s, test))
            .count()
    }

    fn rejections(&self, solution: usize) -> usize {
        (0..self.tests.len())
            .filter(|&t| self.rejects(solution, t))
            .count()
    }

    /// Secret tests that reject no solution.
    fn idle_tests(&self) -> Vec<usize> {
        (0..self.tests.len())
            .filter(|&t| self.kills(t) == 0)
            .collect()
    }

    /// Solutions exactly one secret test rejects.
    fn caught_once(&self) -> Vec<usize> {
        (0..self.solutions.len())
            .filter(|&s| self.rejections(s) == 1)
            .collect()
    }
}

fn build(problem: &ProblemSpec, results: &[TaskReport]) -> Matrix {
    let tests: Vec<String> = problem
        .tests
        .iter()
        .filter(|t| !t.is_sample())
        .map(|t| t.name.clone())
        .collect();
    let verdicts = results
        .iter()
        .map(|task| {
            tests
                .iter()
                .map(|name| {
                    task.tests
                        .iter()
                        .find(|t| &t.test == name)
                        .map(|t| t.verdict)
                })
                .collect()
        })
        .collect();
    Matrix {
        solutions: results.iter().map(|t| t.submission.clone()).collect(),
        tests,
        verdicts,
    }
}

pub(super) fn matrix(
    ctx: &mut Context,
    ids: &[String],
    reports: &ReportArgs,
    html: Option<&Path>,
) -> Result<u8> {
    let (problems, broken) = ctx.load_and_build(ids)?;
    let mut ok = broken.is_empty();
    let mut all_json = Vec::new();
    let mut pages = Vec::new();
    let mut run = ctx.run_with_progress("verify --matrix", &reports.into());
    for problem in &problems {
        let mut planner = ctx.planner();
        for (index, solution) in problem.solutions.iter().enumerate() {
            if !solution.expect.contains(&Verdict::Accepted) {
                planner.solution(problem, index);
            }
        }
        let plan = planner.plan(false);
        let results = ctx.execute(&mut run, &plan, None);
        let matrix = build(problem, &results);
        print_matrix(ctx, problem, &matrix, &results)?;
        // A wrong solution no secret test rejects would pass the contest.
        ok &= (0..matrix.solutions.len()).all(|s| matrix.rejections(s) > 0);
        all_json.push(matrix_json(problem, &matrix));
        pages.push(matrix_html(problem, &matrix));
        if ctx.boxes.is_cancelled() {
            break;
        }
    }
    if let Some(path) = html {
        write_page(path, &ctx.boxes.describe(), &pages)?;
    }
    let sections = Sections {
        matrix: Some(all_json),
        ..Sections::default()
    };
    ctx.finish(run, sections)?;
    Ok(ctx.exit_code(ok))
}

fn print_matrix(
    ctx: &mut Context,
    problem: &ProblemSpec,
    matrix: &Matrix,
    results: &[TaskReport],
) -> Result<()> {
    writeln!(
        ctx.out,
        "{} — {}: {} wrong or slow solutions × {} secret tests",
        ctx.styles.bold(&problem.id),
        problem.title,
        matrix.solutions.len(),
        matrix.tests.len()
    )
    .map_err(io)?;
    let name_width = matrix.solutions.iter().map(String::len).max().unwrap_or(8);
    for (s, name) in matrix.solutions.iter().enumerate() {
        let first = match matrix.first_rejection(s) {
            Some(t) => format!(
                "first rejected by {} ({}), by {} of {}",
                matrix.tests[t],
                matrix.verdicts[s][t].map_or("?", Verdict::short),
                matrix.rejections(s),
                matrix.tests.len()
            ),
            None => ctx.styles.bad("no secret test rejects it"),
        };
        let once = if matrix.rejections(s) == 1 {
            format!("  {}", ctx.styles.bad("← caught by one test only"))
        } else {
            String::new()
        };
        let message = results[s]
            .message
            .as_deref()
            .map(|m| format!(" ({})", m.lines().next().unwrap_or_default()))
            .unwrap_or_default();
        writeln!(
            ctx.out,
            "  [{}] {name:<name_width$}  {first}{once}{message}",
            s + 1
        )
        .map_err(io)?;
    }
    let test_width = matrix.tests.iter().map(String::len).max().unwrap_or(4);
    let columns: String = (1..=matrix.solutions.len())
        .map(|s| format!("{:>4}", format!("[{s}]")))
        .collect();
    writeln!(ctx.out, "  {:<test_width$} {columns}  kills", "test").map_err(io)?;
    for (t, test) in matrix.tests.iter().enumerate() {
        let marks: String = (0..matrix.solutions.len())
            .map(|s| {
                let mark = match matrix.verdicts[s][t] {
                    Some(Verdict::Accepted) => ".",
                    Some(v) => v.short(),
                    None => "-",
                };
                format!("{mark:>4}")
            })
            .collect();
        let kills = matrix.kills(t);
        let flag = if kills == 0 {
            format!("  {}", ctx.styles.bad("← rejects nothing"))
        } else {
            String::new()
        };
        writeln!(ctx.out, "  {test:<test_width$} {marks}  {kills:>5}{flag}").map_err(io)?;
    }
    Ok(())
}

fn matrix_json(problem: &ProblemSpec, matrix: &Matrix) -> sections::Matrix {
    let names = |indices: Vec<usize>, of: &[String]| -> Vec<String> {
        indices.into_iter().map(|i| of[i].clone()).collect()
    };
    sections::Matrix {
        problem: problem.id.clone(),
        solutions: (0..matrix.solutions.len())
            .map(|s| MatrixSolution {
                solution: matrix.solutions[s].clone(),
                first_rejected_by: matrix.first_rejection(s).map(|t| matrix.tests[t].clone()),
                rejected_by: (0..matrix.tests.len())
                    .filter(|&t| matrix.rejects(s, t))
                    .map(|t| matrix.tests[t].clone())
                    .collect(),
            })
            .collect(),
        tests: (0..matrix.tests.len())
            .map(|t| MatrixTest {
                test: matrix.tests[t].clone(),
                kills: matrix.kills(t),
                verdicts: matrix
                    .solutions
                    .iter()
                    .enumerate()
                    .map(|(s, solution)| {
                        (solution.clone(), matrix.verdicts[s][t].map(Verdict::short))
                    })
                    .collect(),
            })
            .collect(),
        tests_rejecting_nothing: names(matrix.idle_tests(), &matrix.tests),
        solutions_caught_once: names(matrix.caught_once(), &matrix.solutions),
    }
}

/// One problem's part of the HTML page: the solutions, then the matrix.
fn matrix_html(problem: &ProblemSpec, matrix: &Matrix) -> String {
    let mut html = format!(
        "<h2>{} — {}</h2>\n<table><tr><th></th><th>solution</th><th>first rejected by</th><th>rejected by</th></tr>\n",
        esc(&problem.id),
        esc(&problem.title)
    );
    for (s, name) in matrix.solutions.iter().enumerate() {
        let first = match matrix.first_rejection(s) {
            Some(t) => format!("{} {}", esc(&matrix.tests[t]), badge(matrix.verdicts[s][t])),
            None => "<strong>no secret test</strong>".into(),
        };
        let once = if matrix.rejections(s) == 1 {
            " <span class=\"note\">(caught by one test only)</span>"
        } else {
            ""
        };
        html.push_str(&format!(
            "<tr><td>[{}]</td><td>{}</td><td>{first}</td><td>{} of {}{once}</td></tr>\n",
            s + 1,
            esc(name),
            matrix.rejections(s),
            matrix.tests.len()
        ));
    }
    html.push_str("</table>\n<table class=\"matrix\"><tr><th>test</th>");
    for (s, name) in matrix.solutions.iter().enumerate() {
        html.push_str(&format!("<th title=\"{}\">[{}]</th>", esc(name), s + 1));
    }
    html.push_str("<th>kills</th><th></th></tr>\n");
    for (t, test) in matrix.tests.iter().enumerate() {
        html.push_str(&format!("<tr><td>{}</td>", esc(test)));
        for s in 0..matrix.solutions.len() {
            html.push_str(&match matrix.verdicts[s][t] {
                Some(Verdict::Accepted) => "<td class=\"v\">·</td>".to_string(),
                verdict => format!("<td class=\"v\">{}</td>", badge(verdict)),
            });
        }
        let kills = matrix.kills(t);
        let flag = if kills == 0 { "rejects nothing" } else { "" };
        html.push_str(&format!(
            "<td class=\"num\">{kills}</td><td class=\"note\">{flag}</td></tr>\n"
        ));
    }
    html.push_str("</table>\n");
    html
}

/// The page: no script, no external asset (the policy forbids both).
fn write_page(path: &Path, isolation: &str, parts: &[String]) -> Result<()> {
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>Test strength</title><style>{CSS}</style></head><body>\n\
         <h1>Test strength</h1><p class=\"meta\">judge verify --matrix · {}</p>\n{}</body></html>\n",
        esc(isolation),
        parts.concat()
    );
    std::fs::write(path, page).map_err(|source| Error::Report {
        what: path.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: &[&str]) -> Matrix {
        // One row per solution, one character per test: `.` accepted, `W`
        // wrong answer, `T` time limit, `-` not run.
        Matrix {
            solutions: (0..rows.len()).map(|s| format!("s{s}")).collect(),
            tests: (0..rows[0].len()).map(|t| format!("t{t}")).collect(),
            verdicts: rows
                .iter()
                .map(|row| {
                    row.chars()
                        .map(|c| match c {
                            '.' => Some(Verdict::Accepted),
                            'W' => Some(Verdict::WrongAnswer),
                            'T' => Some(Verdict::TimeLimitExceeded),
                            _ => None,
                        })
                        .collect()
                })
                .collect(),
        }
    }

    #[test]
    fn first_rejections_kills_and_flags() {
        let m = matrix(&["..WW", ".T..", "...-"]);
        assert_eq!(m.first_rejection(0), Some(2));
        assert_eq!(m.first_rejection(1), Some(1));
        assert_eq!(m.first_rejection(2), None);
        assert_eq!((0..4).map(|t| m.kills(t)).collect::<Vec<_>>(), [0, 1, 1, 1]);
        assert_eq!(m.idle_tests(), [0]);
        assert_eq!(m.caught_once(), [1]);
        assert_eq!(m.rejections(2), 0);
    }
}
