//! A student's feedback as a page: HTML (self-contained, no script, a
//! Content-Security-Policy that loads nothing) and Markdown (for a
//! repository's `FEEDBACK.md`). Everything a student or their program
//! wrote is escaped for the format: HTML entities, or Markdown's backslash
//! escapes and code fences longer than any run of backticks inside.

use std::fmt::Write as _;
use std::time::Duration;

use super::feedback::{Feedback, Graded, ProblemFeedback, Visibility};
use super::html::{CSS, badge, esc};
use super::human::{ms, size};
use super::policy::number;
use crate::escape;
use crate::runner::TestReport;

/// The marks that mean something inside a Markdown line (emphasis, code,
/// links, HTML, entities, tables, headings).
const MARKDOWN_MARKS: &str = "\\`*_{}[]<>()#!|~&=";

/// A one-line text (a name, a test, a short value) made inert in Markdown,
/// where it never starts a line: controls shown as escapes, every mark
/// that means something backslashed.
fn md(text: &str) -> String {
    let mut out = String::new();
    for c in escape::name(text).chars() {
        if MARKDOWN_MARKS.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A block of program text in a fence no line inside can close.
fn md_block(text: &str, info: &str) -> String {
    let text = escape::visible(text);
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{info}\n{}\n{fence}\n", text.trim_end_matches('\n'))
}

/// When and from what a submission was handed in, as one sentence.
fn handin_line(graded: &Graded<'_>, penalty: Option<&str>) -> Option<String> {
    let handin = graded.handin?;
    let what = match &handin.commit {
        Some(commit) => format!(
            "commit {} of {}",
            &commit[..commit.len().min(12)],
            handin.at
        ),
        None => format!("{} ({})", handin.at, handin.from),
    };
    let late = match handin.late_seconds {
        Some(s) if s > 0 => {
            let days = (s as f64 / 86_400.0).ceil();
            format!(
                "; {} late ({} started day{}){}",
                humantime::format_duration(Duration::from_secs(s as u64)),
                number(days),
                if days == 1.0 { "" } else { "s" },
                penalty
                    .map(|p| format!(", penalty {p}"))
                    .unwrap_or_default()
            )
        }
        Some(_) => "; on time".into(),
        None => String::new(),
    };
    Some(format!("handed in: {what}{late}"))
}

fn score_text(graded: &Graded<'_>) -> String {
    graded
        .score
        .map(|s| format!(" · score {}", number(s)))
        .unwrap_or_default()
}

fn hidden_text(graded: &Graded<'_>) -> Option<String> {
    (graded.hidden > 0).then(|| {
        format!(
            "{} more test{} not shown",
            graded.hidden,
            if graded.hidden == 1 { "" } else { "s" }
        )
    })
}

pub(crate) fn markdown(feedback: &Feedback<'_>) -> String {
    let mut page = String::new();
    let _ = writeln!(page, "# Feedback: {}\n", md(feedback.student));
    let _ = writeln!(
        page,
        "Graded {} (run {}).\n",
        md(&feedback.run.started_at),
        feedback.run.id
    );
    if let Some((total, out_of)) = &feedback.total {
        let _ = write!(page, "**Total: {total} of {out_of}**");
        if let Some(late) = &feedback.late_rule {
            let _ = write!(page, " (late work: {})", md(late));
        }
        page.push_str("\n\n");
    }
    for problem in &feedback.problems {
        markdown_problem(&mut page, problem);
    }
    page
}

fn markdown_problem(page: &mut String, problem: &ProblemFeedback<'_>) {
    let _ = writeln!(
        page,
        "## {}: {}\n",
        md(&problem.problem.id),
        md(&problem.problem.title)
    );
    let Some(graded) = &problem.graded else {
        page.push_str("No submission.\n\n");
        return;
    };
    let _ = write!(
        page,
        "**{}** ({}){} · file {}",
        graded.verdict.short(),
        graded.verdict.long(),
        score_text(graded),
        md(graded.path)
    );
    if let Some(points) = &problem.points {
        let _ = write!(page, " · points {points}");
    }
    page.push_str("\n\n");
    if let Some(line) = handin_line(graded, problem.penalty.as_deref()) {
        let _ = writeln!(page, "{}\n", md(&line));
    }
    if let Some(message) = graded.message {
        page.push_str(&md_block(message, "text"));
        page.push('\n');
    }
    if !graded.shown.is_empty() {
        page.push_str("| test | verdict | CPU | memory |\n|---|---|---|---|\n");
        for (test, visibility) in &graded.shown {
            let memory = match visibility {
                Visibility::Full => size(test.metrics.peak_memory_kib),
                _ => String::new(),
            };
            let _ = writeln!(
                page,
                "| {} | {} | {} | {memory} |",
                md(&test.test),
                test.verdict.short(),
                ms(test.metrics.cpu)
            );
        }
        page.push('\n');
    }
    if let Some(hidden) = hidden_text(graded) {
        let _ = writeln!(page, "{hidden}.\n");
    }
    for (test, _) in graded.shown.iter().filter(|(_, v)| *v == Visibility::Full) {
        let Some(d) = &test.difference else { continue };
        let _ = writeln!(
            page,
            "First difference on {}, line {}: expected {}, got {}\n",
            md(&test.test),
            d.line,
            md(&d.expected),
            md(&d.actual)
        );
        if !d.diff.is_empty() {
            page.push_str(&md_block(&d.diff, "diff"));
            page.push('\n');
        }
    }
}

pub(crate) fn html(feedback: &Feedback<'_>) -> String {
    let mut page = String::new();
    let name = esc(&escape::name(feedback.student));
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Feedback: {name}</title><style>{CSS}</style></head><body>\n\
         <h1>Feedback: {name}</h1><p class=\"meta\">graded {} (run {})</p>\n",
        esc(&feedback.run.started_at),
        feedback.run.id
    );
    if let Some((total, out_of)) = &feedback.total {
        let _ = writeln!(
            page,
            "<p class=\"total\"><strong>Total: {} of {}</strong>{}</p>",
            esc(total),
            esc(out_of),
            feedback
                .late_rule
                .as_deref()
                .map(|l| format!(" (late work: {})", esc(l)))
                .unwrap_or_default()
        );
    }
    for problem in &feedback.problems {
        html_problem(&mut page, problem);
    }
    page.push_str("</body></html>\n");
    page
}

fn html_problem(page: &mut String, problem: &ProblemFeedback<'_>) {
    let _ = write!(
        page,
        "<section class=\"problem\"><h2>{}: {}</h2>",
        esc(&problem.problem.id),
        esc(&problem.problem.title)
    );
    let Some(graded) = &problem.graded else {
        page.push_str("<p>No submission.</p></section>\n");
        return;
    };
    let _ = write!(
        page,
        "<p>{}{} · file {}{}</p>",
        badge(Some(graded.verdict)),
        esc(&score_text(graded)),
        esc(&escape::name(graded.path)),
        problem
            .points
            .as_deref()
            .map(|p| format!(" · points {}", esc(p)))
            .unwrap_or_default()
    );
    if let Some(line) = handin_line(graded, problem.penalty.as_deref()) {
        let _ = write!(page, "<p class=\"note\">{}</p>", esc(&escape::name(&line)));
    }
    if let Some(message) = graded.message {
        let _ = write!(
            page,
            "<pre class=\"message\">{}</pre>",
            esc(&escape::visible(message))
        );
    }
    if !graded.shown.is_empty() {
        page.push_str(
            "<table class=\"tests\"><thead><tr><th>test</th><th>verdict</th><th>CPU</th>\
             <th>memory</th><th>first difference</th></tr></thead><tbody>",
        );
        for (test, visibility) in &graded.shown {
            html_test(page, test, *visibility);
        }
        page.push_str("</tbody></table>");
    }
    if let Some(hidden) = hidden_text(graded) {
        let _ = write!(page, "<p class=\"note\">{}</p>", esc(&hidden));
    }
    page.push_str("</section>\n");
}

fn html_test(page: &mut String, test: &TestReport, visibility: Visibility) {
    let full = visibility == Visibility::Full;
    let mut notes = String::new();
    if let Some(d) = test.difference.as_ref().filter(|_| full) {
        let _ = write!(
            notes,
            "line {}: expected {}, got {}",
            d.line,
            esc(&escape::name(&d.expected)),
            esc(&escape::name(&d.actual))
        );
        if !d.diff.is_empty() {
            let _ = write!(notes, "<pre>{}</pre>", esc(&escape::visible(&d.diff)));
        }
    }
    let _ = write!(
        page,
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{notes}</td></tr>",
        esc(&escape::name(&test.test)),
        badge(Some(test.verdict)),
        esc(&ms(test.metrics.cpu)),
        if full {
            esc(&size(test.metrics.peak_memory_kib))
        } else {
            String::new()
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_text_is_inert() {
        assert_eq!(md("a*b_[c](d)"), "a\\*b\\_\\[c\\]\\(d\\)");
        assert_eq!(md("<img src=x>"), "\\<img src\\=x\\>");
        assert_eq!(md("two\nlines"), "two\\\\nlines");
    }

    #[test]
    fn a_fence_outlasts_the_backticks_inside() {
        let block = md_block("x ```` y\n", "text");
        assert!(block.starts_with("`````text\n"), "{block}");
        assert!(block.ends_with("\n`````\n"), "{block}");
        assert_eq!(md_block("\x1b[31m", ""), "```\n\\x1b[31m\n```\n");
    }
}
