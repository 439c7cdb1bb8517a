//! What a Kattis package's samples look like to a solver (2025-09 "Sample
//! data"): by default a sample shows and downloads its `.in` and `.ans`;
//! `.in.statement`, `.ans.statement`, `.out` and (interactive and
//! multi-pass problems) `.interaction` change what is shown, and
//! `.in.download`, `.ans.download` and `.out` what is downloaded. A sample
//! may be given by its statement files alone (`6.in.statement` with
//! `6.ans.statement` and the two download files, as BAPCtools' `identity`
//! does): it is shown and offered like any other, and judged only when it
//! has an `.in`, since only an `.in` is a test case.
//!
//! Nothing here refuses a package: what breaks the specification's rules
//! (two files overriding one display, an override shown but not
//! downloaded) is a warning, and the sample is shown as best it can be.

use std::path::{Path, PathBuf};

/// A sample as a solver sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ShownSample {
    /// Its path under `data/sample/` without extension (`6`).
    pub(crate) name: String,
    pub(crate) shown: Shown,
    /// The files offered for download: input, answer.
    pub(crate) download: (PathBuf, PathBuf),
    /// It has an `.in`: it is a test case and runs too.
    pub(crate) judged: bool,
}

/// What the statement shows of a sample.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shown {
    /// An input and an expected output, each a file.
    Files { input: PathBuf, answer: PathBuf },
    /// An interaction log (`<` the judge's lines, `>` the submission's).
    Interaction(PathBuf),
}

/// The samples of the package in `dir`, in name order, and warnings for
/// what the specification does not allow. `conversation`: the problem is
/// interactive or multi-pass (only then is an `.interaction` read).
pub(crate) fn shown_samples(dir: &Path, conversation: bool) -> (Vec<ShownSample>, Vec<String>) {
    let folder = dir.join("data").join("sample");
    let mut bases: Vec<PathBuf> = walkdir::WalkDir::new(&folder)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            let stem = [".in", ".in.statement", ".interaction"]
                .iter()
                .find_map(|ext| name.strip_suffix(ext))?;
            (!stem.is_empty() && !stem.starts_with(['.', '-']))
                .then(|| entry.path().with_file_name(stem))
        })
        .collect();
    bases.sort();
    bases.dedup();
    let mut warnings = Vec::new();
    let samples = bases
        .iter()
        .filter_map(|base| sample(&folder, base, conversation, &mut warnings))
        .collect();
    (samples, warnings)
}

fn sample(
    folder: &Path,
    base: &Path,
    conversation: bool,
    warnings: &mut Vec<String>,
) -> Option<ShownSample> {
    let file = |ext: &str| {
        let mut name = base.as_os_str().to_owned();
        name.push(format!(".{ext}"));
        let path = PathBuf::from(name);
        path.is_file().then_some(path)
    };
    let name = base
        .strip_prefix(folder)
        .unwrap_or(base)
        .to_string_lossy()
        .into_owned();
    let mut warn = |message: String| warnings.push(format!("data/sample/{name}: {message}"));
    let interaction = file("interaction");
    if interaction.is_some() && !conversation {
        warn("an .interaction is for interactive and multi-pass problems: not shown".into());
    }
    let interaction = interaction.filter(|_| conversation);
    let (input, answer, out) = (file("in"), file("ans"), file("out"));
    let (in_statement, ans_statement) = (file("in.statement"), file("ans.statement"));
    let (in_download, ans_download) = (file("in.download"), file("ans.download"));

    let overrides_input = [&in_statement, &interaction];
    let overrides_answer = [&out, &ans_statement, &interaction];
    if overrides_input.iter().filter(|f| f.is_some()).count() > 1 {
        warn("give one of .in.statement and .interaction, not both".into());
    }
    if overrides_answer.iter().filter(|f| f.is_some()).count() > 1 {
        warn("give one of .out, .ans.statement and .interaction, not more".into());
    }
    if out.is_some() && ans_download.is_some() {
        warn("give one of .out and .ans.download, not both".into());
    }
    let shown = match &interaction {
        Some(log) => Shown::Interaction(log.clone()),
        None => {
            let input = in_statement.clone().or_else(|| input.clone());
            let answer = ans_statement
                .clone()
                .or_else(|| out.clone())
                .or_else(|| answer.clone());
            match (input, answer) {
                (Some(input), Some(answer)) => Shown::Files { input, answer },
                _ => {
                    warn("no input and answer to show (.in and .ans, or .in.statement and .ans.statement)".into());
                    return None;
                }
            }
        }
    };
    let overridden_in = in_statement.is_some() || interaction.is_some();
    let overridden_ans = ans_statement.is_some() || interaction.is_some();
    if overridden_in && in_download.is_none() {
        warn(
            "its input is overridden for the statement but not for download (.in.download)".into(),
        );
    }
    if overridden_ans && ans_download.is_none() && out.is_none() {
        warn(
            "its answer is overridden for the statement but not for download (.ans.download)"
                .into(),
        );
    }
    // Liberal: without a download file, what is shown is downloaded.
    let (shown_in, shown_ans) = match &shown {
        Shown::Files { input, answer } => (Some(input.clone()), Some(answer.clone())),
        Shown::Interaction(_) => (None, None),
    };
    let download_in = in_download.or_else(|| input.clone()).or(shown_in);
    let download_ans = ans_download
        .or(out)
        .or_else(|| answer.clone())
        .or(shown_ans);
    let Some(download) = download_in.zip(download_ans) else {
        warn("an .interaction needs an .in.download and an .ans.download: not shown".into());
        return None;
    };
    Some(ShownSample {
        name,
        shown,
        download,
        judged: input.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join("data/sample").join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn statement_files_override_what_is_shown_and_download_files_what_is_offered() {
        let dir = package(&[
            ("1.in", "1"),
            ("1.ans", "1"),
            ("2.in", "2"),
            ("2.ans", "2.0"),
            ("2.out", "2"),
            ("3.in.statement", "3"),
            ("3.ans.statement", "3"),
            ("3.in.download", "3"),
            ("3.ans.download", "3"),
        ]);
        let (samples, warnings) = shown_samples(dir.path(), false);
        assert_eq!(warnings, Vec::<String>::new());
        let sample = |n: usize| &samples[n];
        let at = |name: &str| dir.path().join("data/sample").join(name);
        assert_eq!(samples.len(), 3);
        assert_eq!(
            sample(0).shown,
            Shown::Files {
                input: at("1.in"),
                answer: at("1.ans")
            }
        );
        assert_eq!(
            sample(1).shown,
            Shown::Files {
                input: at("2.in"),
                answer: at("2.out")
            }
        );
        assert_eq!(sample(1).download, (at("2.in"), at("2.out")));
        assert_eq!(sample(2).name, "3");
        assert_eq!(
            sample(2).shown,
            Shown::Files {
                input: at("3.in.statement"),
                answer: at("3.ans.statement")
            }
        );
        assert_eq!(
            sample(2).download,
            (at("3.in.download"), at("3.ans.download"))
        );
        assert_eq!(
            samples.iter().map(|s| s.judged).collect::<Vec<_>>(),
            [true, true, false]
        );
    }

    #[test]
    fn an_interaction_is_shown_only_for_a_conversation_and_broken_rules_are_warnings() {
        let dir = package(&[
            ("1.interaction", "< 5\n> 5\n"),
            ("1.in.download", "5"),
            ("1.ans.download", "5"),
            ("2.in.statement", "2"),
            ("2.ans.statement", "2"),
        ]);
        let (samples, warnings) = shown_samples(dir.path(), true);
        assert_eq!(
            samples[0].shown,
            Shown::Interaction(dir.path().join("data/sample/1.interaction"))
        );
        // Without download files, what is shown is offered, with a word.
        assert_eq!(
            samples[1].download.0,
            dir.path().join("data/sample/2.in.statement")
        );
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("data/sample/2: its input is overridden"));

        let (samples, warnings) = shown_samples(dir.path(), false);
        assert_eq!(samples.len(), 1, "{samples:?}");
        assert!(
            warnings[0].contains("an .interaction is for interactive"),
            "{warnings:?}"
        );
    }
}
