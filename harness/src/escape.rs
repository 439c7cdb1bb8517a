//! Making bytes from a submission or a checker safe to show a person.
//!
//! A submission controls its output, its stderr and (through them) the
//! checker's messages. Printed raw, an escape sequence can erase the judge's
//! lines, paint a forged verdict or, on some terminals, answer back into the
//! input queue. Everything such a program wrote passes through [`visible`]
//! before it reaches a report: control characters become printable escapes
//! (`\x1b`, `\r`, `\u{9b}`), and so do the Unicode controls that reorder
//! text (bidirectional overrides), which can make a line read differently
//! from what it holds.

use std::fmt::Write;

/// `text` with every control character but newline and tab shown as an
/// escape. Invalid UTF-8 has already become U+FFFD (`from_utf8_lossy`).
pub(crate) fn visible(text: &str) -> String {
    escaped(text, true)
}

/// A name on one line (a student's folder, a file name, a test name):
/// [`visible`], with newlines and tabs escaped too, so that a name can
/// neither start a forged line in a table nor shift its columns.
pub(crate) fn name(text: &str) -> String {
    escaped(text, false)
}

/// Whether `c` is a control character that [`name`] shows as an escape:
/// the C0 and C1 controls (newline and tab included) and the Unicode
/// controls that reorder text. Names a person chooses (display names,
/// teams) are refused when they hold one.
pub(crate) fn is_control(c: char) -> bool {
    matches!(
        c,
        '\0'..='\x1f'
            | '\x7f'
            | '\u{80}'..='\u{9f}'
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

fn escaped(text: &str, keep_lines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' if keep_lines => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0'..='\x1f' | '\x7f' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            // C1 controls (CSI is U+009B) and the bidirectional controls.
            c if is_control(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            _ => out.push(c),
        }
    }
    out
}

/// [`visible`] of raw bytes.
pub(crate) fn visible_bytes(bytes: &[u8]) -> String {
    visible(&String::from_utf8_lossy(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_escapes_are_made_visible() {
        assert_eq!(visible("\x1b[2K\x1b[1A"), "\\x1b[2K\\x1b[1A");
        assert_eq!(visible("AC\r"), "AC\\r");
        assert_eq!(visible("bell\x07 del\x7f"), "bell\\x07 del\\x7f");
        assert_eq!(visible("\u{9b}31m"), "\\u{9b}31m");
    }

    #[test]
    fn a_name_stays_on_its_line() {
        assert_eq!(name("bob\nmallory\tAC"), "bob\\nmallory\\tAC");
        assert_eq!(visible("two\nlines"), "two\nlines");
    }

    #[test]
    fn reordering_controls_are_made_visible() {
        assert_eq!(visible("a\u{202e}cba"), "a\\u{202e}cba");
        assert_eq!(visible("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
    }

    #[test]
    fn ordinary_text_is_unchanged() {
        let text = "line 1\tcol\nзначение ≥ 5 ✓\n";
        assert_eq!(visible(text), text);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(visible_bytes(b"ok\xff\x1b"), "ok\u{fffd}\\x1b");
    }
}
