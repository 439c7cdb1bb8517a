//! `data/` of a Kattis/ICPC package: test cases in run order, test groups
//! with their scoring, per-test validator arguments, and the validators'
//! own tests (2025-09 `invalid_input/`, `invalid_output/`, `valid_output/`).
//!
//! Legacy: `data/sample` and `data/secret`, every folder a group, settings
//! from `testdata.yaml` inherited down the tree (problemtools merges them
//! the same way). 2025-09: `data/secret` holds either cases or groups
//! (folders with a `test_group.yaml`), settings from `test_group.yaml`
//! (after `{{constant}}` substitution) and `<case>.yaml`; `<case>.files/`
//! and symlinked files inside the package are test data too.

use std::path::{Path, PathBuf};

#[path = "loose_groups.rs"]
mod loose_groups;
#[path = "self_test_data.rs"]
mod self_test_data;
#[path = "static_cases.rs"]
mod static_cases;

use self::self_test_data::self_test_kind;

use super::metadata::Metadata;
use super::settings::{CaseSettings, GroupConfig, LegacySettings, group_file};
use super::version;
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::package::{
    Aggregation, LegacyGrading, MaxScore, PackageFormat, SelfTests, StaticCase, TestCase,
    TestGroup, is_sample_group,
};

pub(crate) struct Data {
    pub(crate) tests: Vec<TestCase>,
    pub(crate) groups: Vec<TestGroup>,
    /// The `data/` folder's legacy grading (legacy test data groups only).
    pub(crate) legacy_root: Option<LegacyGrading>,
    pub(crate) self_tests: SelfTests,
    pub(crate) static_cases: Vec<StaticCase>,
}

/// One directory entry that matters: a case (by its `.in`) or a folder.
enum Item {
    Case { stem: String, input: PathBuf },
    Folder { name: String, path: PathBuf },
}

impl Item {
    fn key(&self) -> &str {
        match self {
            Item::Case { stem, .. } => stem,
            Item::Folder { name, .. } => name,
        }
    }
}

/// The cases and folders of `dir` in lexicographic order of their names.
/// `.files` folders belong to their case and are not listed; hidden names
/// (starting with `.` or `-`) are ignored, as the specification asks.
fn items(dir: &Path, format: PackageFormat, warnings: &mut Vec<String>) -> FormatResult<Vec<Item>> {
    let mut names: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| FormatError::io(dir, &e))?
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with(['.', '-']))
        .collect();
    names.sort();
    let has_input = |stem: &str| dir.join(format!("{stem}.in")).is_file();
    let mut found = Vec::new();
    for (name, path) in names {
        if path.is_dir() {
            if let Some(stem) = name
                .strip_suffix(".files")
                .filter(|_| format.has_modern_metadata())
            {
                if !has_input(stem) {
                    return Err(FormatError::file(&path, "a .files folder without its .in"));
                }
                continue;
            }
            if has_input(&name) {
                return Err(FormatError::file(
                    &path,
                    "a folder may not share its name with a test case",
                ));
            }
            found.push(Item::Folder { name, path });
        } else if let Some(stem) = name.strip_suffix(".in") {
            found.push(Item::Case {
                stem: stem.to_string(),
                input: path,
            });
        } else if let Some(stem) = name.strip_suffix(".ans").filter(|stem| !has_input(stem)) {
            let message = format!("{}: {stem}.ans has no {stem}.in", dir.display());
            if format == PackageFormat::Kattis2025 {
                return Err(FormatError::file(&path, "an .ans without its .in"));
            }
            warnings.push(message);
        } else if name == "test_group.yaml" && format == PackageFormat::KattisLegacy {
            warnings.push(format!(
                "{}: test_group.yaml is 2025-09; legacy packages use testdata.yaml",
                path.display()
            ));
        }
    }
    found.sort_by(|a, b| a.key().cmp(b.key()));
    Ok(found)
}

/// A symlinked test file must stay inside the package; returns its target.
fn symlink_target(package: &Path, file: &Path) -> FormatResult<Option<PathBuf>> {
    let meta = std::fs::symlink_metadata(file).map_err(|e| FormatError::io(file, &e))?;
    if !meta.file_type().is_symlink() {
        return Ok(None);
    }
    let target =
        std::fs::canonicalize(file).map_err(|_| FormatError::file(file, "broken symbolic link"))?;
    let root = std::fs::canonicalize(package).map_err(|e| FormatError::io(package, &e))?;
    if !target.starts_with(&root) {
        return Err(FormatError::file(
            file,
            format!("symbolic link to {} outside the package", target.display()),
        ));
    }
    Ok(Some(target))
}

struct Reader<'a> {
    package: &'a Path,
    data: PathBuf,
    meta: &'a Metadata,
    warnings: &'a mut Vec<String>,
    tests: Vec<TestCase>,
    groups: Vec<TestGroup>,
    /// 2025-09: `data/test_group.yaml`, which the specification does not
    /// name but BAPCtools writes and reads: its per-test keys reach every
    /// folder of `data/`.
    data_config: Option<GroupConfig>,
    static_cases: Vec<StaticCase>,
}

pub(crate) fn read_data(
    package: &Path,
    meta: &Metadata,
    warnings: &mut Vec<String>,
) -> FormatResult<Data> {
    let data = package.join("data");
    require_data_folder(package, &data)?;
    let mut reader = Reader {
        package,
        data: data.clone(),
        meta,
        warnings,
        tests: Vec::new(),
        groups: Vec::new(),
        data_config: None,
        static_cases: Vec::new(),
    };
    // Legacy settings inherit down from data/testdata.yaml; 2025-09 reads
    // data/test_group.yaml's per-test keys instead (and no root grading).
    let root_settings = match meta.format.has_2025_groups() {
        false => Some(reader.legacy_root_settings()?),
        true => {
            reader.read_data_config()?;
            None
        }
    };
    let mut self_tests = SelfTests::default();
    for item in items(&data, meta.format, reader.warnings)? {
        reader.top_folder(item, root_settings.as_ref(), &mut self_tests)?;
    }
    reader.require_secret_or_samples()?;
    if meta.format.has_2025_groups() {
        check_require_pass(&data, &reader.groups)?;
    }
    Ok(Data {
        legacy_root: root_settings.map(|settings| settings.grading),
        tests: reader.tests,
        groups: reader.groups,
        self_tests,
        static_cases: reader.static_cases,
    })
}

/// Every version requires data/secret/ (the format's own skeleton examples
/// of interactive, multi-pass and submit-answer problems have none):
/// without data/ there is nothing to judge, unless generators.yaml makes it.
fn require_data_folder(package: &Path, data: &Path) -> FormatResult<()> {
    if data.is_dir() {
        return Ok(());
    }
    let why = match package.join("generators/generators.yaml").is_file() {
        true => "no data/ folder: `judge generate` makes it from generators/generators.yaml",
        false => {
            "no data/ folder: a package's tests are in data/secret/, which every version of the format requires"
        }
    };
    Err(FormatError::file(data, why))
}

impl Reader<'_> {
    /// Legacy: the settings of `data/testdata.yaml` (and the problem's
    /// grading), which every group below inherits.
    fn legacy_root_settings(&mut self) -> FormatResult<LegacySettings> {
        let settings = LegacySettings::read(
            &self.data,
            self.meta.format,
            &LegacySettings::default(),
            self.warnings,
        )?;
        Ok(settings.with_problem_grading(&self.meta.grading))
    }

    /// 2025-09: `data/test_group.yaml`, read (with a warning) as BAPCtools
    /// reads it, since the specification does not name it.
    fn read_data_config(&mut self) -> FormatResult<()> {
        let Some(file) = group_file(&self.data) else {
            return Ok(());
        };
        let config = self.config(&self.data.clone(), None)?;
        config.forbid_scoring_keys("in data/")?;
        self.warnings.push(format!(
            "{}: not in 2025-09's specification; its keys reach every folder of data/, as BAPCtools reads them",
            file.display()
        ));
        self.data_config = Some(config);
        Ok(())
    }

    /// One entry of `data/`: `sample` or `secret` (legacy groups when
    /// `root` is given, 2025-09 ones otherwise), the validators' own
    /// tests, or something not read (with a warning).
    fn top_folder(
        &mut self,
        item: Item,
        root: Option<&LegacySettings>,
        self_tests: &mut SelfTests,
    ) -> FormatResult<()> {
        let (name, path) = match item {
            Item::Case { input, .. } => {
                return Err(FormatError::file(
                    &input,
                    "test cases belong in data/sample or data/secret",
                ));
            }
            Item::Folder { name, path } => (name, path),
        };
        let self_test = self_test_kind(&name, self.meta.format);
        if let Some(modern) = self_test.filter(|modern| *modern != name) {
            self.warnings.push(version::renamed(
                &path,
                &format!("data/{modern}/"),
                self.meta.format,
            ));
        }
        match (root, name.as_str(), self_test) {
            (Some(root), "sample" | "secret", _) => self.legacy_group(&path, &name, None, root),
            (None, "sample", _) => self.sample_2025(&path),
            (None, "secret", _) => self.secret_2025(&path),
            (_, _, Some(kind)) => self.validator_self_tests(&path, kind, self_tests),
            _ => {
                self.warnings.push(format!(
                    "{}: not read (only sample, secret and the validators' tests are)",
                    path.display()
                ));
                Ok(())
            }
        }
    }

    /// DOMjudge judges a package of samples only (its own `hello` is one);
    /// problemtools calls it an error. Judged on what there is.
    fn require_secret_or_samples(&mut self) -> FormatResult<()> {
        if self.groups.iter().any(|g| g.name == "secret") {
            return Ok(());
        }
        if self.tests.is_empty() {
            return Err(FormatError::file(&self.data, "no test cases in data/"));
        }
        self.warnings.push(format!(
            "{}: no data/secret folder; judged on the samples only",
            self.data.display()
        ));
        Ok(())
    }
}

impl Reader<'_> {
    fn name_of(&self, path: &Path) -> String {
        let relative = path.strip_prefix(&self.data).unwrap_or(path);
        relative.to_string_lossy().replace('\\', "/")
    }

    fn case(&mut self, input: &Path, group: &str, settings: &CaseSettings) -> FormatResult<()> {
        let answer = input.with_extension("ans");
        if !answer.is_file() {
            return Err(FormatError::file(
                input,
                "test input has no matching .ans file",
            ));
        }
        let name = self.name_of(&input.with_extension(""));
        let symlink = symlink_target(self.package, input)?;
        symlink_target(self.package, &answer)?;
        let mut settings = match self.meta.format {
            PackageFormat::KattisLegacy => settings.with_legacy_annotations(input)?,
            _ => {
                let from_yaml =
                    settings.with_case_file(&input.with_extension("yaml"), &self.meta.constants)?;
                self.legacy_annotations(input, from_yaml)?
            }
        };
        if self.meta.format.has_2025_groups() && !self.meta.validator_flags.is_empty() {
            // A legacy `validator_flags` in a 2025-09 problem.yaml (read
            // with a warning) comes first, as in legacy packages.
            let mut flags = self.meta.validator_flags.clone();
            flags.append(&mut settings.output_validator_args);
            settings.output_validator_args = flags;
        }
        let files_dir = input.with_extension("files");
        self.tests.push(TestCase {
            sample: is_sample_group(group),
            name,
            input: input.to_path_buf(),
            answer,
            group: Some(group.to_string()),
            symlink_target: symlink,
            files_dir: (self.meta.format.has_modern_metadata() && files_dir.is_dir())
                .then_some(files_dir),
            args: settings.args,
            input_validator_args: settings.input_validator_args,
            answer_validator_args: settings.answer_validator_args,
            output_validator_args: settings.output_validator_args,
            output_visualizer_args: settings.output_visualizer_args,
            points: None,
            generator_command: None,
            description: settings.description,
            hint: settings.hint,
        });
        Ok(())
    }

    /// The legacy `.hint` and `.desc` files beside a test of a newer
    /// version, read where `<case>.yaml` gives no `hint` or `description`
    /// (BAPCtools' `upgrade` moves them there), with a warning.
    fn legacy_annotations(
        &mut self,
        input: &Path,
        yaml: CaseSettings,
    ) -> FormatResult<CaseSettings> {
        let legacy = yaml.with_legacy_annotations(input)?;
        let mut settings = yaml;
        for (extension, key, found, slot) in [
            ("hint", "hint", legacy.hint, &mut settings.hint),
            (
                "desc",
                "description",
                legacy.description,
                &mut settings.description,
            ),
        ] {
            if let (Some(text), None) = (found, slot.as_ref()) {
                self.warnings.push(format!(
                    "{}: read as `{key}` of {} (the place in {} packages)",
                    input.with_extension(extension).display(),
                    input.with_extension("yaml").display(),
                    self.meta.format.version_name()
                ));
                *slot = Some(text);
            }
        }
        Ok(settings)
    }

    /// Legacy: every folder is a group; settings inherit down the tree.
    fn legacy_group(
        &mut self,
        dir: &Path,
        name: &str,
        parent: Option<&str>,
        inherited: &LegacySettings,
    ) -> FormatResult<()> {
        let settings = LegacySettings::read(dir, self.meta.format, inherited, self.warnings)?
            .with_problem_grading(&self.meta.grading);
        if settings.grading.custom_grader {
            return Err(FormatError::file(
                &dir.join("testdata.yaml"),
                "custom graders (`grading: custom`) are not supported",
            ));
        }
        self.groups.push(TestGroup {
            name: name.to_string(),
            parent: parent.map(str::to_string),
            aggregation: if self.meta.scoring {
                settings.score_aggregation()
            } else {
                Aggregation::PassFail
            },
            max_score: MaxScore::Unbounded,
            require_pass: Vec::new(),
            legacy: Some(settings.grading.clone()),
        });
        let case_settings = settings.case_settings(&self.meta.validator_flags);
        for item in items(dir, self.meta.format, self.warnings)? {
            match item {
                Item::Case { input, .. } => self.case(&input, name, &case_settings)?,
                Item::Folder { name: child, path } => {
                    self.legacy_group(&path, &format!("{name}/{child}"), Some(name), &settings)?;
                }
            }
        }
        Ok(())
    }

    /// The settings of `dir`, over `parent`'s (or `data/`'s).
    fn config(&mut self, dir: &Path, parent: Option<&GroupConfig>) -> FormatResult<GroupConfig> {
        let parent = parent.or(self.data_config.as_ref());
        GroupConfig::read(dir, &self.meta.constants, parent, self.warnings)
    }

    /// Cases of `dir` and its plain sub-folders (no groups below).
    fn plain_cases(
        &mut self,
        dir: &Path,
        group: &str,
        settings: &CaseSettings,
    ) -> FormatResult<()> {
        for item in items(dir, self.meta.format, self.warnings)? {
            match item {
                Item::Case { input, .. } => self.case(&input, group, settings)?,
                Item::Folder { path, .. } => match group_file(&path) {
                    Some(_) => self.nested_group_file(&path, group, settings)?,
                    None => self.plain_cases(&path, group, settings)?,
                },
            }
        }
        Ok(())
    }

    fn sample_2025(&mut self, dir: &Path) -> FormatResult<()> {
        let config = self.config(dir, None)?;
        config.forbid_scoring_keys("in sample")?;
        self.groups.push(TestGroup {
            name: "sample".to_string(),
            parent: None,
            aggregation: Aggregation::PassFail,
            max_score: MaxScore::Unbounded,
            require_pass: Vec::new(),
            legacy: None,
        });
        self.static_case(&config, "sample", Aggregation::PassFail)?;
        self.plain_cases(dir, "sample", &config.cases)
    }

    fn secret_2025(&mut self, dir: &Path) -> FormatResult<()> {
        let config = self.config(dir, None)?;
        if !self.meta.scoring {
            config.forbid_scoring_keys("in a pass-fail problem")?;
        }
        let default_aggregation = if self.meta.scoring {
            Aggregation::Sum
        } else {
            Aggregation::PassFail
        };
        let secret_max = config.max_score.unwrap_or(MaxScore::Bounded(100.0));
        let secret_aggregation = config.aggregation.unwrap_or(default_aggregation);
        self.groups.push(TestGroup {
            name: "secret".to_string(),
            parent: None,
            aggregation: secret_aggregation,
            max_score: secret_max,
            require_pass: config.require_pass.clone(),
            legacy: None,
        });
        self.static_case(&config, "secret", secret_aggregation)?;
        let entries = items(dir, self.meta.format, self.warnings)?;
        let grouped = entries
            .iter()
            .any(|item| matches!(item, Item::Folder { path, .. } if group_file(path).is_some()));
        if !grouped {
            return self.plain_cases(dir, "secret", &config.cases);
        }
        for item in entries {
            // What 2025-09 forbids here BAPCtools reads (`loose_groups`).
            let (child, path) = match item {
                Item::Case { input, .. } => {
                    self.case_beside_groups(&input, &config.cases)?;
                    continue;
                }
                Item::Folder { name, path } => (name, path),
            };
            if group_file(&path).is_none() {
                self.folder_without_group_file(&path, &config.cases)?;
                continue;
            }
            let group_config = self.config(&path, Some(&config))?;
            if !self.meta.scoring {
                group_config.forbid_scoring_keys("in a pass-fail problem")?;
            }
            let max_score = match (group_config.max_score, secret_max, self.meta.scoring) {
                (Some(max), _, _) => max,
                (None, MaxScore::Unbounded, _) | (None, _, false) => MaxScore::Unbounded,
                (None, MaxScore::Bounded(_), true) => {
                    return Err(FormatError::file(
                        &group_config.path,
                        "`max_score` is required: secret has a bounded max_score",
                    ));
                }
            };
            let name = format!("secret/{child}");
            let aggregation = group_config.aggregation.unwrap_or(Aggregation::PassFail);
            self.groups.push(TestGroup {
                name: name.clone(),
                parent: Some("secret".to_string()),
                aggregation,
                max_score,
                require_pass: group_config.require_pass.clone(),
                legacy: None,
            });
            self.static_case(&group_config, &name, aggregation)?;
            self.plain_cases(&path, &name, &group_config.cases)?;
        }
        Ok(())
    }
}

/// `require_pass` names `sample` or an earlier group with pass-fail scoring.
fn check_require_pass(data: &Path, groups: &[TestGroup]) -> FormatResult<()> {
    for group in groups {
        for required in &group.require_pass {
            let file = data.join(&group.name).join("test_group.yaml");
            let target = groups.iter().find(|g| &g.name == required);
            let message = match target {
                None => format!("`require_pass` names `{required}`, which is not a test group"),
                Some(t) if t.aggregation != Aggregation::PassFail => {
                    format!(
                        "`require_pass` names `{required}`, which does not have pass-fail aggregation"
                    )
                }
                Some(_) if required.as_str() >= group.name.as_str() && required != "sample" => {
                    format!(
                        "`require_pass` names `{required}`, which does not come before `{}`",
                        group.name
                    )
                }
                Some(_) => continue,
            };
            return Err(FormatError::file(&file, message));
        }
    }
    Ok(())
}
