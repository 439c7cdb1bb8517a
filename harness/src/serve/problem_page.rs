//! A problem as its pages show it, prepared once when the server starts:
//! its statement, samples and limits.

use crate::escape::visible;
use crate::spec::ProblemSpec;

/// A problem as its pages show it, prepared once at start.
#[derive(Debug, Clone)]
pub(crate) struct ProblemPage {
    pub(crate) id: String,
    pub(crate) title: String,
    /// The statement as HTML (from Markdown, math as MathML, raw HTML escaped).
    pub(crate) statement: String,
    pub(crate) samples: Vec<Sample>,
    pub(crate) limits: String,
    pub(crate) interactive: bool,
    pub(crate) time_limit_seconds: f64,
    /// The memory and output limits in MiB (the CCS API's problems).
    pub(crate) memory_mib: u64,
    pub(crate) output_mib: u64,
    pub(crate) tests: usize,
    /// How many of its tests are samples (the only ones ever played on
    /// the play page: a secret test's referee would show its secret).
    pub(crate) sample_tests: usize,
    /// Every test's name and files, in order: the jury's to read.
    pub(crate) test_files: Vec<TestFiles>,
}

/// A test's name and files (the jury's only).
#[derive(Debug, Clone)]
pub(crate) struct TestFiles {
    pub(crate) name: String,
    pub(crate) input: std::path::PathBuf,
    pub(crate) answer: std::path::PathBuf,
}

#[derive(Debug, Clone)]
pub(crate) struct Sample {
    /// As shown (control characters escaped).
    pub(crate) input: String,
    pub(crate) answer: String,
    /// As downloaded: the files' own bytes.
    pub(crate) input_bytes: Vec<u8>,
    pub(crate) answer_bytes: Vec<u8>,
    /// `input` is an interaction log (a Kattis `.interaction`), with no
    /// answer shown beside it.
    pub(crate) interaction: bool,
    /// The interaction log's own bytes, to download (empty without one).
    pub(crate) log_bytes: Vec<u8>,
}

/// A problem's samples as its page shows them: a Kattis package's by the
/// specification's display and download files (`formats::shown_samples`),
/// others' from their sample tests. An interactive problem's are the
/// referee's secrets unless the package gives an interaction log.
fn samples(spec: &ProblemSpec) -> Vec<Sample> {
    let read = |path: &std::path::Path| std::fs::read(path).unwrap_or_default();
    let shown = |bytes: &[u8]| visible(&String::from_utf8_lossy(bytes));
    if spec.dir.join("problem.yaml").is_file() {
        let conversation = spec.kind.is_interactive()
            || matches!(spec.kind, crate::spec::JudgingKind::MultiPass { .. });
        let (found, _) = crate::formats::shown_samples(&spec.dir, conversation);
        return found
            .into_iter()
            .filter_map(|sample| {
                let (input, answer, log_bytes) = match &sample.shown {
                    crate::formats::Shown::Files { input, answer } => {
                        (shown(&read(input)), shown(&read(answer)), None)
                    }
                    crate::formats::Shown::Interaction(log) => {
                        let bytes = read(log);
                        (shown(&bytes), String::new(), Some(bytes))
                    }
                };
                let interaction = log_bytes.is_some();
                if spec.kind.is_interactive() && !interaction {
                    return None;
                }
                Some(Sample {
                    input,
                    answer,
                    input_bytes: read(&sample.download.0),
                    answer_bytes: read(&sample.download.1),
                    interaction,
                    log_bytes: log_bytes.unwrap_or_default(),
                })
            })
            .collect();
    }
    if spec.kind.is_interactive() {
        return Vec::new();
    }
    spec.tests
        .iter()
        .filter(|t| t.is_sample())
        .map(|t| {
            let (input_bytes, answer_bytes) = (read(&t.input), read(&t.answer));
            Sample {
                input: shown(&input_bytes),
                answer: shown(&answer_bytes),
                input_bytes,
                answer_bytes,
                interaction: false,
                log_bytes: Vec::new(),
            }
        })
        .collect()
}

impl ProblemPage {
    pub(crate) fn new(spec: &ProblemSpec) -> ProblemPage {
        let samples = samples(spec);
        let statement = super::statement::find(&spec.dir)
            .and_then(|path| std::fs::read_to_string(path).ok())
            .map(|markdown| super::statement::render(&markdown, !samples.is_empty()))
            .unwrap_or_default();
        ProblemPage {
            id: spec.id.clone(),
            title: spec.title.clone(),
            statement,
            samples,
            limits: crate::report::human::limits(spec),
            interactive: spec.kind.is_interactive(),
            time_limit_seconds: spec.limits.time.as_secs_f64(),
            memory_mib: spec.limits.memory >> 20,
            output_mib: spec.limits.output >> 20,
            tests: spec.tests.len(),
            sample_tests: spec.tests.iter().filter(|t| t.is_sample()).count(),
            test_files: spec
                .tests
                .iter()
                .map(|t| TestFiles {
                    name: t.name.clone(),
                    input: t.input.clone(),
                    answer: t.answer.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
#[path = "problem_page_tests.rs"]
mod tests;
