//! A served session's clarifications as its archive keeps them: each
//! participant's question with the jury's answer (one line per answer;
//! one with no answer while it has none), and each message the jury sent
//! on its own (an announcement to everybody, a word to one participant).
//! Written as `clarifications.csv` beside the gradebook (`judge report`,
//! the jury's download) and as a section of the gradebook's web page.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::csv::field;
use super::html::esc;

/// One line of the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClarificationLine {
    /// When the question was asked, or the jury's message sent (RFC 3339).
    pub sent_at: String,
    /// The participant who asked, or `jury`.
    pub from: String,
    /// Who got the answer or the message: a participant, `everybody`, or
    /// `jury` for a question not answered yet.
    pub to: String,
    /// The problem it is about; empty: the session in general.
    pub problem: String,
    /// The participant's question; empty for a message of the jury's own.
    pub question: String,
    pub answer: String,
    /// The jury member who answered or wrote it.
    pub answered_by: String,
    /// When the answer was sent; empty while there is none.
    pub answered_at: String,
}

const HEADER: [&str; 8] = [
    "time",
    "from",
    "to",
    "problem",
    "question",
    "answer",
    "answered by",
    "answered at",
];

impl ClarificationLine {
    fn cells(&self) -> [&str; 8] {
        [
            &self.sent_at,
            &self.from,
            &self.to,
            &self.problem,
            &self.question,
            &self.answer,
            &self.answered_by,
            &self.answered_at,
        ]
    }
}

/// The lines as CSV, as the gradebook's CSV is written: a byte order mark,
/// CRLF, and every text a participant wrote made safe for a spreadsheet
/// (`csv::field`: a leading `=`, `+`, `-` or `@` is not a formula).
pub(crate) fn write_csv(out: &mut dyn Write, lines: &[ClarificationLine]) -> io::Result<()> {
    write!(out, "\u{feff}{}\r\n", HEADER.join(","))?;
    for line in lines {
        let cells: Vec<String> = line.cells().iter().map(|c| field(c)).collect();
        write!(out, "{}\r\n", cells.join(","))?;
    }
    Ok(())
}

/// The gradebook page's section: every line as a table row.
pub(crate) fn section(page: &mut String, lines: &[ClarificationLine]) {
    page.push_str("<h2 id=\"clarifications\">Clarifications</h2>\n");
    if lines.is_empty() {
        page.push_str("<p>No clarifications in this session.</p>\n");
        return;
    }
    page.push_str("<table class=\"clarifications\"><thead><tr>");
    for name in HEADER {
        let _ = write!(page, "<th>{name}</th>");
    }
    page.push_str("</tr></thead><tbody>\n");
    for line in lines {
        page.push_str("<tr>");
        for cell in line.cells() {
            let _ = write!(page, "<td>{}</td>", esc(cell));
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody></table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(question: &str) -> ClarificationLine {
        ClarificationLine {
            sent_at: "2026-05-01T09:00:00Z".into(),
            from: "alice".into(),
            to: "everybody".into(),
            problem: "sum".into(),
            question: question.into(),
            answer: "No, \"never\".".into(),
            answered_by: "teacher".into(),
            answered_at: "2026-05-01T09:01:00Z".into(),
        }
    }

    #[test]
    fn a_formula_a_participant_wrote_is_text_in_the_csv() {
        let mut out = Vec::new();
        write_csv(&mut out, &[line("=1+1"), line("@SUM(A1)")]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(
            rows[0],
            "\u{feff}time,from,to,problem,question,answer,answered by,answered at"
        );
        assert_eq!(
            rows[1],
            "2026-05-01T09:00:00Z,alice,everybody,sum,'=1+1,\"No, \"\"never\"\".\",teacher,\
             2026-05-01T09:01:00Z"
        );
        assert!(rows[2].contains(",'@SUM(A1),"), "{}", rows[2]);
    }

    #[test]
    fn the_section_escapes_what_participants_wrote() {
        let mut page = String::new();
        section(&mut page, &[line("<script>x</script>")]);
        assert!(page.contains("&lt;script&gt;x&lt;/script&gt;"), "{page}");
        let mut empty = String::new();
        section(&mut empty, &[]);
        assert!(empty.contains("No clarifications"), "{empty}");
    }
}
