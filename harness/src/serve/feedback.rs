//! What a viewer sees of a judged submission: the jury everything; its
//! owner what the session's `feedback` allows. Samples are public, so
//! their first difference, diff and stderr may be shown; of a secret test
//! a participant never sees data (input, answer, output, stderr, a
//! checker's message, even the test's name): at most its number, verdict,
//! time and memory.

use super::session::Feedback;
use crate::escape::visible;
use crate::runner::{TaskReport, TestReport};
use crate::verdict::Verdict;

/// One test as shown.
#[derive(Debug, Clone)]
pub(crate) struct TestView {
    pub(crate) label: String,
    pub(crate) verdict: &'static str,
    pub(crate) cpu_ms: u128,
    pub(crate) memory_kib: u64,
    /// How the run ended or the checker's message (samples and jury only).
    pub(crate) detail: String,
    pub(crate) expected: String,
    pub(crate) actual: String,
    pub(crate) diff: String,
    pub(crate) stderr: String,
}

/// A judged submission as shown.
#[derive(Debug, Clone)]
pub(crate) struct FeedbackView {
    pub(crate) score: Option<f64>,
    /// The compile error (the submitter's own code), or a judge error's
    /// words (jury only).
    pub(crate) message: String,
    pub(crate) tests: Vec<TestView>,
    /// A line in place of the secret tests' list.
    pub(crate) summary: String,
}

fn full(test: &TestReport, label: String) -> TestView {
    let difference = test.difference.as_ref();
    TestView {
        label,
        verdict: test.verdict.short(),
        cpu_ms: test.metrics.cpu.as_millis(),
        memory_kib: test.metrics.peak_memory_kib,
        detail: visible(test.detail.as_deref().unwrap_or_default()),
        expected: difference.map_or_else(String::new, |d| visible(&d.expected)),
        actual: difference.map_or_else(String::new, |d| visible(&d.actual)),
        diff: difference.map_or_else(String::new, |d| visible(&d.diff)),
        stderr: visible(&test.stderr),
    }
}

fn bare(test: &TestReport, label: String) -> TestView {
    TestView {
        label,
        verdict: test.verdict.short(),
        cpu_ms: test.metrics.cpu.as_millis(),
        memory_kib: test.metrics.peak_memory_kib,
        detail: String::new(),
        expected: String::new(),
        actual: String::new(),
        diff: String::new(),
        stderr: String::new(),
    }
}

/// `report` as `jury` or its owner sees it under `feedback`.
pub(crate) fn view(report: &TaskReport, feedback: Feedback, jury: bool) -> FeedbackView {
    let message = match report.verdict {
        Verdict::CompileError => visible(report.message.as_deref().unwrap_or_default()),
        _ if jury => visible(report.message.as_deref().unwrap_or_default()),
        _ => String::new(),
    };
    let mut view = FeedbackView {
        score: report.score,
        message,
        tests: Vec::new(),
        summary: String::new(),
    };
    if jury {
        view.tests = report
            .tests
            .iter()
            .map(|t| full(t, visible(&t.test)))
            .collect();
        return view;
    }
    if feedback == Feedback::Verdict {
        return view;
    }
    let (mut samples, mut secret) = (0, 0);
    let mut first_failure = None;
    for test in &report.tests {
        if test.is_sample() {
            samples += 1;
            view.tests.push(full(test, format!("sample {samples}")));
            continue;
        }
        secret += 1;
        match feedback {
            Feedback::Tests => view.tests.push(bare(test, format!("secret test {secret}"))),
            _ if test.verdict != Verdict::Accepted && first_failure.is_none() => {
                first_failure = Some((secret, test.verdict));
            }
            _ => {}
        }
    }
    if feedback == Feedback::FirstFailure {
        view.summary = match first_failure {
            Some((n, verdict)) => format!("first failed secret test: {n} ({})", verdict.short()),
            None if secret > 0 => format!("all {secret} secret tests run passed"),
            None => String::new(),
        };
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::FirstDifference;

    fn test(name: &str, verdict: Verdict) -> TestReport {
        let group = name.rsplit_once('/').map_or("", |(g, _)| g).to_string();
        TestReport {
            verdict,
            stderr: "secret input: 42".into(),
            detail: Some("expected 17".into()),
            difference: Some(FirstDifference {
                line: 1,
                token: 1,
                expected: "17".into(),
                actual: "18".into(),
                diff: "-17\n+18".into(),
            }),
            ..TestReport::unjudged(&crate::spec::TestCase {
                name: name.into(),
                group,
                ..Default::default()
            })
        }
    }

    fn report() -> TaskReport {
        TaskReport {
            problem: "sum".into(),
            submission: "a.py".into(),
            owner: crate::owner::Owner::File {
                path: "a.py".into(),
            },
            verdict: Verdict::WrongAnswer,
            score: None,
            message: None,
            tests: vec![
                test("sample/1", Verdict::Accepted),
                test("secret/02-max", Verdict::Accepted),
                test("secret/03-edge", Verdict::WrongAnswer),
            ],
            skipped: 0,
        }
    }

    #[test]
    fn a_participant_never_sees_secret_data() {
        for feedback in [Feedback::Tests, Feedback::FirstFailure, Feedback::Verdict] {
            let view = view(&report(), feedback, false);
            let secret: Vec<&TestView> = view
                .tests
                .iter()
                .filter(|t| t.label.starts_with("secret"))
                .collect();
            for t in &secret {
                assert!(t.stderr.is_empty() && t.detail.is_empty() && t.diff.is_empty());
                assert!(t.expected.is_empty() && !t.label.contains("edge"));
            }
            match feedback {
                Feedback::Tests => assert_eq!(secret.len(), 2),
                Feedback::FirstFailure => {
                    assert!(secret.is_empty());
                    assert_eq!(view.summary, "first failed secret test: 2 (WA)");
                }
                Feedback::Verdict => assert!(view.tests.is_empty()),
            }
        }
        let samples = view(&report(), Feedback::Tests, false);
        assert_eq!(samples.tests[0].stderr, "secret input: 42");
    }

    #[test]
    fn the_jury_sees_every_test_in_full() {
        let view = view(&report(), Feedback::Verdict, true);
        assert_eq!(view.tests.len(), 3);
        assert_eq!(view.tests[2].label, "secret/03-edge");
        assert_eq!(view.tests[2].diff, "-17\n+18");
    }
}
