//! Settings files of Kattis test data: legacy `testdata.yaml`, 2025-09
//! `test_group.yaml` and `<case>.yaml`, and legacy `.hint`/`.desc` files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::metadata::ProblemGrading;
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::package::{
    Aggregation, Constants, LegacyGrading, MaxScore, PackageFormat, ValidatorArgs,
};
use crate::formats::yaml::{Map, Value, YamlFile};

/// What a test case is run and validated with.
#[derive(Debug, Clone, Default)]
pub(crate) struct CaseSettings {
    pub(crate) args: Vec<String>,
    pub(crate) input_validator_args: ValidatorArgs,
    /// BAPCtools' `answer_validator_args`.
    pub(crate) answer_validator_args: ValidatorArgs,
    pub(crate) output_validator_args: Vec<String>,
    pub(crate) output_visualizer_args: Vec<String>,
    pub(crate) full_feedback: Option<bool>,
    pub(crate) description: Option<String>,
    pub(crate) hint: Option<String>,
}

/// Keys shared by `test_group.yaml` and `<case>.yaml`.
const CASE_KEYS: &[&str] = &[
    "args",
    "input_validator_args",
    "answer_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
];

/// Arguments: a list of strings, or (as drafts and `testdata.yaml` wrote
/// them) one string of space-separated words.
fn args(value: &Value<'_>) -> FormatResult<Vec<String>> {
    match value.string() {
        Ok(text) => Ok(words(&text)),
        Err(_) => value.string_list(),
    }
}

fn validator_args(value: &Value<'_>) -> FormatResult<ValidatorArgs> {
    if value.is_map() {
        let mut map = BTreeMap::new();
        for (name, list) in value.map()?.entries() {
            map.insert(name, args(&list)?);
        }
        Ok(ValidatorArgs::PerValidator(map))
    } else {
        Ok(ValidatorArgs::Same(args(value)?))
    }
}

/// Legacy `input_validator_flags`: a string for every validator, or a map
/// from validator name to a string (or the spec's `{name, flags}` form).
fn legacy_flags(value: &Value<'_>) -> FormatResult<ValidatorArgs> {
    if !value.is_map() {
        return Ok(ValidatorArgs::Same(words(&value.string()?)));
    }
    let map = value.map()?;
    let mut per = BTreeMap::new();
    if let (Some(name), Some(flags)) = (map.str("name")?, map.str("flags")?) {
        per.insert(name, words(&flags));
    } else {
        for (name, flags) in map.entries() {
            per.insert(name, words(&flags.string()?));
        }
    }
    Ok(ValidatorArgs::PerValidator(per))
}

impl CaseSettings {
    /// `self` with the keys of `map` laid over it.
    fn overlay(&self, map: &Map<'_>) -> FormatResult<CaseSettings> {
        let mut next = self.clone();
        if let Some(value) = map.get("args") {
            next.args = value.string_list()?;
        }
        // The older `*_flags` keys hold one string of words.
        if let Some(value) = map.get("input_validator_flags") {
            next.input_validator_args = legacy_flags(&value)?;
        }
        if let Some(value) = map.get("output_validator_flags") {
            next.output_validator_args = words(&value.string()?);
        }
        if let Some(value) = map.get("input_validator_args") {
            next.input_validator_args = validator_args(&value)?;
        }
        if let Some(value) = map.get("output_validator_args") {
            next.output_validator_args = args(&value)?;
        }
        if let Some(value) = map.get("answer_validator_args") {
            next.answer_validator_args = validator_args(&value)?;
        }
        if let Some(value) = map.get("input_visualizer_args") {
            value.string_list()?;
        }
        if let Some(value) = map.get("output_visualizer_args") {
            next.output_visualizer_args = value.string_list()?;
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
    /// The settings file read (or where it would be).
    pub(crate) path: PathBuf,
    pub(crate) max_score: Option<MaxScore>,
    pub(crate) aggregation: Option<Aggregation>,
    pub(crate) require_pass: Vec<String>,
    pub(crate) cases: CaseSettings,
    /// `static_validation_score` and `static_validator_args`.
    pub(crate) static_validation: Option<StaticValidation>,
    /// Scoring keys present, with their lines, for "not allowed here" errors.
    scoring_keys: Vec<(String, usize)>,
}

/// A group's static validation test case as its `test_group.yaml` says it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StaticValidation {
    /// `None`: `pass-fail`.
    pub(crate) score: Option<f64>,
    pub(crate) args: Vec<String>,
    /// The line of `static_validation_score`, for errors.
    pub(crate) line: usize,
}

const GROUP_KEYS: &[&str] = &[
    "max_score",
    "score_aggregation",
    "static_validation_score",
    "require_pass",
    "static_validator_args",
];

/// Keys of older drafts and of `testdata.yaml` read in a 2025-09 settings
/// file, with what 2025-09 writes instead.
const OLDER_GROUP_KEYS: &[(&str, &str)] = &[
    ("input_validator_flags", "input_validator_args"),
    ("output_validator_flags", "output_validator_args"),
    ("scoring", "max_score, score_aggregation and require_pass"),
];
/// Legacy grader keys, which 2025-09 test groups have no use for.
const LEGACY_GRADER_KEYS: &[&str] = &[
    "on_reject",
    "grading",
    "grader_flags",
    "accept_score",
    "reject_score",
    "range",
];

/// The 2025-09 settings file of a test data folder: `test_group.yaml`, or
/// the older `testdata.yaml` (still in the specification's own examples).
pub(crate) fn group_file(dir: &Path) -> Option<PathBuf> {
    ["test_group.yaml", "testdata.yaml"]
        .into_iter()
        .map(|name| dir.join(name))
        .find(|path| path.is_file())
}

/// `static_validation_score` (a number or `pass-fail`) and
/// `static_validator_args`, which needs it.
fn read_static_validation(root: &Map<'_>) -> FormatResult<Option<StaticValidation>> {
    let args = root.get("static_validator_args");
    let Some(score) = root.get("static_validation_score") else {
        return match args {
            Some(args) => {
                Err(args.error("`static_validator_args` needs a `static_validation_score`"))
            }
            None => Ok(None),
        };
    };
    let value = match score.string()?.as_str() {
        "pass-fail" => None,
        _ => Some(score.unsigned()? as f64),
    };
    Ok(Some(StaticValidation {
        score: value,
        args: match args {
            Some(args) => args.string_list()?,
            None => Vec::new(),
        },
        line: score.line(),
    }))
}

impl GroupConfig {
    /// Reads the settings file of `dir` (after `{{constant}}`
    /// substitution); case settings start from `parent`'s (secret's
    /// settings reach its groups). Older names are read with a warning.
    pub(crate) fn read(
        dir: &Path,
        constants: &Constants,
        parent: Option<&GroupConfig>,
        warnings: &mut Vec<String>,
    ) -> FormatResult<GroupConfig> {
        let mut config = GroupConfig {
            path: dir.join("test_group.yaml"),
            cases: parent.map(|p| p.cases.clone()).unwrap_or_default(),
            ..GroupConfig::default()
        };
        let Some(path) = group_file(dir) else {
            return Ok(config);
        };
        if !path.ends_with("test_group.yaml") {
            warnings.push(format!(
                "{}: read as test_group.yaml (its name in 2025-09)",
                path.display()
            ));
        }
        config.path.clone_from(&path);
        let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
        let file = YamlFile::parse(&path, &constants.substitute(&text))?;
        let root = file.root();
        let mut keys = CASE_KEYS.to_vec();
        keys.extend(GROUP_KEYS);
        for (old, modern) in OLDER_GROUP_KEYS {
            if let Some(line) = root.key_line(old) {
                warnings.push(format!(
                    "{}:{line}: `{old}` is an older key, read as {modern}",
                    path.display()
                ));
                keys.push(old);
            }
        }
        for old in LEGACY_GRADER_KEYS {
            if let Some(line) = root.key_line(old) {
                warnings.push(format!(
                    "{}:{line}: `{old}` is a legacy grader key, ignored in 2025-09",
                    path.display()
                ));
                keys.push(old);
            }
        }
        root.only_keys(&keys)?;
        config.static_validation = read_static_validation(&root)?;
        // An older draft kept the scoring keys in a `scoring:` map, as
        // `score`, `aggregation` and `require_pass`.
        let older = root.get("scoring").map(|v| v.map()).transpose()?;
        if let Some(older) = &older {
            older.only_keys(&["score", "max_score", "aggregation", "require_pass"])?;
        }
        let scoring_key = |modern: &str, old: &str| {
            root.get(modern).or_else(|| {
                let older = older.as_ref()?;
                older.get(old).or_else(|| older.get(modern))
            })
        };
        let max_score = scoring_key("max_score", "score");
        let aggregation = scoring_key("score_aggregation", "aggregation");
        let require_pass = scoring_key("require_pass", "require_pass");
        for (key, value) in [
            ("max_score", &max_score),
            ("score_aggregation", &aggregation),
            ("require_pass", &require_pass),
        ] {
            if let Some(value) = value {
                config.scoring_keys.push((key.to_string(), value.line()));
            }
        }
        if let Some(value) = max_score {
            config.max_score = Some(if value.string()? == "unbounded" {
                MaxScore::Unbounded
            } else {
                MaxScore::Bounded(value.unsigned()? as f64)
            });
        }
        if let Some(value) = aggregation {
            config.aggregation = Some(match value.string()?.as_str() {
                "pass-fail" => Aggregation::PassFail,
                "sum" => Aggregation::Sum,
                "min" => Aggregation::Min,
                other => return Err(value.error(format!("`{other}` is not pass-fail, sum or min"))),
            });
        }
        if let Some(value) = require_pass {
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
    /// The draft's `args`: the submission's arguments.
    args: Vec<String>,
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
            args: Vec::new(),
        }
    }
}

/// Keys of the 2023-07 draft read in its `testdata.yaml`.
const DRAFT_KEYS: &[&str] = &[
    "args",
    "input_validator_args",
    "output_validator_args",
    "full_feedback",
    "input_visualizer_args",
    "output_visualizer_args",
];

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
    /// in problemtools. A 2023-07-draft package may name the file
    /// `test_group.yaml` (the draft's later name) and use the draft's
    /// argument keys.
    pub(crate) fn read(
        dir: &Path,
        format: PackageFormat,
        inherited: &LegacySettings,
        warnings: &mut Vec<String>,
    ) -> FormatResult<LegacySettings> {
        let draft = format == PackageFormat::Kattis2023Draft;
        let mut path = dir.join("testdata.yaml");
        if draft && !path.is_file() {
            path = dir.join("test_group.yaml");
        }
        let mut next = inherited.clone();
        if !path.is_file() {
            return Ok(next);
        }
        let file = YamlFile::read(&path)?;
        let root = file.root();
        for (key, value) in root.entries() {
            let draft_key = draft && DRAFT_KEYS.contains(&key.as_str());
            if !LEGACY_KEYS.contains(&key.as_str()) && !draft_key {
                warnings.push(format!(
                    "{}:{}: unknown key `{key}` ignored",
                    path.display(),
                    value.line()
                ));
            }
        }
        if draft {
            let cases = CaseSettings::default().overlay(&root)?;
            if root.get("args").is_some() {
                next.args = cases.args;
            }
            if root.get("input_validator_args").is_some() {
                next.input_flags = cases.input_validator_args;
            }
            if root.get("output_validator_args").is_some() {
                next.output_flags = cases.output_validator_args;
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
            next.input_flags = legacy_flags(&value)?;
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
            next.grading.range = parse_range(&value)?;
        }
        Ok(next)
    }
}

/// A legacy score `range`: two numbers, the lower first (`inf` allowed).
pub(super) fn parse_range(value: &Value<'_>) -> FormatResult<(f64, f64)> {
    let bounds: Vec<f64> = value
        .string()?
        .split_whitespace()
        .map(|w| w.trim_start_matches('+').parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| value.error("expected two numbers (inf allowed)"))?;
    match bounds[..] {
        [low, high] if low <= high => Ok((low, high)),
        _ => Err(value.error("expected two numbers, the lower first")),
    }
}

impl LegacySettings {
    /// `problem.yaml`'s legacy `grading:` keys, which override every
    /// group's (as problemtools applies them).
    pub(crate) fn with_problem_grading(mut self, grading: &ProblemGrading) -> LegacySettings {
        if let Some(score) = grading.accept_score {
            self.grading.accept_score = score;
        }
        if let Some(score) = grading.reject_score {
            self.grading.reject_score = score;
        }
        if let Some(range) = grading.range {
            self.grading.range = range;
        }
        if let Some(stop) = grading.stop_on_reject {
            self.grading.stop_on_reject = stop;
        }
        self
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
            args: self.args.clone(),
            input_validator_args: self.input_flags.clone(),
            output_validator_args: output,
            ..CaseSettings::default()
        }
    }
}
