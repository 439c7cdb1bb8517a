//! `problem.yaml` of the 2023-07 family: `2023-07-draft` (as problemtools
//! reads it) and `2025-09`. Their keys are the same; the draft leaves
//! `uuid` optional. Legacy keys still found in such packages (`validation`,
//! `validator_flags`, `author`, `source_url`, `grading`, the legacy time
//! multipliers) are read with a warning naming the modern key, never a
//! reason to refuse the package.

use std::path::Path;
use std::time::Duration;

use super::constants::read_constants;
use super::metadata::{
    Metadata, ProblemGrading, SIZE_LIMIT_KEYS, Validation, check_license, legacy_multipliers,
    read_sizes, read_timelimit_file, validation_passes,
};
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::package::{
    Constants, Interaction, PackageFormat, SubmissionRules, TimeLimitRule,
};
use crate::formats::yaml::{Map, Value};

const KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "version",
    "credits",
    "source",
    "license",
    "rights_owner",
    "embargo_until",
    "limits",
    "keywords",
    "languages",
    "allow_file_writing",
    "constants",
];
const TIME_LIMIT_KEYS: &[&str] = &["time_limit", "time_multipliers", "time_resolution"];
const TYPES: &[&str] = &[
    "pass-fail",
    "scoring",
    "multi-pass",
    "interactive",
    "submit-answer",
];

/// Legacy keys read in a modern `problem.yaml`, and what to write instead.
const LEGACY_KEYS: &[(&str, &str)] = &[
    ("author", "credits.authors"),
    ("source_url", "source.url"),
    ("validation", "type and output_validator/"),
    (
        "validator_flags",
        "output_validator_args in data/test_group.yaml",
    ),
    ("grading", "test_group.yaml scoring keys"),
];
const LEGACY_LIMIT_KEYS: &[(&str, &str)] = &[
    ("time_multiplier", "time_multipliers.ac_to_time_limit"),
    ("time_safety_margin", "time_multipliers.time_limit_to_tle"),
];

/// Warns about every legacy key present in `map` (its file is `path`) and
/// returns the keys allowed there: `own` and those legacy ones.
fn tolerate<'k>(
    path: &Path,
    map: &Map<'_>,
    own: &[&'k str],
    legacy: &[(&'k str, &str)],
    warnings: &mut Vec<String>,
) -> Vec<&'k str> {
    let mut allowed = own.to_vec();
    for (old, modern) in legacy {
        if let (Some(value), Some(line)) = (map.get(old), map.key_line(old)) {
            warnings.push(format!(
                "{}:{line}: `{}` is a legacy key, read as {modern}",
                path.display(),
                value.field()
            ));
            allowed.push(old);
        }
    }
    allowed
}

pub(super) fn read_modern(
    dir: &Path,
    root: &Map<'_>,
    format: PackageFormat,
) -> FormatResult<Metadata> {
    let path = dir.join("problem.yaml");
    let mut warnings = Vec::new();
    root.only_keys(&tolerate(&path, root, KEYS, LEGACY_KEYS, &mut warnings))?;
    check_identity(&path, root, format, &mut warnings)?;
    check_license(root)?;
    let types = read_problem_types(root)?;
    let has = |kind: &str| types.iter().any(|k| k == kind);
    if let Some(value) = root.get("grading") {
        value.map()?;
    }
    let validator_flags = match root.str("validator_flags")? {
        Some(flags) => flags.split_whitespace().map(str::to_string).collect(),
        None => Vec::new(),
    };
    let rules = read_rules(root)?;
    let limits_map = read_limits_map(&path, root, &mut warnings)?;
    let time = match has("submit-answer") {
        // No program runs: there is no time to limit.
        true => TimeLimitRule::Fixed {
            limit: Duration::from_secs(1),
            origin: "submit-answer: no program runs".into(),
        },
        false => read_time_rule(dir, limits_map.as_ref(), format)?,
    };
    let interaction = read_interaction(limits_map.as_ref(), &types)?;
    let constants = match root.get("constants") {
        Some(value) => read_constants(&value)?,
        None => Constants::default(),
    };
    Ok(Metadata {
        format,
        name: read_name(root.get("name"))?,
        scoring: has("scoring"),
        interaction,
        legacy_custom_validation: false,
        validator_flags,
        grading: ProblemGrading::default(),
        limits: read_sizes(limits_map.as_ref(), time)?,
        rules,
        constants,
        warnings,
    })
}

/// `name` is required; so is `uuid` in 2025-09 (problemtools only reports
/// a missing uuid of a draft package, and so do we, as a warning).
fn check_identity(
    path: &Path,
    root: &Map<'_>,
    format: PackageFormat,
    warnings: &mut Vec<String>,
) -> FormatResult<()> {
    if root.get("name").is_none() {
        return Err(FormatError::file(
            path,
            format!("`name` is required in {}", format.version_name()),
        ));
    }
    if root.get("uuid").is_none() {
        if format == PackageFormat::Kattis2025 {
            return Err(FormatError::file(path, "`uuid` is required in 2025-09"));
        }
        warnings.push(format!("{}: `uuid` is missing", path.display()));
    }
    Ok(())
}

/// The problem's types: `type`, and what a legacy `validation: custom
/// interactive` (or multi-pass, or score) says that `type` now says.
fn read_problem_types(root: &Map<'_>) -> FormatResult<Vec<String>> {
    let mut types = read_types(root)?;
    let scoring = types.iter().any(|t| t == "scoring");
    let validation = match root.get("validation") {
        Some(value) => Validation::read(&value, true)?,
        None => Validation::default(),
    };
    for (flag, kind) in [
        (validation.interactive, "interactive"),
        (validation.multi_pass, "multi-pass"),
        (validation.score && !scoring, "scoring"),
    ] {
        if flag && !types.iter().any(|t| t == kind) {
            types.push(kind.to_string());
        }
    }
    let has = |kind: &str| types.iter().any(|k| k == kind);
    // Both can only come from `type` itself.
    if let Some(value) = root.get("type") {
        if has("pass-fail") && has("scoring") {
            return Err(value.error("pass-fail and scoring exclude each other"));
        }
        if has("submit-answer") && (has("interactive") || has("multi-pass")) {
            return Err(
                value.error("submit-answer excludes interactive and multi-pass (no program runs)")
            );
        }
    }
    Ok(types)
}

/// What a submission may be and do: `languages` and `allow_file_writing`
/// (the folder it runs in is read-only unless the problem allows writing).
fn read_rules(root: &Map<'_>) -> FormatResult<SubmissionRules> {
    Ok(SubmissionRules {
        languages: read_languages(root.get("languages"))?,
        read_only_folder: match root.get("allow_file_writing") {
            Some(value) => !value.boolean()?,
            None => true,
        },
    })
}

/// `limits`, its keys checked (the legacy multipliers tolerated with a
/// warning); `None` when absent.
fn read_limits_map<'m>(
    path: &Path,
    root: &Map<'m>,
    warnings: &mut Vec<String>,
) -> FormatResult<Option<Map<'m>>> {
    let limits_map = root.get("limits").map(|v| v.map()).transpose()?;
    if let Some(limits) = &limits_map {
        let own: Vec<&str> = [TIME_LIMIT_KEYS, SIZE_LIMIT_KEYS].concat();
        let allowed = tolerate(path, limits, &own, LEGACY_LIMIT_KEYS, warnings);
        limits.only_keys(&allowed)?;
    }
    Ok(limits_map)
}

/// How a submission meets the judge: submit-answer (no program runs)
/// above all, else multi-pass (interactive or not), interactive or batch.
fn read_interaction(limits: Option<&Map<'_>>, types: &[String]) -> FormatResult<Interaction> {
    let has = |kind: &str| types.iter().any(|k| k == kind);
    let passes = validation_passes(limits, has("multi-pass"))?;
    Ok(match (has("multi-pass"), has("interactive")) {
        _ if has("submit-answer") => Interaction::SubmitAnswer,
        (true, interactive) => Interaction::MultiPass {
            passes,
            interactive,
        },
        (false, true) => Interaction::Interactive,
        (false, false) => Interaction::Batch,
    })
}

/// `languages`: `all` (or absent: `None`), or language codes of the
/// languages table, one or a list.
fn read_languages(value: Option<Value<'_>>) -> FormatResult<Option<Vec<String>>> {
    let Some(value) = value else {
        return Ok(None);
    };
    let codes = value.strings()?;
    if codes.iter().any(|code| code == "all") {
        return Ok(None);
    }
    if codes.is_empty() {
        return Err(value.error("name one language or more, or `all`"));
    }
    Ok(Some(codes))
}

/// `type`: a list, or one string (several types space-separated, as the
/// specification's own examples write them). None: pass-fail is implied.
fn read_types(root: &Map<'_>) -> FormatResult<Vec<String>> {
    let Some(value) = root.get("type") else {
        return Ok(Vec::new());
    };
    let list: Vec<String> = value
        .strings()?
        .iter()
        .flat_map(|kind| kind.split_whitespace().map(str::to_string))
        .collect();
    if let Some(kind) = list.iter().find(|kind| !TYPES.contains(&kind.as_str())) {
        return Err(value.error(format!("unknown problem type `{kind}`")));
    }
    Ok(list)
}

/// The English name of a map of names, else the first; or the one string.
fn read_name(value: Option<Value<'_>>) -> FormatResult<Option<String>> {
    match value {
        Some(value) if value.is_map() => {
            let names = value.map()?.entries();
            let english = names
                .iter()
                .find(|(lang, _)| lang == "en")
                .or(names.first());
            english.map(|(_, v)| v.string()).transpose()
        }
        Some(value) => Ok(Some(value.string()?)),
        None => Ok(None),
    }
}

/// The time limit rule: `limits.time_limit` (or a `.timelimit` file), the
/// multipliers (legacy names read too) and `time_resolution`.
fn read_time_rule(
    dir: &Path,
    limits: Option<&Map<'_>>,
    format: PackageFormat,
) -> FormatResult<TimeLimitRule> {
    let positive = |key: &str| -> FormatResult<Option<f64>> {
        let Some(field) = limits.and_then(|m| m.get(key)) else {
            return Ok(None);
        };
        match field.number()? {
            x if x > 0.0 => Ok(Some(x)),
            _ => Err(field.error("must be above 0")),
        }
    };
    let time_limit = positive("time_limit")?;
    let resolution = positive("time_resolution")?;
    let multipliers = limits
        .and_then(|m| m.get("time_multipliers"))
        .map(|v| v.map())
        .transpose()?;
    let (mut ac, mut tle) = legacy_multipliers(limits)?;
    if let Some(multipliers) = &multipliers {
        multipliers.only_keys(&["ac_to_time_limit", "time_limit_to_tle"])?;
        for (slot, key) in [
            (&mut ac, "ac_to_time_limit"),
            (&mut tle, "time_limit_to_tle"),
        ] {
            if let Some(field) = multipliers.get(key) {
                match field.number()? {
                    x if x >= 1.0 => *slot = Some(x),
                    _ => return Err(field.error("must be at least 1")),
                }
            }
        }
    }
    let origin = if ac.is_some() || tle.is_some() || resolution.is_some() {
        "problem.yaml limits.time_multipliers / time_resolution".to_string()
    } else {
        format!(
            "{} defaults: ac_to_time_limit 2, time_limit_to_tle 1.5, time_resolution 1",
            format.version_name()
        )
    };
    let fixed = match time_limit {
        Some(seconds) => Some((
            Duration::from_secs_f64(seconds),
            "problem.yaml limits.time_limit".to_string(),
        )),
        None => read_timelimit_file(dir)?,
    };
    Ok(TimeLimitRule::FromSubmissions {
        fixed,
        ac_to_time_limit: ac.unwrap_or(2.0),
        time_limit_to_tle: tle.unwrap_or(1.5),
        resolution: resolution.unwrap_or(1.0),
        origin,
        margin_is_error: format == PackageFormat::Kattis2025,
    })
}
