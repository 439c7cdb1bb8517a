//! Settings files of Kattis test data: legacy `testdata.yaml`, 2025-09
//! `test_group.yaml` and `<case>.yaml`, and legacy `.hint`/`.desc` files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::formats::error::{FormatError, FormatResult};
use crate::formats::package::{Aggregation, Constants, LegacyGrading, MaxScore, ValidatorArgs};
use crate::formats::yaml::{Map, Value, YamlFile};

/// What a test case is run and validated with.
#[derive(Debug, Clone, Default)]
pub(crate) struct CaseSettings {
    pub(crate) args: Vec<String>,
    pub(crate) input_validator_args: ValidatorArgs,
    pub(crate) output_validator_args: Vec<String>,
    pub(crate) full_feedback: Option<bool>,
    pub(crate) description: Option<String>,
    pub(crate) hint: Option<String>,
}

/// Keys shared by `test_group.yaml` and `<case>.yaml`.
const CASE_KEYS: &[&str] = &[
    "args",
    "input_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
];

fn validator_args(value: &Value<'_>) -> FormatResult<ValidatorArgs> {
    if value.is_map() {
        let mut map = BTreeMap::new();
        for (name, args) in value.map()?.entries() {
            map.insert(name, args.string_list()?);
        }
        Ok(ValidatorArgs::PerValidator(map))
    } else {
        Ok(ValidatorArgs::Same(value.string_list()?))
    }
}

impl CaseSettings {
    /// `self` with the keys of `map` laid over it.
    fn overlay(&self, map: &Map<'_>) -> FormatResult<CaseSettings> {
        let mut next = self.clone();
        if let Some(value) = map.get("args") {
            next.args = value.string_list()?;
        }
        if let Some(value) = map.get("input_validator_args") {
            next.input_validator_args = validator_args(&value)?;
        }
        if let Some(value) = map.get("output_validator_args") {
            next.output_validator_args = value.string_list()?;
        }
        for key in ["input_visualizer_args", "output_visualizer_args"] {
            if let Some(value) = map.get(key) {
                value.string_list()?;
            }
        }
        if let Some(flag) = map.bool("full_feedback")? {
            next.full_feedback = Some(flag);
        }
        Ok(next)
    }

    /// 2025-09: `<case>.yaml`, when present, overrides the group's settings.
    /// Constants are not substituted there (it is test data).
    pub(crate) fn with_case_file(
        &self,
        path: &Path,
        _constants: &Constants,
    ) -> FormatResult<CaseSettings> {
        let mut next = self.clone();
        next.description = None;
        next.hint = None;
        if !path.is_file() {
            return Ok(next);
        }
        let file = YamlFile::read(path)?;
        let root = file.root();
        let mut keys = CASE_KEYS.to_vec();
        keys.extend(["hint", "description"]);
        root.only_keys(&keys)?;
        next = next.overlay(&root)?;
        next.description = root.str("description")?;
        next.hint = root.str("hint")?;
        Ok(next)
    }

    /// Legacy annotations: `<case>.hint` and `<case>.desc` beside the `.in`.
    pub(crate) fn with_legacy_annotations(&self, input: &Path) -> FormatResult<CaseSettings> {
        let read = |ext: &str| -> FormatResult<Option<String>> {
            let path = input.with_extension(ext);
            if !path.is_file() {
                return Ok(None);
            }
            let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
            Ok(Some(text.trim().to_string()))
        };
        let mut next = self.clone();
        next.hint = read("hint")?;
        next.description = read("desc")?;
        Ok(next)
    }
}

/// A 2025-09 `test_group.yaml` (absent: every default).
#[derive(Debug, Clone, Default)]
pub(crate) struct GroupConfig {
    path: PathBuf,
    pub(crate) max_score: Option<MaxScore>,
    pub(crate) aggregation: Option<Aggregation>,
    pub(crate) require_pass: Vec<String>,
    pub(crate) cases: CaseSettings,
    /// Scoring keys present, with their lines, for "not allowed here" errors.
    scoring_keys: Vec<(String, usize)>,
}

const GROUP_KEYS: &[&str] = &[
    "max_score",
    "score_aggregation",
    "static_validation_score",
    "require_pass",
    "static_validator_args",
];

impl GroupConfig {
    /// Reads `path` (after `{{constant}}` substitution); case settings
    /// start from `parent`'s (secret's settings reach its groups).
    pub(crate) fn read(
        path: &Path,
        constants: &Constants,
        parent: Option<&GroupConfig>,
    ) -> FormatResult<GroupConfig> {
        let mut config = GroupConfig {
            path: path.to_path_buf(),
            cases: parent.map(|p| p.cases.clone()).unwrap_or_default(),
            ..GroupConfig::default()
        };
        if !path.is_file() {
            return Ok(config);
        }
        let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, &e))?;
        let file = YamlFile::parse(path, &constants.substitute(&text))?;
        let root = file.root();
        let mut keys = CASE_KEYS.to_vec();
        keys.extend(GROUP_KEYS);
        root.only_keys(&keys)?;
        for key in ["static_validation_score", "static_validator_args"] {
            if let Some(value) = root.get(key) {
                return Err(value.error("static validation is not supported"));
            }
        }
        for key in ["max_score", "score_aggregation", "require_pass"] {
            if let Some(value) = root.get(key) {
                config.scoring_keys.push((key.to_string(), value.line()));
            }
        }
        if let Some(value) = root.get("max_score") {
            config.max_score = Some(if value.string()? == "unbounded" {
                MaxScore::Unbounded
            } else {
                MaxScore::Bounded(value.unsigned()? as f64)
            });
        }
        if let Some(value) = root.get("score_aggregation") {
            config.aggregation = Some(match value.string()?.as_str() {
                "pass-fail" => Aggregation::PassFail,
                "sum" => Aggregation::Sum,
                "min" => Aggregation::Min,
                other => return Err(value.error(format!("`{other}` is not pass-fail, sum or min"))),
            });
        }
        if let Some(value) = root.get("require_pass") {
            config.require_pass = value.strings()?;
        }
        config.cases = config.cases.overlay(&root)?;
        Ok(config)
    }

    /// `max_score`, `score_aggregation` and `require_pass` are errors here.
    pub(crate) fn forbid_scoring_keys(&self, context: &str) -> FormatResult<()> {
        match self.scoring_keys.first() {
            Some((key, line)) => Err(FormatError::at(
                &self.path,
                *line,
                key.clone(),
                format!("not allowed {context}"),
            )),
            None => Ok(()),
        }
    }
}

/// Legacy `testdata.yaml`, merged with what the parent folders said.
#[derive(Debug, Clone)]
pub(crate) struct LegacySettings {
    pub(crate) grading: LegacyGrading,
    input_flags: ValidatorArgs,
    output_flags: Vec<String>,
}

impl Default for LegacySettings {
    fn default() -> Self {
        LegacySettings {
            grading: LegacyGrading {
                stop_on_reject: true,
                custom_grader: false,
                grader_flags: Vec::new(),
                accept_score: 1.0,
                reject_score: 0.0,
                range: (f64::NEG_INFINITY, f64::INFINITY),
            },
            input_flags: ValidatorArgs::None,
            output_flags: Vec::new(),
        }
    }
}

const LEGACY_KEYS: &[&str] = &[
    "on_reject",
    "grading",
    "grader_flags",
    "input_validator_flags",
    "output_validator_flags",
    "accept_score",
    "reject_score",
    "range",
];

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

impl LegacySettings {
    /// `dir/testdata.yaml` over `inherited`. Unknown keys are warnings, as
    /// in problemtools.
    pub(crate) fn read(
        dir: &Path,
        inherited: &LegacySettings,
        warnings: &mut Vec<String>,
    ) -> FormatResult<LegacySettings> {
        let path = dir.join("testdata.yaml");
        let mut next = inherited.clone();
        if !path.is_file() {
            return Ok(next);
        }
        let file = YamlFile::read(&path)?;
        let root = file.root();
        for (key, value) in root.entries() {
            if !LEGACY_KEYS.contains(&key.as_str()) {
                warnings.push(format!(
                    "{}:{}: unknown key `{key}` ignored",
                    path.display(),
                    value.line()
                ));
            }
        }
        if let Some(value) = root.get("on_reject") {
            next.grading.stop_on_reject = match value.string()?.as_str() {
                "break" => true,
                "continue" => false,
                other => return Err(value.error(format!("`{other}` is not break or continue"))),
            };
        }
        if let Some(value) = root.get("grading") {
            next.grading.custom_grader = match value.string()?.as_str() {
                "default" => false,
                "custom" => true,
                other => return Err(value.error(format!("`{other}` is not default or custom"))),
            };
        }
        if let Some(flags) = root.str("grader_flags")? {
            next.grading.grader_flags = words(&flags);
        }
        if let Some(value) = root.get("input_validator_flags") {
            next.input_flags = if value.is_map() {
                let map = value.map()?;
                let mut per = BTreeMap::new();
                if let (Some(name), Some(flags)) = (map.str("name")?, map.str("flags")?) {
                    per.insert(name, words(&flags));
                } else {
                    for (name, flags) in map.entries() {
                        per.insert(name, words(&flags.string()?));
                    }
                }
                ValidatorArgs::PerValidator(per)
            } else {
                ValidatorArgs::Same(words(&value.string()?))
            };
        }
        if let Some(flags) = root.str("output_validator_flags")? {
            next.output_flags = words(&flags);
        }
        if let Some(score) = root.f64("accept_score")? {
            next.grading.accept_score = score;
        }
        if let Some(score) = root.f64("reject_score")? {
            next.grading.reject_score = score;
        }
        if let Some(value) = root.get("range") {
            let bounds: Vec<f64> = value
                .string()?
                .split_whitespace()
                .map(|w| w.trim_start_matches('+').parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| value.error("expected two numbers (inf allowed)"))?;
            match bounds[..] {
                [low, high] if low <= high => next.grading.range = (low, high),
                _ => return Err(value.error("expected two numbers, the lower first")),
            }
        }
        Ok(next)
    }

    /// The default grader's score mode: the last of sum/avg/min/max given.
    pub(crate) fn score_aggregation(&self) -> Aggregation {
        self.grading
            .grader_flags
            .iter()
            .rev()
            .find_map(|flag| match flag.as_str() {
                "sum" => Some(Aggregation::Sum),
                "avg" => Some(Aggregation::Average),
                "min" => Some(Aggregation::Min),
                "max" => Some(Aggregation::Max),
                _ => None,
            })
            .unwrap_or(Aggregation::Sum)
    }

    /// Output validator flags are `problem.yaml validator_flags` followed by
    /// the group's `output_validator_flags` (as problemtools builds them).
    pub(crate) fn case_settings(&self, validator_flags: &[String]) -> CaseSettings {
        let mut output = validator_flags.to_vec();
        output.extend(self.output_flags.iter().cloned());
        CaseSettings {
            input_validator_args: self.input_flags.clone(),
            output_validator_args: output,
            ..CaseSettings::default()
        }
    }
}
