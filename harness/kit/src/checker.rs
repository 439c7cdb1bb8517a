//! The `main` of a checker (Kattis output validator):
//! `checker input answer feedback_dir/ [args...] < submission_output`.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::{exit, judge_error};

/// One judgement: the test, the submission's output and where feedback goes.
#[derive(Debug, Clone)]
pub struct Case {
    /// The test's `.in`.
    pub input: String,
    /// The test's `.ans`.
    pub answer: String,
    /// What the submission printed.
    pub output: String,
    /// Where `judgemessage.txt` and `score.txt` go.
    pub feedback_dir: PathBuf,
    /// Extra arguments after `feedback_dir` (the package's `checker.args`).
    pub args: Vec<String>,
}

/// The command line `input answer feedback_dir [args...]` (after the program
/// name) with the two files read; `Err` explains a usage or I/O problem.
pub(crate) fn judge_files(args: &[String]) -> Result<(String, String, PathBuf), String> {
    let [input, answer, feedback_dir, ..] = args else {
        return Err("usage: input answer feedback_dir [args...]".into());
    };
    let read =
        |path: &str| std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"));
    Ok((read(input)?, read(answer)?, PathBuf::from(feedback_dir)))
}

/// Writes one feedback file; failing to is a judge error.
pub(crate) fn write_feedback(dir: &Path, name: &str, text: &str) {
    if let Err(e) = std::fs::write(dir.join(name), text) {
        judge_error(&format!("cannot write {name} in {}: {e}", dir.display()));
    }
}

/// Reads the command line and the submission's output, runs `judge`, and
/// exits: `Ok(None)` accepts (42), `Ok(Some(score))` accepts and writes
/// `score.txt`, `Err(message)` rejects (43) with the message in
/// `judgemessage.txt`. Output that is not UTF-8 is rejected without calling
/// `judge`. A usage or I/O problem, or a score that is not a finite number,
/// is a judge error (exit 1), never 42 or 43; so is a call of
/// [`crate::judge_error`] from `judge` (for a broken test file).
pub fn main(judge: impl FnOnce(&Case) -> Result<Option<f64>, String>) -> ! {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, answer, feedback_dir) = judge_files(&args).unwrap_or_else(|e| judge_error(&e));
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        judge_error(&format!("cannot read the output: {e}"));
    }
    let verdict = String::from_utf8(bytes)
        .map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            format!("the output is not UTF-8 (byte {at})")
        })
        .and_then(|output| {
            judge(&Case {
                input,
                answer,
                output,
                feedback_dir: feedback_dir.clone(),
                args: args[3..].to_vec(),
            })
        });
    match verdict {
        Ok(None) => std::process::exit(exit::ACCEPT),
        Ok(Some(score)) if score.is_finite() => {
            write_feedback(&feedback_dir, "score.txt", &format!("{score}\n"));
            std::process::exit(exit::ACCEPT)
        }
        Ok(Some(score)) => judge_error(&format!("the checker computed the score {score}")),
        Err(message) => {
            write_feedback(&feedback_dir, "judgemessage.txt", &format!("{message}\n"));
            std::process::exit(exit::REJECT)
        }
    }
}
