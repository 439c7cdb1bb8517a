//! The gradebook as CSV: one row per student; per problem the verdict and
//! the points (the score on a scored problem, else 1 for AC and 0
//! otherwise); then the problems solved and the total. UTF-8 with a byte
//! order mark, so spreadsheets read names in any script as they are.

use std::io::{self, Write};

use super::gradebook::{Cell, Gradebook};
use crate::report::human::trim_float;

/// What a cell says for a student without a file for the problem.
pub(crate) const NO_SUBMISSION: &str = "no submission";

/// A text field as CSV: quoted when it holds a separator, a quote or a
/// line break; a leading `=`, `+`, `-` or `@` is preceded by `'` so that a
/// spreadsheet shows a name rather than evaluating it as a formula.
pub(crate) fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) || text.trim() != text {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

pub(crate) fn write(out: &mut dyn Write, book: &Gradebook) -> io::Result<()> {
    let mut header = vec!["student".to_string()];
    for problem in &book.problems {
        header.push(field(&problem.id));
        header.push(field(&format!("{} points", problem.id)));
    }
    header.extend(["solved".into(), "total".into()]);
    write!(out, "\u{feff}{}\r\n", header.join(","))?;
    for row in &book.rows {
        let mut fields = vec![field(&row.student)];
        for cell in &row.cells {
            match cell {
                Cell::Graded(submission) => {
                    fields.push(submission.report.verdict.short().to_string());
                    fields.push(trim_float(submission.points()));
                }
                Cell::NoSubmission => {
                    fields.push(NO_SUBMISSION.to_string());
                    fields.push("0".into());
                }
                // Another shard's: left empty, not claimed.
                Cell::OtherShard => fields.extend([String::new(), String::new()]),
            }
        }
        fields.push(row.solved().to_string());
        fields.push(trim_float(row.total()));
        write!(out, "{}\r\n", fields.join(","))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(field("alice"), "alice");
        assert_eq!(field("Doe, Ann"), "\"Doe, Ann\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(field("-1+2"), "'-1+2");
    }
}
