//! What a viewer sees of a judged submission: the jury everything; its
//! owner what the session's `feedback` allows. Samples are public, so
//! their first difference, diff, stderr, time and memory may be shown; of
//! a secret test a participant never sees data (input, answer, output,
//! stderr, a checker's message, even the test's name): at most its
//! number, its verdict, and whether it kept within the time and memory
//! limits. Not the exact time or memory: a submission that solves the
//! problem could spend `input mod 100` MiB and read the secret input back
//! off its own feedback (as CMS's restricted feedback, resources are
//! shown coarsely).

use super::access::FeedbackLevel;
use super::session::Feedback;
use crate::escape::visible;
use crate::runner::{TaskReport, TestReport};
use crate::verdict::Verdict;

/// One test as shown.
#[derive(Debug, Clone)]
pub(crate) struct TestView {
    pub(crate) label: String,
    pub(crate) verdict: &'static str,
    /// The CPU time (`12 ms`), or of a secret test only `within limit` or
    /// `over limit`.
    pub(crate) time: String,
    /// The peak memory (`2.1 MiB`), or of a secret test only as coarsely.
    pub(crate) memory: String,
    /// The exact figures, for the jury and samples only (the API's).
    pub(crate) cpu_ms: Option<u64>,
    pub(crate) memory_kib: Option<u64>,
    /// How the run ended or the checker's message (samples and jury only).
    pub(crate) detail: String,
    pub(crate) expected: String,
    pub(crate) actual: String,
    pub(crate) diff: String,
    pub(crate) stderr: String,
    /// An interactive test's conversation (its end): who said it (the
    /// submission or the referee) and what (samples and jury only).
    pub(crate) transcript: Vec<(&'static str, String)>,
    /// The test's name (the jury's, to reach its files).
    pub(crate) name: String,
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

/// A time as shown.
fn shown_time(test: &TestReport) -> String {
    format!("{} ms", test.metrics.cpu.as_millis())
}

/// A peak memory as shown: below a mebibyte (or not measured, as for a
/// program whose memory the box cannot see) it says so rather than "0".
fn shown_memory(test: &TestReport) -> String {
    let kib = test.metrics.peak_memory_kib;
    if kib < 1024 {
        "< 1 MiB".into()
    } else {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    }
}

fn full(test: &TestReport, label: String) -> TestView {
    let difference = test.difference.as_ref();
    TestView {
        label,
        verdict: test.verdict.short(),
        time: shown_time(test),
        memory: shown_memory(test),
        cpu_ms: Some(u64::try_from(test.metrics.cpu.as_millis()).unwrap_or(u64::MAX)),
        memory_kib: Some(test.metrics.peak_memory_kib),
        detail: visible(test.detail.as_deref().unwrap_or_default()),
        expected: difference.map_or_else(String::new, |d| visible(&d.expected)),
        actual: difference.map_or_else(String::new, |d| visible(&d.actual)),
        diff: difference.map_or_else(String::new, |d| visible(&d.diff)),
        stderr: visible(&test.stderr),
        transcript: test
            .transcript
            .iter()
            .map(|l| {
                let who = if l.from_submission { "you" } else { "referee" };
                (who, visible(&l.text))
            })
            .collect(),
        name: test.test.clone(),
    }
}

/// A secret test as its owner sees it: the verdict, and whether it kept
/// within each limit (TLE is over the time limit, MLE the memory one).
fn bare(test: &TestReport, label: String) -> TestView {
    let within = |over: bool| if over { "over limit" } else { "within limit" }.to_string();
    TestView {
        label,
        verdict: test.verdict.short(),
        time: within(test.verdict == Verdict::TimeLimitExceeded),
        memory: within(test.verdict == Verdict::MemoryLimitExceeded),
        cpu_ms: None,
        memory_kib: None,
        detail: String::new(),
        expected: String::new(),
        actual: String::new(),
        diff: String::new(),
        stderr: String::new(),
        transcript: Vec::new(),
        name: String::new(),
    }
}

/// `report` as a viewer at `level` sees it.
pub(crate) fn view(report: &TaskReport, level: FeedbackLevel) -> FeedbackView {
    let (feedback, jury) = match level {
        FeedbackLevel::Jury => (Feedback::Tests, true),
        FeedbackLevel::Owner(feedback) => (feedback, false),
    };
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
            let view = view(&report(), FeedbackLevel::Owner(feedback));
            let secret: Vec<&TestView> = view
                .tests
                .iter()
                .filter(|t| t.label.starts_with("secret"))
                .collect();
            for t in &secret {
                assert!(t.stderr.is_empty() && t.detail.is_empty() && t.diff.is_empty());
                assert!(t.expected.is_empty() && !t.label.contains("edge"));
                // No exact resources: a program could spell a secret with them.
                assert!(t.cpu_ms.is_none() && t.memory_kib.is_none());
                assert_eq!(
                    (t.time.as_str(), t.memory.as_str()),
                    ("within limit", "within limit")
                );
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
        let samples = view(&report(), FeedbackLevel::Owner(Feedback::Tests));
        assert_eq!(samples.tests[0].stderr, "secret input: 42");
        assert!(
            samples.tests[0].cpu_ms.is_some(),
            "a sample's time is exact"
        );
    }

    #[test]
    fn the_jury_sees_every_test_in_full() {
        let view = view(&report(), FeedbackLevel::Jury);
        assert_eq!(view.tests.len(), 3);
        assert_eq!(view.tests[2].label, "secret/03-edge");
        assert_eq!(view.tests[2].diff, "-17\n+18");
    }
}
