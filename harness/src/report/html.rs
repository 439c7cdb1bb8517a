//! The gradebook as one self-contained HTML page: no network, no external
//! assets (a Content-Security-Policy forbids loading any, and only the
//! page's own script, by nonce, may run). It holds the run's description,
//! a verdict chart per problem (inline SVG), the gradebook table (sortable
//! and filterable by `html/page.js`), the files not graded, and per
//! submission its tests: verdict, CPU and wall time against the limit as
//! bars, memory, the first difference, and the compile message.
//!
//! Every text that came from a student, a file name or a program's output
//! passes through `esc`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::gradebook::{Cell, Gradebook, ProblemInfo, StudentRow, Submission};
use super::policy::{Policy, RowTotal};
use crate::report::human::{ms, size, trim_float};
use crate::runner::TestReport;
use crate::verdict::Verdict;

pub(crate) const CSS: &str = include_str!("html/page.css");
const SCRIPT: &str = include_str!("html/page.js");

/// `text` safe inside HTML text and quoted attribute values.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A badge for a verdict, or for a test that was not run.
pub(crate) fn badge(verdict: Option<Verdict>) -> String {
    match verdict {
        Some(v) => format!(
            "<span class=\"v v-{0}\" title=\"{1}\">{0}</span>",
            v.short(),
            v.long()
        ),
        None => "<span class=\"v v-none\">not run</span>".into(),
    }
}

pub(crate) fn write(
    out: &mut dyn Write,
    book: &Gradebook,
    policy: Option<&Policy>,
) -> io::Result<()> {
    let nonce =
        blake3::hash(format!("{:?}{}", std::time::SystemTime::now(), book.run.id).as_bytes())
            .to_hex()[..24]
            .to_string();
    let mut page = String::new();
    let run = &book.run;
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'nonce-{nonce}'\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Gradebook: run {}</title><style>{CSS}</style></head><body>\n\
         <h1>Gradebook</h1><p class=\"meta\">run {} · {} · started {} · finished {} · \
         judge {} · on {}{}{}{}<br>{}</p>\n",
        run.id,
        run.id,
        esc(&run.command),
        esc(&run.started_at),
        esc(run.finished_at.as_deref().unwrap_or("?")),
        esc(&run.judge_version),
        esc(&run.machine),
        run.source
            .as_deref()
            .map(|s| format!(" · class {}", esc(s)))
            .unwrap_or_default(),
        run.partition
            .as_deref()
            .or(run.merged_from.as_deref().map(|_| "merged"))
            .map(|p| format!(" · partition {}", esc(p)))
            .unwrap_or_default(),
        if run.interrupted {
            " · <strong>interrupted: some tests never ran</strong>"
        } else {
            ""
        },
        esc(&run.isolation),
    );
    charts(&mut page, book);
    table(&mut page, book, policy);
    unmatched(&mut page, book);
    if run.command == "serve" {
        super::clarifications::section(&mut page, &book.clarifications);
    }
    page.push_str("<h2>Submissions</h2>\n");
    for (index, (student, problem, submission)) in book.submissions().enumerate() {
        submission_details(&mut page, index, student, problem, submission);
    }
    let _ = writeln!(
        page,
        "<script nonce=\"{nonce}\">{SCRIPT}</script></body></html>"
    );
    out.write_all(page.as_bytes())
}

/// Per problem, the count of each verdict (and of "no submission") as bars.
fn charts(page: &mut String, book: &Gradebook) {
    page.push_str("<h2>Verdicts per problem</h2><div class=\"charts\">\n");
    for (column, problem) in book.problems.iter().enumerate() {
        let (counts, missing) = book.distribution(column);
        let mut bars: Vec<(&str, usize)> = counts.iter().map(|(v, n)| (v.short(), *n)).collect();
        if missing > 0 {
            bars.push(("none", missing));
        }
        let most = bars.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
        let (bar, gap, height) = (34, 10, 100);
        let width = bars.len().max(1) * (bar + gap) + gap;
        let _ = write!(
            page,
            "<figure class=\"chart\" data-problem=\"{0}\"><figcaption>{0}: {1}</figcaption>\
             <svg role=\"img\" aria-label=\"verdicts of {0}\" width=\"{width}\" height=\"{2}\" \
             viewBox=\"0 0 {width} {2}\">",
            esc(&problem.id),
            esc(&problem.title),
            height + 36
        );
        for (i, (label, count)) in bars.iter().enumerate() {
            let h = (count * height / most).max(1);
            let x = gap + i * (bar + gap);
            let y = 16 + height - h;
            let _ = write!(
                page,
                "<rect class=\"fill-{label}\" x=\"{x}\" y=\"{y}\" width=\"{bar}\" height=\"{h}\">\
                 <title>{label}: {count}</title></rect>\
                 <text x=\"{cx}\" y=\"{ty}\" text-anchor=\"middle\">{count}</text>\
                 <text x=\"{cx}\" y=\"{ly}\" text-anchor=\"middle\">{label}</text>",
                cx = x + bar / 2,
                ty = y - 3,
                ly = 16 + height + 14,
            );
        }
        page.push_str("</svg></figure>\n");
    }
    page.push_str("</div>\n");
}

fn table(page: &mut String, book: &Gradebook, policy: Option<&Policy>) {
    let totals = policy.map(|p| (p, p.apply(book)));
    let _ = write!(
        page,
        "<h2>Gradebook</h2><input id=\"filter\" type=\"search\" \
         placeholder=\"filter by student or verdict\" aria-label=\"filter\"> \
         <span class=\"note\"><span id=\"shown\">{}</span> of {} students shown; \
         click a heading to sort</span>\n<table id=\"gradebook\"><thead><tr>\
         <th data-key=\"student\" data-type=\"text\">student</th>",
        book.rows.len(),
        book.rows.len()
    );
    for problem in &book.problems {
        let _ = write!(
            page,
            "<th data-key=\"{0}\" data-type=\"verdict\" title=\"{1}\">{0}</th>",
            esc(&problem.id),
            esc(&problem.title)
        );
    }
    page.push_str("<th data-key=\"solved\" data-type=\"number\">solved</th>");
    if let Some((policy, totals)) = &totals {
        let _ = write!(
            page,
            "<th data-key=\"total\" data-type=\"number\" title=\"by the grading policy\">\
             total (of {})</th>",
            policy.format(totals.out_of)
        );
    }
    page.push_str("</tr></thead><tbody>\n");
    let mut index = 0;
    for (r, row) in book.rows.iter().enumerate() {
        let total = totals.as_ref().map(|(p, t)| (*p, &t.rows[r]));
        table_row(page, row, total, &mut index);
    }
    page.push_str("</tbody></table>\n");
}

/// One student's row; `index` numbers submissions as `submissions()` does.
fn table_row(
    page: &mut String,
    row: &StudentRow,
    total: Option<(&Policy, &RowTotal)>,
    index: &mut usize,
) {
    // The filter reads `data-search`: the student and their verdicts, lowercased.
    let mut search = row.student.to_lowercase();
    let mut cells = format!("<td data-value=\"{0}\">{0}</td>", esc(&row.student));
    for cell in &row.cells {
        match cell {
            Cell::Graded(submission) => {
                let verdict = submission.report.verdict.short();
                search.push(' ');
                search.push_str(&verdict.to_lowercase());
                let score = submission
                    .report
                    .score
                    .map(|s| format!(" {}", trim_float(s)))
                    .unwrap_or_default();
                let _ = write!(
                    cells,
                    "<td class=\"v v-{verdict}\" data-value=\"{verdict}\">\
                     <a href=\"#s-{index}\">{verdict}{score}</a></td>"
                );
                *index += 1;
            }
            Cell::NoSubmission => {
                search.push_str(" none");
                cells.push_str("<td class=\"v v-none\" data-value=\"none\">none</td>");
            }
            Cell::OtherShard => {
                cells.push_str("<td data-value=\"\" title=\"graded by another shard\"></td>")
            }
        }
    }
    let total = total
        .map(|(policy, total)| {
            let late: f64 = total.cells.iter().map(|c| c.penalty).fold(0.0, f64::max);
            format!(
                "<td class=\"num\" data-value=\"{0}\"{1}>{0}</td>",
                policy.format(total.total),
                if late > 0.0 {
                    " title=\"a late penalty applies\""
                } else {
                    ""
                }
            )
        })
        .unwrap_or_default();
    let _ = writeln!(
        page,
        "<tr data-search=\"{}\">{cells}<td class=\"num\" data-value=\"{1}\">{1}</td>{total}</tr>",
        esc(&search),
        row.solved(),
    );
}

fn unmatched(page: &mut String, book: &Gradebook) {
    if book.unmatched.is_empty() {
        return;
    }
    let _ = write!(
        page,
        "<h2>Files not graded ({})</h2><table id=\"unmatched\"><thead><tr><th>file</th>\
         <th>why</th></tr></thead><tbody>",
        book.unmatched.len()
    );
    for file in &book.unmatched {
        let _ = write!(
            page,
            "<tr><td>{}</td><td>{}</td></tr>",
            esc(&file.path),
            esc(&file.reason)
        );
    }
    page.push_str("</tbody></table>\n");
}

/// A bar of `value` against `limit`; red past it.
fn bar(value: u64, limit: u64, text: &str) -> String {
    let share = if limit == 0 {
        0.0
    } else {
        value as f64 / limit as f64
    };
    format!(
        "<span class=\"bar{}\" title=\"{} of the limit\"><span style=\"width:{:.0}%\"></span></span>{}",
        if share > 1.0 { " over" } else { "" },
        esc(&format!("{:.0}%", share * 100.0)),
        (share * 100.0).min(100.0),
        esc(text)
    )
}

fn submission_details(
    page: &mut String,
    index: usize,
    student: &str,
    problem: &ProblemInfo,
    submission: &Submission,
) {
    let report = &submission.report;
    let reused = submission.reused.iter().filter(|r| **r).count();
    let _ = write!(
        page,
        "<details class=\"submission\" id=\"s-{index}\"><summary>{} · {} · {}{} · {}{}</summary>",
        esc(student),
        esc(&problem.id),
        badge(Some(report.verdict)),
        report
            .score
            .map(|s| format!(" score {}", trim_float(s)))
            .unwrap_or_default(),
        esc(&submission.path),
        submission
            .language
            .as_deref()
            .map(|l| format!(" ({})", esc(l)))
            .unwrap_or_default(),
    );
    let _ = write!(
        page,
        "<p class=\"note\">limits: {} CPU, {} wall, {} memory; {} tests run, {} from the store, \
         {} skipped</p>",
        ms(std::time::Duration::from_millis(problem.time_ms)),
        ms(std::time::Duration::from_millis(problem.wall_ms)),
        size(problem.memory_kib),
        report.tests.len() - reused,
        reused,
        report.skipped
    );
    if let Some(message) = &report.message {
        let _ = write!(page, "<pre class=\"message\">{}</pre>", esc(message));
    }
    if !report.tests.is_empty() {
        page.push_str(
            "<table class=\"tests\"><thead><tr><th>test</th><th>verdict</th><th>CPU</th>\
             <th>wall</th><th>memory</th><th>first difference, message</th></tr></thead><tbody>",
        );
        for test in &report.tests {
            test_row(page, problem, test);
        }
        page.push_str("</tbody></table>");
    }
    page.push_str("</details>\n");
}

fn test_row(page: &mut String, problem: &ProblemInfo, test: &TestReport) {
    let cpu = test.metrics.cpu.as_millis() as u64;
    let wall = test.metrics.wall.as_millis() as u64;
    let mut notes = String::new();
    if let Some(d) = &test.difference {
        let place = match d.token {
            0 => format!("line {}", d.line),
            token => format!("line {}, token {token}", d.line),
        };
        let _ = write!(
            notes,
            "{}: expected {}, got {}",
            esc(&place),
            esc(&d.expected),
            esc(&d.actual)
        );
        if !d.diff.is_empty() {
            let _ = write!(
                notes,
                "<details><summary>diff</summary><pre>{}</pre></details>",
                esc(&d.diff)
            );
        }
    }
    if let Some(detail) = &test.detail {
        let _ = write!(notes, "<div>{}</div>", esc(detail));
    }
    if test.timing_unstable() {
        notes.push_str("<div>timing unstable: runs disagreed on a busy machine</div>");
    }
    let _ = write!(
        page,
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{notes}</td></tr>",
        esc(&test.test),
        badge(Some(test.verdict)),
        bar(cpu, problem.time_ms, &ms(test.metrics.cpu)),
        bar(wall, problem.wall_ms, &ms(test.metrics.wall)),
        bar(
            test.metrics.peak_memory_kib,
            problem.memory_kib,
            &size(test.metrics.peak_memory_kib)
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_text_is_escaped() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"y\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;"
        );
    }
}
