//! The validators' own tests of a Kattis package (`invalid_input/`,
//! `invalid_answer/`, `invalid_output/`, `valid_output/`): each case with
//! its settings, the `test_group.yaml` of every folder on the way down
//! stacked (`stacked_settings`).

use std::path::{Path, PathBuf};

use super::{Item, Reader, items};
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::kattis::settings::CaseSettings;
use crate::formats::package::{
    AnswerSelfTest, InputSelfTest, OutputSelfTest, PackageFormat, SelfTests,
};
use crate::verdict::Verdict;

/// The kind of validator self-test a top folder of `data/` holds, under
/// its older (plural) names too; none before the modern metadata.
pub(super) fn self_test_kind(name: &str, format: PackageFormat) -> Option<&'static str> {
    match name {
        _ if !format.has_modern_metadata() => None,
        "invalid_input" | "invalid_inputs" => Some("invalid_input"),
        "invalid_output" | "invalid_outputs" => Some("invalid_output"),
        "valid_output" | "valid_outputs" => Some("valid_output"),
        "invalid_answer" | "invalid_answers" => Some("invalid_answer"),
        _ => None,
    }
}

impl Reader<'_> {
    /// The validators' own tests of `dir`, of the given kind, added to
    /// `self_tests`.
    pub(super) fn validator_self_tests(
        &mut self,
        dir: &Path,
        kind: &str,
        self_tests: &mut SelfTests,
    ) -> FormatResult<()> {
        match kind {
            "invalid_input" => self_tests.inputs = self.invalid_inputs(dir)?,
            "invalid_answer" => self_tests.answers = self.invalid_answers(dir)?,
            _ => {
                let expected = if kind == "valid_output" {
                    Verdict::Accepted
                } else {
                    Verdict::WrongAnswer
                };
                self_tests
                    .outputs
                    .extend(self.output_self_tests(dir, kind, expected)?);
            }
        }
        Ok(())
    }

    /// The cases of a validators' test folder: each `.in`, its name, and
    /// its settings (`test_group.yaml`, then `<case>.yaml`); `needs`: the
    /// other files each case must have, said as `what` when one is missing.
    fn self_test_cases(
        &mut self,
        dir: &Path,
        needs: &[&str],
        what: &str,
    ) -> FormatResult<Vec<(PathBuf, String, CaseSettings)>> {
        let config = self.config(dir, None)?;
        let mut found = Vec::new();
        collect_inputs(dir, self.meta.format, self.warnings, &mut found)?;
        found
            .into_iter()
            .map(|input| {
                if needs.iter().any(|ext| !input.with_extension(ext).is_file()) {
                    return Err(FormatError::file(&input, what));
                }
                let folder_settings = self.stacked_settings(dir, &input, &config)?;
                let settings = folder_settings
                    .with_case_file(&input.with_extension("yaml"), &self.meta.constants)?;
                let name = self.name_of(&input.with_extension(""));
                Ok((input, name, settings))
            })
            .collect()
    }

    fn invalid_inputs(&mut self, dir: &Path) -> FormatResult<Vec<InputSelfTest>> {
        let cases = self.self_test_cases(dir, &[], "")?;
        Ok(cases
            .into_iter()
            .map(|(input, name, settings)| InputSelfTest {
                name,
                input,
                valid: false,
                args: settings.input_validator_args,
            })
            .collect())
    }

    /// `invalid_answer/`: a valid `.in` and an `.ans` that some answer
    /// validator must reject.
    fn invalid_answers(&mut self, dir: &Path) -> FormatResult<Vec<AnswerSelfTest>> {
        let cases =
            self.self_test_cases(dir, &["ans"], "an invalid_answer case needs .in and .ans")?;
        Ok(cases
            .into_iter()
            .map(|(input, name, settings)| AnswerSelfTest {
                name,
                answer: input.with_extension("ans"),
                input,
                input_validator_args: settings.input_validator_args,
                answer_validator_args: settings.answer_validator_args,
            })
            .collect())
    }

    fn output_self_tests(
        &mut self,
        dir: &Path,
        kind: &str,
        expected: Verdict,
    ) -> FormatResult<Vec<OutputSelfTest>> {
        let what = format!("a {kind} case needs .in, .ans and .out");
        let cases = self.self_test_cases(dir, &["ans", "out"], &what)?;
        Ok(cases
            .into_iter()
            .map(|(input, name, settings)| OutputSelfTest {
                name,
                output: input.with_extension("out"),
                answer: input.with_extension("ans"),
                input,
                expected,
                output_validator_args: settings.output_validator_args,
                input_validator_args: Some(settings.input_validator_args),
            })
            .collect())
    }
}

fn collect_inputs(
    dir: &Path,
    format: PackageFormat,
    warnings: &mut Vec<String>,
    found: &mut Vec<PathBuf>,
) -> FormatResult<()> {
    for item in items(dir, format, warnings)? {
        match item {
            Item::Case { input, .. } => found.push(input),
            Item::Folder { path, .. } => collect_inputs(&path, format, warnings, found)?,
        }
    }
    Ok(())
}
