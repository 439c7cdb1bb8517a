//! The gradebook as CSV: one row per student; per problem the verdict and
//! the points; then the problems solved and, under a grading policy, the
//! total. Without a policy a problem's points are its score on a scored
//! problem, else 1 for AC and 0 otherwise, and there is no total (raw
//! points of different problems do not add up to anything); under a
//! policy they are what the cell adds to the total. UTF-8 with a byte
//! order mark, so spreadsheets read names in any script as they are.
//! And CSV read back (a class's manifest, a roster): RFC 4180, fields
//! separated by commas, quoted with `"` when they hold commas, quotes or
//! line breaks, `""` for a quote.

use std::io::{self, Write};

use super::gradebook::{Cell, Gradebook};
use super::policy::Policy;
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

pub(crate) fn write(
    out: &mut dyn Write,
    book: &Gradebook,
    policy: Option<&Policy>,
) -> io::Result<()> {
    let totals = policy.map(|p| p.apply(book));
    let mut header = vec!["student".to_string()];
    for problem in &book.problems {
        header.push(field(&problem.id));
        header.push(field(&format!("{} points", problem.id)));
    }
    header.push("solved".into());
    if let Some(totals) = &totals {
        header.push(format!("total (of {})", trim_float(totals.out_of)));
    }
    write!(out, "\u{feff}{}\r\n", header.join(","))?;
    for (r, row) in book.rows.iter().enumerate() {
        let mut fields = vec![field(&row.student)];
        for (c, cell) in row.cells.iter().enumerate() {
            match cell {
                Cell::Graded(submission) => {
                    fields.push(submission.report.verdict.short().to_string());
                    fields.push(match (policy, &totals) {
                        (Some(policy), Some(totals)) => {
                            policy.format(totals.rows[r].cells[c].points)
                        }
                        _ => trim_float(submission.points()),
                    });
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
        if let (Some(policy), Some(totals)) = (policy, &totals) {
            fields.push(policy.format(totals.rows[r].total));
        }
        write!(out, "{}\r\n", fields.join(","))?;
    }
    Ok(())
}

/// The rows of `text`, each as its fields.
pub(crate) fn parse(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
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

    #[test]
    fn quotes_commas_and_line_breaks() {
        assert_eq!(
            parse("a,\"b, c\",\"say \"\"hi\"\"\"\r\nx,\"two\nlines\",\n"),
            [vec!["a", "b, c", "say \"hi\""], vec!["x", "two\nlines", ""]]
        );
        assert_eq!(parse("last,row"), [vec!["last", "row"]]);
    }
}
