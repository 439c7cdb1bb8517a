//! A short unified diff of the lines around a difference, for people.

use similar::TextDiff;

/// Lines of context on each side of the first difference.
const CONTEXT: usize = 3;
/// Longest line shown.
const LINE_WIDTH: usize = 120;

/// A unified diff of expected vs actual around 1-based `line` of each,
/// bounded in size however large the outputs are.
pub(crate) fn around(
    expected: &[u8],
    actual: &[u8],
    expected_line: usize,
    actual_line: usize,
) -> String {
    let window = |text: &[u8], line: usize| -> String {
        let first = line.saturating_sub(CONTEXT + 1);
        let mut out = String::new();
        // A final newline ends the last line; it does not start another.
        let text = text.strip_suffix(b"\n").unwrap_or(text);
        for raw in text
            .split(|&b| b == b'\n')
            .skip(first)
            .take(2 * CONTEXT + 1)
        {
            out.push_str(&super::shorten(raw, LINE_WIDTH));
            out.push('\n');
        }
        out
    };
    let old = window(expected, expected_line);
    let new = window(actual, actual_line);
    TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(CONTEXT)
        .header("expected", "output")
        .to_string()
}
