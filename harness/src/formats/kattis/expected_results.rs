//! DOMjudge's `@EXPECTED_RESULTS@: ` line: a comment in a submission's
//! source listing the final verdicts it may get
//! (`// @EXPECTED_RESULTS@: CORRECT, TIMELIMIT`), and its
//! `@EXPECTED_SCORE@: ` line (a number: the score; else read as results). DOMjudge and BAPCtools
//! read it only in submission folders outside the four standard ones
//! (`accepted/`, `wrong_answer/`, ...), where the folder already says what
//! the submission gets (DOMjudge issue 1861); the first file of the
//! submission holding the line counts, its words are matched without
//! regard to case, `-` or `_`.

use std::path::Path;

use crate::formats::package::Program;
use crate::verdict::Verdict;

const RESULTS: &str = "@EXPECTED_RESULTS@:";
/// DOMjudge's other tag: a number is the expected score, anything else
/// is read as `@EXPECTED_RESULTS@`.
const SCORE: &str = "@EXPECTED_SCORE@:";

/// The lines found in a submission.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ExpectedResults {
    /// Empty only when no verdict word was known.
    pub(super) verdicts: Vec<Verdict>,
    pub(super) score: Option<f64>,
    /// `file:line` of the first line, for messages.
    pub(super) origin: String,
    /// Words that name no verdict (DOMjudge's `CHECK-MANUALLY`, typos).
    pub(super) unknown: Vec<String>,
}

/// A verdict as DOMjudge (`CORRECT`, `TIMELIMIT`, `RUN-ERROR`, ...),
/// Kattis (`AC`, `RTE`) or BAPCtools' export (`RUNTIME_ERROR`) writes it.
fn verdict_named(word: &str) -> Option<Verdict> {
    let word = word.to_ascii_uppercase().replace('-', "_");
    Some(match word.as_str() {
        "CORRECT" | "ACCEPTED" | "AC" => Verdict::Accepted,
        "WRONG_ANSWER" | "WA" | "NO_OUTPUT" => Verdict::WrongAnswer,
        "TIMELIMIT" | "TIME_LIMIT_EXCEEDED" | "TLE" => Verdict::TimeLimitExceeded,
        "RUN_ERROR" | "RUN_TIME_ERROR" | "RUNTIME_ERROR" | "RTE" => Verdict::RuntimeError,
        // Kattis' vocabulary counts both as run-time errors.
        "MEMORY_LIMIT" | "OUTPUT_LIMIT" => Verdict::RuntimeError,
        "COMPILER_ERROR" | "CE" => Verdict::CompileError,
        _ => return None,
    })
}

/// The `@EXPECTED_RESULTS@:` and `@EXPECTED_SCORE@:` lines of the first
/// of the program's files that has one, if any.
pub(super) fn expected_results(program: &Program) -> Option<ExpectedResults> {
    let mut files: Vec<&Path> = program.sources.iter().map(|p| p.as_path()).collect();
    files.extend(program.extra_files.iter().map(|p| p.as_path()));
    files.sort();
    files.into_iter().find_map(|file| {
        // Binary files and unreadable ones hold no line.
        let text = std::fs::read_to_string(file).ok()?;
        let mut found: Option<ExpectedResults> = None;
        for (index, line) in text.lines().enumerate() {
            let upper = line.to_ascii_uppercase();
            for key in [RESULTS, SCORE] {
                let Some(start) = upper.find(key).map(|at| at + key.len()) else {
                    continue;
                };
                let found = found.get_or_insert_with(|| ExpectedResults {
                    verdicts: Vec::new(),
                    score: None,
                    origin: format!("{}:{}", file.display(), index + 1),
                    unknown: Vec::new(),
                });
                // What follows on the line, up to a closing comment marker.
                let list = line[start..].split("*/").next().unwrap_or("").trim();
                match list.parse::<f64>() {
                    Ok(score) if key == SCORE && score.is_finite() => found.score = Some(score),
                    _ => read_verdicts(list, found),
                }
            }
        }
        let mut found = found?;
        if found.verdicts.is_empty() && found.score.is_some() {
            found.verdicts.push(Verdict::Accepted);
        }
        Some(found)
    })
}

fn read_verdicts(list: &str, found: &mut ExpectedResults) {
    for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match verdict_named(word) {
            Some(verdict) if !found.verdicts.contains(&verdict) => found.verdicts.push(verdict),
            Some(_) => {}
            None => found.unknown.push(word.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::program::{ProgramHints, read_program};

    fn found(name: &str, text: &str) -> Option<ExpectedResults> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        expected_results(&read_program(&path, name, &ProgramHints::default()).unwrap())
    }

    #[test]
    fn domjudge_kattis_and_bapctools_spellings() {
        let got = found(
            "a.py",
            "#!/usr/bin/env python3\n# @EXPECTED_RESULTS@: CORRECT, timelimit,RUN-ERROR\nprint(1)\n",
        )
        .unwrap();
        assert_eq!(
            got.verdicts,
            [
                Verdict::Accepted,
                Verdict::TimeLimitExceeded,
                Verdict::RuntimeError
            ]
        );
        assert!(got.origin.ends_with("a.py:2"), "{}", got.origin);
        let c = found("b.c", "/* @EXPECTED_RESULTS@: WRONG_ANSWER, NO-OUTPUT */\n").unwrap();
        assert_eq!(c.verdicts, [Verdict::WrongAnswer]);
        let other = found(
            "c.cpp",
            "// @expected_results@: RUNTIME_ERROR, CHECK-MANUALLY\n",
        )
        .unwrap();
        assert_eq!(other.verdicts, [Verdict::RuntimeError]);
        assert_eq!(other.unknown, ["CHECK-MANUALLY"]);
        assert_eq!(found("d.py", "print(1)\n"), None);
    }

    #[test]
    fn expected_score_is_a_score_or_a_list_of_results() {
        let named = found("e.py", "# @EXPECTED_SCORE@: CORRECT\n").unwrap();
        assert_eq!(named.verdicts, [Verdict::Accepted]);
        assert_eq!(named.score, None);
        let both = found(
            "f.py",
            "# @EXPECTED_RESULTS@: CORRECT\n# @EXPECTED_SCORE@: 95.35\n",
        )
        .unwrap();
        assert_eq!(
            (both.verdicts, both.score),
            (vec![Verdict::Accepted], Some(95.35))
        );
        let score = found("g.py", "# @EXPECTED_SCORE@: 40\n").unwrap();
        assert_eq!(
            (score.verdicts, score.score),
            (vec![Verdict::Accepted], Some(40.0))
        );
    }
}
