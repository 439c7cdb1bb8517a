//! 2025-09 "Validation of shared test case files": in a problem that is
//! neither interactive nor multi-pass, each sample's `.out` must pass the
//! output validator, and so must its `.ans` when nothing overrides it (no
//! `.out`, no `.ans.statement`: the `.ans` is what the statement shows).
//! The other display and download files are never validated. Earlier
//! versions ask none of this.

use std::path::Path;

use crate::formats::package::{Interaction, OutputSelfTest, PackageFormat, TestCase};
use crate::verdict::Verdict;

/// The samples' expected outputs the output validator must accept, each
/// named by its file under `data/` (`sample/2.out`).
pub(super) fn sample_outputs(
    format: PackageFormat,
    interaction: Interaction,
    tests: &[TestCase],
) -> Vec<OutputSelfTest> {
    if format != PackageFormat::Kattis2025 || interaction != Interaction::Batch {
        return Vec::new();
    }
    tests
        .iter()
        .filter(|test| test.sample)
        .filter_map(|test| {
            let beside = |ext: &str| sibling(&test.input, ext).filter(|p| p.is_file());
            let (output, ext) = match (beside("out"), beside("ans.statement")) {
                (Some(out), _) => (out, "out"),
                (None, Some(_)) => return None,
                (None, None) => (test.answer.clone(), "ans"),
            };
            Some(OutputSelfTest {
                name: format!("{}.{ext}", test.name),
                input: test.input.clone(),
                output,
                answer: test.answer.clone(),
                expected: Verdict::Accepted,
                output_validator_args: test.output_validator_args.clone(),
                // The sample's input is a test's: validated as one already.
                input_validator_args: None,
            })
        })
        .collect()
}

/// `input` (`1.in`) with `.in` replaced by `.ext`.
fn sibling(input: &Path, ext: &str) -> Option<std::path::PathBuf> {
    let stem = input.file_name()?.to_str()?.strip_suffix(".in")?;
    Some(input.with_file_name(format!("{stem}.{ext}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(dir: &Path, name: &str, files: &[&str]) -> TestCase {
        for ext in files {
            std::fs::write(dir.join(format!("{name}.{ext}")), "1\n").unwrap();
        }
        TestCase {
            name: format!("sample/{name}"),
            input: dir.join(format!("{name}.in")),
            answer: dir.join(format!("{name}.ans")),
            sample: true,
            group: Some("sample".into()),
            symlink_target: None,
            files_dir: None,
            args: Vec::new(),
            input_validator_args: Default::default(),
            answer_validator_args: Default::default(),
            output_validator_args: vec!["case_sensitive".into()],
            output_visualizer_args: Vec::new(),
            points: None,
            generator_command: None,
            description: None,
            hint: None,
        }
    }

    #[test]
    fn the_out_or_else_an_ans_that_is_shown_is_checked_in_a_batch_2025_package() {
        let dir = tempfile::tempdir().unwrap();
        let tests = [
            sample(dir.path(), "1", &["in", "ans"]),
            sample(dir.path(), "2", &["in", "ans", "out"]),
            sample(dir.path(), "3", &["in", "ans", "ans.statement"]),
        ];
        let checked = sample_outputs(PackageFormat::Kattis2025, Interaction::Batch, &tests);
        let names: Vec<&str> = checked.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["sample/1.ans", "sample/2.out"]);
        assert_eq!(checked[0].output, dir.path().join("1.ans"));
        assert_eq!(checked[1].output, dir.path().join("2.out"));
        assert_eq!(checked[1].answer, dir.path().join("2.ans"));
        assert_eq!(checked[1].output_validator_args, ["case_sensitive"]);

        for (format, interaction) in [
            (PackageFormat::Kattis2025, Interaction::Interactive),
            (
                PackageFormat::Kattis2025,
                Interaction::MultiPass {
                    passes: 2,
                    interactive: false,
                },
            ),
            (PackageFormat::Kattis2025, Interaction::SubmitAnswer),
            (PackageFormat::KattisLegacy, Interaction::Batch),
            (PackageFormat::Kattis2023Draft, Interaction::Batch),
        ] {
            assert!(sample_outputs(format, interaction, &tests).is_empty());
        }
    }
}
