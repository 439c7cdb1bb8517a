//! How a problem judges a submission on a test: its judging kind, decided
//! once when the problem is loaded (`problem.toml` in `problem.rs`, a
//! package in `lower.rs`) and matched once, by `runner::judge_test`.

/// A problem's judging kind (CMS calls it a task type, DMOJ a grader).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgingKind {
    /// The program runs on the test's input; its stdout is judged by the
    /// problem's `compare` (a built-in comparison or a checker).
    Batch,
    /// The program talks with the problem's interactor, which judges it (a
    /// testlib interactor also writes an output file for `compare`).
    Interactive,
    /// Kattis multi-pass: the output validator may ask for another pass on
    /// a new input it writes (`nextpass.in`), up to `passes` passes; each
    /// pass is a batch run, or an interactive one.
    MultiPass { passes: u32, interactive: bool },
    /// A submission is its answer files, one per test, each judged by the
    /// problem's `compare` as a program's output would be; nothing runs.
    OutputOnly,
}

impl JudgingKind {
    /// Whether a submission talks with an interactor (and so never sees a
    /// test's input file).
    pub fn is_interactive(self) -> bool {
        matches!(
            self,
            JudgingKind::Interactive
                | JudgingKind::MultiPass {
                    interactive: true,
                    ..
                }
        )
    }

    /// Whether a submission is a set of answer files rather than a program.
    pub fn is_output_only(self) -> bool {
        self == JudgingKind::OutputOnly
    }
}

impl std::fmt::Display for JudgingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            JudgingKind::Batch => "batch",
            JudgingKind::Interactive => "interactive",
            JudgingKind::MultiPass {
                interactive: false, ..
            } => "multi-pass",
            JudgingKind::MultiPass {
                interactive: true, ..
            } => "interactive multi-pass",
            JudgingKind::OutputOnly => "output-only",
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::JudgingKind;
    use crate::spec::load_problem;

    #[test]
    fn each_problem_s_kind_is_decided_at_load_and_agrees_with_its_programs() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let multi_pass = JudgingKind::MultiPass {
            passes: 2,
            interactive: false,
        };
        for (folder, kind) in [
            ("problems/sum", JudgingKind::Batch),
            ("problems/guess", JudgingKind::Interactive),
            ("problems/guess-testlib", JudgingKind::Interactive),
            ("ecosystem/problems/sumsquares", JudgingKind::OutputOnly),
            ("ecosystem/problems/pairsum", JudgingKind::Batch),
            ("ecosystem/problems/pebbles", JudgingKind::Batch),
            ("ecosystem/problems/nimduel", JudgingKind::Interactive),
            ("ecosystem/problems/countdown", JudgingKind::Interactive),
            ("ecosystem/problems/nimrounds", multi_pass),
            ("ecosystem/problems/squarepair", JudgingKind::OutputOnly),
        ] {
            let problem = load_problem(&fixtures.join(folder)).unwrap();
            assert_eq!(problem.kind, kind, "{folder}");
            // An interactive kind's submission talks with the interactor,
            // and only then is there one.
            assert_eq!(
                problem.kind.is_interactive(),
                problem.interactor.is_some(),
                "{folder}"
            );
        }
    }
}
