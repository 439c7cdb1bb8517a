//! A gradebook for the terminal: students × problems with the verdict of
//! each, solved and total; the files not graded; and the verdicts that
//! changed between two gradings.

use std::io::{self, Write};

use super::Styles;
use super::gradebook::{Cell, Change, Gradebook, RunInfo};
use super::policy::Policy;
use crate::escape;
use crate::verdict::Verdict;

/// What a cell shows for "no submission" (kept short: a column is a
/// verdict wide). Another shard's cell is left blank.
const NONE: &str = "-";

fn pad(text: String, shown: usize, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(shown) + 2))
}

pub(crate) fn gradebook(
    out: &mut dyn Write,
    styles: &Styles,
    book: &Gradebook,
    policy: Option<&Policy>,
) -> io::Result<()> {
    let totals = policy.map(|p| p.apply(book));
    if book.run.interrupted {
        writeln!(
            out,
            "{} run {} was interrupted: a verdict may lack tests that never ran",
            styles.bad("note:"),
            book.run.id
        )?;
    }
    let names: Vec<String> = book.rows.iter().map(|r| escape::name(&r.student)).collect();
    let first = names
        .iter()
        .map(|n| n.chars().count())
        .chain([7])
        .max()
        .unwrap_or(7);
    let widths: Vec<usize> = book.problems.iter().map(|p| p.id.len().max(3)).collect();
    let mut line = pad("student".into(), 7, first);
    for (problem, width) in book.problems.iter().zip(&widths) {
        line.push_str(&pad(styles.bold(&problem.id), problem.id.len(), *width));
    }
    match &totals {
        Some(_) => writeln!(out, "{line}solved  total")?,
        None => writeln!(out, "{line}solved")?,
    }
    for (r, (row, name)) in book.rows.iter().zip(&names).enumerate() {
        let mut line = pad(name.clone(), name.chars().count(), first);
        for (cell, width) in row.cells.iter().zip(&widths) {
            line.push_str(&match cell {
                Cell::Graded(s) => pad(styles.verdict(s.report.verdict), 3, *width),
                Cell::NoSubmission => pad(styles.dim(NONE), NONE.len(), *width),
                Cell::OtherShard => pad(String::new(), 0, *width),
            });
        }
        match (policy, &totals) {
            (Some(policy), Some(totals)) => writeln!(
                out,
                "{line}{:<6}  {}",
                row.solved(),
                policy.format(totals.rows[r].total)
            )?,
            _ => writeln!(out, "{line}{}", row.solved())?,
        }
    }
    if let (Some(policy), Some(totals)) = (policy, &totals) {
        writeln!(
            out,
            "total: out of {}{}",
            policy.format(totals.out_of),
            policy
                .late
                .map(|late| format!("; late: {}", late.describe()))
                .unwrap_or_default()
        )?;
    }
    if !book.unmatched.is_empty() {
        writeln!(out, "not graded ({} files):", book.unmatched.len())?;
        for file in &book.unmatched {
            writeln!(
                out,
                "  {}: {}",
                escape::name(&file.path),
                escape::name(&file.reason)
            )?;
        }
    }
    Ok(())
}

fn verdict_or_none(verdict: Option<Verdict>) -> &'static str {
    verdict.map_or("no submission", Verdict::short)
}

pub(crate) fn changes(
    out: &mut dyn Write,
    styles: &Styles,
    before: &RunInfo,
    after: &RunInfo,
    changes: &[Change],
) -> io::Result<()> {
    writeln!(
        out,
        "changes from run {} ({}) to run {} ({}): {}",
        before.id,
        before.started_at,
        after.id,
        after.started_at,
        changes.len()
    )?;
    for change in changes {
        let arrow = format!(
            "{} -> {}",
            verdict_or_none(change.before),
            verdict_or_none(change.after)
        );
        let arrow = if change.lost_accepted() {
            styles.bad(&format!("{arrow}  lost AC"))
        } else {
            arrow
        };
        writeln!(
            out,
            "  {} / {}: {arrow}",
            escape::name(&change.student),
            change.problem
        )?;
    }
    Ok(())
}
