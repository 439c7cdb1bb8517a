//! A problem's statement as HTML: its `statement.md` (or a Kattis
//! package's Markdown statement) through pulldown-cmark, with `$...$` and
//! `$$...$$` math as MathML (pulldown-latex), so no script is needed to
//! show it. Raw HTML in the Markdown is shown as text, never passed on:
//! a package's files are not trusted with the page. The page shows the
//! title and the samples itself (the samples downloadable): a statement's
//! own first title and its sample section are left out, not shown twice.

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

/// The Markdown as HTML, math as MathML, raw HTML escaped; its first
/// top-level title left out, and with `samples_shown` its sample section.
pub(crate) fn render(markdown: &str, samples_shown: bool) -> String {
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
    let kept = without_title_and_samples(events.collect(), samples_shown);
    pulldown_cmark::html::push_html(&mut html, kept.into_iter());
    html
}

/// `events` without the first heading when it is a top-level one (the
/// title), and with `samples_shown` without any section whose heading
/// starts with "Sample" or "Example" (up to the next heading as high).
fn without_title_and_samples(events: Vec<Event<'_>>, samples_shown: bool) -> Vec<Event<'_>> {
    use pulldown_cmark::{HeadingLevel, Tag, TagEnd};
    let mut kept = Vec::with_capacity(events.len());
    let mut skipping_below: Option<HeadingLevel> = None;
    let mut first_heading = true;
    let mut i = 0;
    while i < events.len() {
        let Event::Start(Tag::Heading { level, .. }) = &events[i] else {
            if skipping_below.is_none() {
                kept.push(events[i].clone());
            }
            i += 1;
            continue;
        };
        let level = *level;
        let end = (i..events.len())
            .find(|&j| matches!(events[j], Event::End(TagEnd::Heading(_))))
            .unwrap_or(events.len() - 1);
        let text: String = events[i..end]
            .iter()
            .filter_map(|e| match e {
                Event::Text(t) | Event::Code(t) => Some(t.to_lowercase()),
                _ => None,
            })
            .collect();
        if skipping_below.is_some_and(|l| level <= l) {
            skipping_below = None;
        }
        let title = first_heading && level == HeadingLevel::H1;
        first_heading = false;
        let samples = samples_shown
            && ["sample", "example"]
                .iter()
                .any(|w| text.trim_start().starts_with(w));
        if samples {
            skipping_below = Some(level);
        }
        if !title && skipping_below.is_none() {
            kept.extend(events[i..=end].iter().cloned());
        }
        i = end + 1;
    }
    kept
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
            true,
        );
        assert!(
            !html.contains("<h1>Sum</h1>"),
            "the page shows the title: {html}"
        );
        assert!(html.contains("<math"), "{html}");
        assert!(html.contains("display=\"block\""), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn hostile_math_is_escaped() {
        let html = render("$<img src=x onerror=alert(1)>$", true);
        assert!(!html.contains("<img"), "{html}");
    }

    #[test]
    fn the_title_and_the_samples_are_the_pages_own() {
        let markdown = "# A Game\n\nRules.\n\n## Input\n\nN.\n\n## Sample\n\nInput\n```\n6\n```\n\
                        ### More\n\nstill the sample\n\n## Notes\n\nThe end.\n";
        let html = render(markdown, true);
        assert!(
            !html.contains("A Game") && !html.contains("still the sample"),
            "{html}"
        );
        assert!(
            html.contains("<h2>Input</h2>") && html.contains("<h2>Notes</h2>"),
            "{html}"
        );
        // A problem whose samples the page cannot show keeps the statement's.
        let html = render(markdown, false);
        assert!(html.contains("<h2>Sample</h2>"), "{html}");
    }
}
