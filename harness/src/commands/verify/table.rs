//! `judge verify`'s report for people and its JSON `expectations`: per
//! problem, a header, what the package stage found, where the time limit
//! came from, and a row per solution with what it was expected to get.

use std::io::{self, Write};

use crate::checks::{PackageCheck, Severity};
use crate::plan::TimeSettlement;
use crate::report::sections::HeldExpectation;
use crate::report::{Styles, human};
use crate::runner::TaskReport;
use crate::spec::{JudgingKind, ProblemSpec, SolutionSpec};
use crate::verdict::Verdict;

/// One solution's result against its expectation.
pub(super) struct Row<'a> {
    pub(super) solution: &'a SolutionSpec,
    pub(super) report: &'a TaskReport,
    /// What was expected, in words (`AC`, `WA|TLE`, `AC 100`).
    pub(super) expected: String,
    /// Where a package's expectation came from (folder, tag, file line).
    pub(super) expected_by: Option<&'a str>,
    pub(super) held: Held,
}

/// Whether a solution's result meets its expectation.
pub(super) enum Held {
    Yes,
    /// Not the verdict (or score) `problem.toml` expects: the row's
    /// columns say what it got.
    NotExpected,
    /// The package's rules it broke, each in words.
    Broken(Vec<crate::formats::Broken>),
}

impl Row<'_> {
    pub(super) fn holds(&self) -> bool {
        matches!(self.held, Held::Yes)
    }

    /// The package's rules it broke (none for `problem.toml`'s expectations).
    fn broken_rules(&self) -> Vec<String> {
        match &self.held {
            Held::Broken(rules) => rules.iter().map(ToString::to_string).collect(),
            Held::Yes | Held::NotExpected => Vec::new(),
        }
    }

    pub(super) fn json(&self, problem: &ProblemSpec) -> HeldExpectation {
        HeldExpectation {
            problem: problem.id.clone(),
            solution: self.report.submission.clone(),
            expected: match self.solution.package_submission {
                Some(_) => vec![self.expected.clone()],
                None => self
                    .solution
                    .expect
                    .iter()
                    .map(|v| v.short().to_string())
                    .collect(),
            },
            expected_score: self.solution.score,
            expected_by: self.expected_by.map(str::to_string),
            got: self.report.verdict.short(),
            score: self.report.score,
            ok: self.holds(),
            broken_rules: self.broken_rules(),
        }
    }
}

/// What one problem shows besides its rows.
pub(super) struct ProblemFindings<'a> {
    pub(super) check: &'a PackageCheck,
    pub(super) settlement: Option<&'a TimeSettlement>,
    /// Solutions not run because this machine lacks their tool: (name, tool).
    pub(super) unavailable: Vec<(&'a str, &'a str)>,
}

pub(super) fn print_problem(
    out: &mut dyn Write,
    styles: &Styles,
    problem: &ProblemSpec,
    findings: &ProblemFindings<'_>,
    rows: &[Row<'_>],
) -> io::Result<()> {
    let format = problem
        .package
        .as_ref()
        .map(|p| format!("{} package; ", p.format.describe()))
        .unwrap_or_default();
    writeln!(
        out,
        "{} — {} ({format}{} tests; {})",
        styles.bold(&problem.id),
        problem.title,
        problem.tests.len(),
        human::limits(problem)
    )?;
    if let Some(settlement) = findings.settlement {
        if let Some(explanation) = &settlement.explanation {
            writeln!(out, "  time limit {explanation}")?;
        }
        for warning in &settlement.warnings {
            writeln!(out, "  {} {warning}", styles.dim("warning:"))?;
        }
    }
    let check = findings.check;
    let passed: Vec<String> = check.lines(Severity::Passed).collect();
    if !passed.is_empty() {
        writeln!(out, "  {}", styles.good(&passed.join(", ")))?;
    }
    // What was not checked and what only warns, in the order found.
    for note in check
        .findings
        .iter()
        .filter(|f| matches!(f.severity, Severity::Skipped | Severity::Warning))
    {
        writeln!(out, "  {}", styles.dim(&note.line()))?;
    }
    for failure in check.lines(Severity::Error) {
        writeln!(out, "  {} {failure}", styles.bad("package:"))?;
    }
    let names = rows.iter().map(|r| r.report.submission.len());
    let skipped = findings.unavailable.iter().map(|(name, _)| name.len());
    let width = human::column_width(names.chain(skipped), "solution".len());
    let expected_width = human::column_width(rows.iter().map(|r| r.expected.len()), 8);
    writeln!(
        out,
        "  {:<width$}  {:<expected_width$}  {:<7} {:>9} {:>10} {:>7}",
        "solution", "expected", "got", "max time", "max mem", "tests"
    )?;
    for row in rows {
        print_row(out, styles, row, width, expected_width)?;
        if !row.holds() && matches!(problem.kind, JudgingKind::MultiPass { .. }) {
            writeln!(
                out,
                "      {}",
                multi_pass_times(row.report, problem.limits.time)
            )?;
        }
    }
    for (name, tool) in &findings.unavailable {
        let note = format!("skipped: no {tool} on this machine");
        writeln!(
            out,
            "  {:<width$}  {}",
            crate::escape::visible(name),
            styles.dim(&note)
        )?;
    }
    Ok(())
}

fn print_row(
    out: &mut dyn Write,
    styles: &Styles,
    row: &Row<'_>,
    width: usize,
    expected_width: usize,
) -> io::Result<()> {
    let report = row.report;
    let verdict = format!("{:<3}", report.verdict.short());
    let mut got = verdict.clone();
    if let Some(score) = report.score {
        got.push_str(&format!(" {}", human::trim_float(score)));
    }
    // Pad before colouring: escape codes have no width.
    let got = format!("{got:<7}").replacen(&verdict, &styles.verdict(report.verdict), 1);
    let first_failure = report
        .tests
        .iter()
        .find(|t| t.verdict != Verdict::Accepted)
        .map(|t| format!(" on {}", t.test))
        .unwrap_or_default();
    writeln!(
        out,
        "  {:<width$}  {:<expected_width$}  {} {:>9} {:>10} {:>3}/{:<3}  {}{}",
        crate::escape::visible(&report.submission),
        row.expected,
        got,
        human::ms(std::time::Duration::from_millis(report.max_cpu_ms() as u64)),
        human::size(report.max_memory_kib()),
        report.tests.len(),
        report.tests.len() + report.skipped,
        if row.holds() {
            styles.good("ok")
        } else {
            styles.bad("UNEXPECTED")
        },
        first_failure
    )?;
    if row.holds() {
        return Ok(());
    }
    for rule in row.broken_rules() {
        writeln!(out, "      {}", crate::escape::visible(&rule))?;
    }
    if let Some(message) = &report.message {
        for line in message.lines().take(10) {
            writeln!(out, "      {line}")?;
        }
    }
    if let Some(test) = report.tests.iter().find(|t| t.verdict != Verdict::Accepted) {
        human::test_line(out, styles, test, test.test.len())?;
        human::failure_details(out, styles, test)?;
    }
    Ok(())
}

/// Why a multi-pass submission got what it got in time: the specification's
/// rule (each pass has the limit on its own), and the test whose passes
/// took the most CPU time together, pass by pass. A package that expects
/// the sum of the passes to be limited sees here why a run it thought too
/// slow was accepted.
fn multi_pass_times(report: &TaskReport, limit: std::time::Duration) -> String {
    let rule = format!(
        "multi-pass: the time limit ({}) applies to each pass on its own (\"the time and memory limit apply for each invocation separately\", 2025-09)",
        human::ms(limit)
    );
    let total = |t: &&crate::runner::TestReport| t.pass_cpu.iter().sum::<std::time::Duration>();
    let slowest = report.tests.iter().max_by_key(total);
    match slowest {
        Some(test) if test.pass_cpu.len() > 1 => {
            let passes: Vec<String> = test.pass_cpu.iter().map(|&t| human::ms(t)).collect();
            format!(
                "{rule}; slowest test {}: passes {} CPU, {} together",
                test.test,
                passes.join(" + "),
                human::ms(total(&test))
            )
        }
        _ => match report.tests.iter().max_by_key(|t| t.metrics.cpu) {
            Some(test) => format!(
                "{rule}; slowest pass {} CPU, on {}",
                human::ms(test.metrics.cpu),
                test.test
            ),
            None => rule,
        },
    }
}
