//! Output for people: per-test lines with the first difference, per-task
//! summaries, and the verify table.

use std::io::{self, Write};
use std::time::Duration;

use super::Styles;
use crate::runner::{TaskReport, TestReport};
use crate::spec::ProblemSpec;
use crate::verdict::Verdict;

pub(crate) fn ms(duration: Duration) -> String {
    let ms = duration.as_secs_f64() * 1000.0;
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        format!("{ms:.0} ms")
    }
}

pub(crate) fn size(kib: u64) -> String {
    if kib >= 1024 {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    } else {
        format!("{kib} KiB")
    }
}

pub(crate) fn limits(problem: &ProblemSpec) -> String {
    format!(
        "{} CPU, {} memory, {} output",
        ms(problem.limits.time),
        size(problem.limits.memory / 1024),
        size(problem.limits.output / 1024)
    )
}

/// `  WA   secret/02        12 ms    3.1 MiB   line 1, token 1: expected `1`, got `-1``
pub(crate) fn test_line(
    out: &mut dyn Write,
    styles: &Styles,
    test: &TestReport,
    width: usize,
) -> io::Result<()> {
    let mut note = String::new();
    if let Some(score) = test.score {
        note.push_str(&format!("score {score}  "));
    }
    if let Some(d) = &test.difference {
        if d.token > 0 {
            note.push_str(&format!(
                "line {}, token {}: expected {}, got {}",
                d.line, d.token, d.expected, d.actual
            ));
        } else {
            note.push_str(&format!(
                "line {}: expected {}, got {}",
                d.line, d.expected, d.actual
            ));
        }
    } else if let Some(detail) = &test.detail {
        if test.verdict != Verdict::Accepted || test.score.is_some() {
            note.push_str(detail.lines().next().unwrap_or_default());
        }
    }
    if let Some(timing) = &test.timing {
        let runs: Vec<String> = timing
            .runs
            .iter()
            .map(|r| format!("{} {}", r.verdict.short(), ms(r.cpu)))
            .collect();
        let what = if timing.unstable {
            styles.bad("timing-unstable")
        } else {
            "judged again on a busy machine".to_string()
        };
        note.push_str(&format!("  ({what}: {})", runs.join(", ")));
    }
    writeln!(
        out,
        "  {} {:<width$} {:>9} {:>9} {:>10}   {}",
        styles.verdict(test.verdict),
        test.test,
        ms(test.metrics.cpu),
        ms(test.metrics.wall),
        size(test.metrics.peak_memory_kib),
        note
    )
}

/// The header over `test_line`s.
pub(crate) fn test_header(out: &mut dyn Write, width: usize) -> io::Result<()> {
    writeln!(
        out,
        "  {:<3} {:<width$} {:>9} {:>9} {:>10}",
        "", "test", "cpu", "wall", "memory"
    )
}

/// The diff and stderr under a failed test, indented.
pub(crate) fn failure_details(
    out: &mut dyn Write,
    styles: &Styles,
    test: &TestReport,
) -> io::Result<()> {
    if let Some(d) = &test.difference {
        for line in d.diff.lines() {
            writeln!(out, "      {}", styles.dim(line))?;
        }
    }
    if let Some(detail) = &test.detail {
        if detail.lines().count() > 1 {
            for line in detail.lines().take(12) {
                writeln!(out, "      {line}")?;
            }
        }
    }
    if !test.transcript.is_empty() && test.verdict != Verdict::Accepted {
        writeln!(
            out,
            "      {}",
            styles.dim("the end of the game (> you, < referee):")
        )?;
        for line in &test.transcript {
            let arrow = if line.from_submission { ">" } else { "<" };
            writeln!(out, "      {arrow} {}", line.text)?;
        }
    }
    if !test.stderr.trim().is_empty() && test.verdict != Verdict::Accepted {
        writeln!(out, "      stderr:")?;
        for line in test.stderr.lines().take(8) {
            writeln!(out, "      | {line}")?;
        }
    }
    Ok(())
}

/// `verdict: WA on secret/02 · 7 of 12 tests run · max 15 ms · max 3.1 MiB`
pub(crate) fn task_summary(
    out: &mut dyn Write,
    styles: &Styles,
    task: &TaskReport,
) -> io::Result<()> {
    // The test that decided a rejection (a package's grader may accept a
    // submission that failed some tests: then no test is named).
    let first_failure = task
        .tests
        .iter()
        .find(|t| t.verdict == task.verdict && t.verdict != Verdict::Accepted);
    let mut line = format!(
        "{} {}",
        styles.bold(&format!("{}:", crate::escape::name(&task.submission))),
        styles.verdict(task.verdict).trim_end()
    );
    if let Some(test) = first_failure {
        line.push_str(&format!(" on {}", test.test));
    }
    if let Some(score) = task.score {
        line.push_str(&format!(" · score {}", trim_float(score)));
    }
    let run = task.tests.len();
    line.push_str(&format!(
        " · {run} of {} tests run · max {} · max {}",
        run + task.skipped,
        ms(Duration::from_millis(task.max_cpu_ms() as u64)),
        size(task.max_memory_kib())
    ));
    let unstable = task.tests.iter().filter(|t| t.timing_unstable()).count();
    if unstable > 0 {
        line.push_str(&format!(
            " · {}",
            styles.bad(&format!(
                "timing-unstable on {} (the time limit was not charged)",
                count(unstable, "test")
            ))
        ));
    }
    writeln!(out, "{line}")?;
    if task.skipped > 0 && task.verdict == Verdict::Accepted {
        writeln!(
            out,
            "  (not a full AC: {} tests were not run)",
            task.skipped
        )?;
    }
    if let Some(message) = &task.message {
        for text in message.lines().take(30) {
            writeln!(out, "  {text}")?;
        }
    }
    Ok(())
}

pub(crate) fn trim_float(value: f64) -> String {
    super::policy::number(value)
}

/// The width of a column holding `lengths`, and at least its header's.
pub(crate) fn column_width(lengths: impl Iterator<Item = usize>, header: usize) -> usize {
    lengths.max().unwrap_or(0).max(header)
}

pub(crate) fn list(out: &mut dyn Write, problems: &[ProblemSpec]) -> io::Result<()> {
    let width = column_width(problems.iter().map(|p| p.id.len()), 2);
    writeln!(
        out,
        "{:<width$}  {:>6} {:>6}  {:>8} {:>9} {:>9}  compare  title",
        "id", "sample", "secret", "time", "memory", "output"
    )?;
    for p in problems {
        let samples = p.tests.iter().filter(|t| t.is_sample()).count();
        let mode = match &p.compare.mode {
            crate::spec::CompareMode::Tokens(_) | crate::spec::CompareMode::KattisFlags => "tokens",
            crate::spec::CompareMode::Exact => "exact",
            crate::spec::CompareMode::Checker(_) => "checker",
        };
        writeln!(
            out,
            "{:<width$}  {:>6} {:>6}  {:>8} {:>9} {:>9}  {:<7}  {}",
            p.id,
            samples,
            p.tests.len() - samples,
            ms(p.limits.time),
            size(p.limits.memory / 1024),
            size(p.limits.output / 1024),
            mode,
            p.title
        )?;
    }
    Ok(())
}

/// `1 test`, `2 tests`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A learner's run of one submission, told as it happens: a line per test
/// in test order (tests finish out of order on several workers), the
/// difference of the first failed test (of every one with `all_diffs`: a
/// screen of diffs hides the one that matters), then the summary.
pub(crate) struct TestLines<'o> {
    out: &'o mut dyn Write,
    styles: Styles,
    width: usize,
    all_diffs: bool,
    /// Finished tests not yet printed, by index.
    waiting: std::collections::BTreeMap<usize, TestReport>,
    next: usize,
    detailed: bool,
    undetailed: usize,
}

impl<'o> TestLines<'o> {
    pub(crate) fn new(
        out: &'o mut dyn Write,
        styles: Styles,
        width: usize,
        all_diffs: bool,
    ) -> TestLines<'o> {
        TestLines {
            out,
            styles,
            width,
            all_diffs,
            waiting: Default::default(),
            next: 0,
            detailed: false,
            undetailed: 0,
        }
    }

    fn print(&mut self, report: &TestReport) -> io::Result<()> {
        let failed = report.verdict != Verdict::Accepted;
        let show = failed && (self.all_diffs || !self.detailed);
        self.detailed |= show;
        self.undetailed += usize::from(failed && !show);
        test_line(self.out, &self.styles, report, self.width)?;
        if show {
            failure_details(self.out, &self.styles, report)?;
        }
        Ok(())
    }
}

impl super::Reporter for TestLines<'_> {
    fn report_event(&mut self, event: &crate::runner::Event<'_>) -> io::Result<()> {
        use crate::runner::Event;
        match event {
            Event::Started { .. } => test_header(self.out, self.width),
            Event::TestFinished { test, report, .. } => {
                self.waiting.insert(*test, (*report).clone());
                while let Some(report) = self.waiting.remove(&self.next) {
                    self.print(&report)?;
                    self.next += 1;
                }
                Ok(())
            }
            Event::TaskFinished { report, .. } => {
                // Tests skipped after a failure leave gaps: the rest, in order.
                for report in std::mem::take(&mut self.waiting).into_values() {
                    self.print(&report)?;
                }
                task_summary(self.out, &self.styles, report)?;
                if self.undetailed > 0 {
                    let note = format!(
                        "(the differences of {} are not shown: --diffs all shows them)",
                        count(self.undetailed, "more failed test")
                    );
                    writeln!(self.out, "{}", self.styles.dim(&note))?;
                }
                Ok(())
            }
            Event::RunFinished { .. } => Ok(()),
        }
    }
}
