//! The validators' own tests of a Kattis package (`invalid_input/`,
//! `invalid_answer/`, `invalid_output/`, `valid_output/`): each case with
//! its settings, the `test_group.yaml` of every folder on the way down
//! stacked (`stacked_settings`).

use std::path::{Path, PathBuf};

use super::{Item, Reader, items};
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::kattis::settings::CaseSettings;
use crate::formats::package::{AnswerSelfTest, InputSelfTest, OutputSelfTest, PackageFormat};
use crate::verdict::Verdict;

impl Reader<'_> {
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

    pub(super) fn invalid_inputs(&mut self, dir: &Path) -> FormatResult<Vec<InputSelfTest>> {
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
    pub(super) fn invalid_answers(&mut self, dir: &Path) -> FormatResult<Vec<AnswerSelfTest>> {
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

    pub(super) fn output_self_tests(
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
