//! A problem's statement as HTML: its `statement.md` (or a Kattis
//! package's Markdown statement) through pulldown-cmark, with `$...$` and
//! `$$...$$` math as MathML (pulldown-latex), so no script is needed to
//! show it. Raw HTML in the Markdown is shown as text, never passed on:
//! a package's files are not trusted with the page.

use std::path::{Path, PathBuf};

use pulldown_cmark::{CowStr, Event, Options, Parser};
use pulldown_latex::config::DisplayMode;

/// Where a problem's Markdown statement is, if it has one: ours, then a
/// Kattis package's (2025-09 `statement/`, legacy `problem_statement/`).
pub(crate) fn find(dir: &Path) -> Option<PathBuf> {
    let candidates = [
        dir.join("statement.md"),
        dir.join("statement/problem.en.md"),
        dir.join("statement/problem.md"),
        dir.join("problem_statement/problem.en.md"),
        dir.join("problem_statement/problem.md"),
    ];
    candidates.into_iter().find(|p| p.is_file())
}

/// The Markdown as HTML, math as MathML, raw HTML escaped.
pub(crate) fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        // Math it cannot read is shown as written.
        Event::InlineMath(latex) => match math(&latex, DisplayMode::Inline) {
            Some(mathml) => Event::InlineHtml(mathml.into()),
            None => Event::Code(latex),
        },
        Event::DisplayMath(latex) => match math(&latex, DisplayMode::Block) {
            Some(mathml) => Event::Html(mathml.into()),
            None => Event::Code(latex),
        },
        // The package's own markup is shown, not obeyed.
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

fn math(latex: &CowStr<'_>, display_mode: DisplayMode) -> Option<String> {
    let storage = pulldown_latex::Storage::new();
    let parser = pulldown_latex::Parser::new(latex, &storage);
    let mut mathml = String::new();
    let config = pulldown_latex::RenderConfig {
        display_mode,
        ..Default::default()
    };
    pulldown_latex::push_mathml(&mut mathml, parser, config)
        .ok()
        .map(|()| mathml)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_becomes_mathml_and_markup_stays_text() {
        let html = render(
            "# Sum\n\nPrint $a + b$ where $$\\sum_{i=1}^n x_i$$\n\n<script>alert(1)</script>\n",
        );
        assert!(html.contains("<h1>Sum</h1>"), "{html}");
        assert!(html.contains("<math"), "{html}");
        assert!(html.contains("display=\"block\""), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn hostile_math_is_escaped() {
        let html = render("$<img src=x onerror=alert(1)>$");
        assert!(!html.contains("<img"), "{html}");
    }
}
