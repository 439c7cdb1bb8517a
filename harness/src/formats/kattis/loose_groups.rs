//! Test data laid out as BAPCtools lays it out, beyond what 2025-09 allows:
//! in a `data/secret` with test groups, folders without a `test_group.yaml`
//! beside the groups, cases directly in `secret`, and `test_group.yaml`
//! files in folders inside a group (BAPCtools' own `divsort` and
//! `generatorincludes` have them). BAPCtools stacks every `test_group.yaml`
//! from `data/` down, so a folder without one has its parent's settings;
//! each is read so, with a warning naming the file.
//!
//! Only the per-test keys (`args`, the validators' arguments, ...) stack:
//! a folder without `test_group.yaml` is no test group (its cases count in
//! the group that holds it, `secret` for a folder of `secret`), and a
//! scoring key in a nested `test_group.yaml` cannot be understood (groups do
//! not nest in 2025-09): an error on its line.

use std::path::Path;

use super::Reader;
use crate::formats::error::FormatResult;
use crate::formats::kattis::settings::{CaseSettings, GroupConfig, group_file};

impl Reader<'_> {
    /// A folder of a grouped `data/secret` without a `test_group.yaml`:
    /// its cases are `secret`'s, with `secret`'s settings.
    pub(super) fn folder_without_group_file(
        &mut self,
        dir: &Path,
        secret: &CaseSettings,
    ) -> FormatResult<()> {
        self.warnings.push(format!(
            "{}: no test_group.yaml beside folders with one (2025-09 asks for one in every folder of a grouped data/secret); read with data/secret's settings as a part of secret, as BAPCtools reads it",
            dir.display()
        ));
        self.plain_cases(dir, "secret", secret)
    }

    /// A case directly in a grouped `data/secret`: one of `secret`'s.
    pub(super) fn case_beside_groups(
        &mut self,
        input: &Path,
        secret: &CaseSettings,
    ) -> FormatResult<()> {
        self.warnings.push(format!(
            "{}: a case beside test groups (2025-09 puts every case of a grouped data/secret in a group); read as a case of secret, as BAPCtools reads it",
            input.display()
        ));
        self.case(input, "secret", secret)
    }

    /// A folder with a `test_group.yaml` inside the group (or sample, or
    /// plain secret) `group`: its per-test keys apply to its cases, over
    /// the settings it inherits; its cases stay in `group`.
    pub(super) fn nested_group_file(
        &mut self,
        dir: &Path,
        group: &str,
        inherited: &CaseSettings,
    ) -> FormatResult<()> {
        let mut parent = GroupConfig::default();
        parent.cases = inherited.clone();
        let config = GroupConfig::read(dir, &self.meta.constants, Some(&parent), self.warnings)?;
        config.forbid_scoring_keys(&format!(
            "in a folder inside {group} (test groups cannot be nested)"
        ))?;
        self.warnings.push(format!(
            "{}: test groups cannot be nested in 2025-09; its per-test keys apply to the folder's cases, which count in {group}, as BAPCtools reads it",
            config.path.display()
        ));
        self.plain_cases(dir, group, &config.cases)
    }

    /// The per-test settings of `input`, a case somewhere below `root` (a
    /// validators' test folder, whose settings are `config`): every
    /// `test_group.yaml` on the way down stacks its keys, as BAPCtools
    /// reads them (its `divsort` gives `invalid_input/integers/` its own).
    pub(super) fn stacked_settings(
        &mut self,
        root: &Path,
        input: &Path,
        config: &GroupConfig,
    ) -> FormatResult<CaseSettings> {
        let mut settings = config.cases.clone();
        let below = input
            .parent()
            .and_then(|parent| parent.strip_prefix(root).ok())
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut folder = root.to_path_buf();
        for part in below.components() {
            folder.push(part);
            if group_file(&folder).is_some() {
                let mut parent = GroupConfig::default();
                parent.cases = settings;
                let read =
                    GroupConfig::read(&folder, &self.meta.constants, Some(&parent), self.warnings)?;
                settings = read.cases;
            }
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::formats::ValidatorArgs;
    use crate::formats::read_package;

    fn fixture() -> PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/ecosystem/problems/mixgroups")
    }

    #[test]
    fn folders_without_a_group_file_inherit_and_nested_group_files_stack() {
        let package = read_package(&fixture()).unwrap().unwrap();
        let args = |name: &str| {
            let test = package.tests.iter().find(|t| t.name == name);
            let test = test.unwrap_or_else(|| panic!("no {name}: {:?}", package.tests));
            (
                test.group.clone().unwrap_or_default(),
                test.input_validator_args.clone(),
            )
        };
        let list =
            |words: &[&str]| ValidatorArgs::Same(words.iter().map(|w| w.to_string()).collect());
        assert_eq!(
            args("secret/big/1-fifty"),
            ("secret/big".into(), list(&["--max", "100"]))
        );
        // No test_group.yaml: secret's settings, in secret.
        assert_eq!(
            args("secret/general/1-seven"),
            ("secret".into(), list(&["--max", "10"]))
        );
        // A test_group.yaml inside it: its keys over secret's.
        assert_eq!(
            args("secret/general/huge/1-five-hundred"),
            ("secret".into(), list(&["--max", "1000"]))
        );
        assert_eq!(
            args("secret/3-loose"),
            ("secret".into(), list(&["--max", "10"]))
        );
        // Validators' tests stack their folders' settings too.
        let invalid: Vec<(&str, &ValidatorArgs)> = package
            .self_tests
            .inputs
            .iter()
            .map(|t| (t.name.as_str(), &t.args))
            .collect();
        assert_eq!(
            invalid,
            [
                ("invalid_input/small/fifty", &list(&["--max", "10"])),
                ("invalid_input/too-big", &list(&["--max", "1000"])),
            ]
        );
        let groups: Vec<&str> = package.groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(groups, ["sample", "secret", "secret/big"]);
        let said = package.warnings.join("\n");
        assert!(
            said.contains("general: no test_group.yaml beside folders with one"),
            "{said}"
        );
        assert!(
            said.contains("huge/test_group.yaml: test groups cannot be nested"),
            "{said}"
        );
        assert!(
            said.contains("3-loose.in: a case beside test groups"),
            "{said}"
        );
    }

    #[test]
    fn a_scoring_key_in_a_nested_group_file_is_an_error_on_its_line() {
        let (_temp, dir) = crate::formats::malformed_tests::copy_fixture("mixgroups");
        let file = dir.join("data/secret/general/huge/test_group.yaml");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, format!("{text}max_score: 5\n")).unwrap();
        let error = read_package(&dir).unwrap().unwrap_err();
        assert_eq!(error.path, file, "{error}");
        assert_eq!(error.line, Some(2), "{error}");
        assert!(
            error.message.contains("test groups cannot be nested"),
            "{error}"
        );
    }
}
