//! JUnit XML (Jenkins flavour, via quick-junit): one suite per
//! (problem, submission), one case per test. Submission output can be
//! binary, so messages are stripped of characters XML cannot hold.

use std::io::Write;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::runner::TaskReport;
use crate::verdict::Verdict;

fn xml_safe(text: &str) -> String {
    text.chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
        })
        .collect()
}

pub(crate) fn write(
    out: &mut dyn Write,
    name: &str,
    tasks: &[TaskReport],
) -> Result<(), quick_junit::SerializeError> {
    let mut report = Report::new(name);
    for task in tasks {
        let mut suite = TestSuite::new(format!("{}/{}", task.problem, task.submission));
        // A message that stopped the submission before any test is a failed
        // build; one beside its tests is a note.
        if let Some(message) = task.message.as_ref().filter(|_| task.tests.is_empty()) {
            let mut status = TestCaseStatus::non_success(if task.verdict == Verdict::JudgeError {
                NonSuccessKind::Error
            } else {
                NonSuccessKind::Failure
            });
            status.set_message(format!("{}: {}", task.verdict.short(), xml_safe(message)));
            status.set_type(task.verdict.short());
            suite.add_test_case(TestCase::new("build", status));
        }
        for test in &task.tests {
            let status = if test.verdict == Verdict::Accepted {
                TestCaseStatus::success()
            } else {
                let kind = if test.verdict == Verdict::JudgeError {
                    NonSuccessKind::Error
                } else {
                    NonSuccessKind::Failure
                };
                let mut status = TestCaseStatus::non_success(kind);
                let mut message = test.verdict.long().to_string();
                if let Some(detail) = &test.detail {
                    message.push_str(": ");
                    message.push_str(detail);
                }
                if let Some(d) = &test.difference {
                    message.push_str(&format!(
                        " (line {}: expected {}, got {})",
                        d.line, d.expected, d.actual
                    ));
                }
                status.set_message(xml_safe(&message));
                status.set_type(test.verdict.short());
                status
            };
            let mut case = TestCase::new(test.test.clone(), status);
            case.set_time(test.metrics.wall);
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.serialize(out)
}
