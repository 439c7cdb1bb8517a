//! `problem.yaml` of a Kattis/ICPC package, legacy and 2025-09: version,
//! type, name, limits (with the time-limit rule) and constants. Unknown
//! keys are errors, as the specification asks.

use std::path::Path;
use std::time::Duration;

use super::constants::read_constants;
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::package::{
    Constants, Interaction, PackageFormat, PackageLimits, TimeLimitRule,
};
use crate::formats::yaml::{Map, YamlFile};

const MIB: u64 = 1 << 20;

const LEGACY_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "author",
    "source",
    "source_url",
    "license",
    "rights_owner",
    "limits",
    "validation",
    "validator_flags",
    "grading",
    "keywords",
];
const LEGACY_LIMIT_KEYS: &[&str] = &[
    "time_multiplier",
    "time_safety_margin",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
];
const V2025_KEYS: &[&str] = &[
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
const V2025_LIMIT_KEYS: &[&str] = &[
    "time_limit",
    "time_multipliers",
    "time_resolution",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
    "validation_passes",
];
const LICENSES: &[&str] = &[
    "unknown",
    "public domain",
    "cc0",
    "cc by",
    "cc by-sa",
    "educational",
    "permission",
];

/// What `problem.yaml` says, defaults applied.
#[derive(Debug, Clone)]
pub(crate) struct Metadata {
    pub(crate) format: PackageFormat,
    pub(crate) name: Option<String>,
    pub(crate) scoring: bool,
    pub(crate) interaction: Interaction,
    /// Legacy `validation: custom ...`; 2025-09 decides by `output_validator/`.
    pub(crate) legacy_custom_validation: bool,
    /// Legacy `validator_flags`, given to the output validator on every test.
    pub(crate) validator_flags: Vec<String>,
    pub(crate) limits: PackageLimits,
    pub(crate) constants: Constants,
    /// Keys tolerated with a warning.
    pub(crate) warnings: Vec<String>,
}

pub(crate) fn read_metadata(dir: &Path) -> FormatResult<Metadata> {
    let path = dir.join("problem.yaml");
    let file = YamlFile::read(&path)?;
    let root = file.root();
    let version = match root.get("problem_format_version") {
        None => "legacy".to_string(),
        Some(value) => value.string()?,
    };
    match version.as_str() {
        "legacy" | "legacy-icpc" => read_legacy(dir, &root),
        "2025-09" => read_2025(dir, &root),
        other => Err(root.get("problem_format_version").map_or_else(
            || FormatError::file(&path, "unreadable version"),
            |value| {
                value.error(format!(
                    "version `{other}` is not supported (this judge reads legacy and 2025-09 packages)"
                ))
            },
        )),
    }
}

fn read_legacy(dir: &Path, root: &Map<'_>) -> FormatResult<Metadata> {
    root.only_keys(LEGACY_KEYS)?;
    check_license(root)?;
    let scoring = match root.get("type") {
        None => false,
        Some(value) => match value.string()?.as_str() {
            "pass-fail" => false,
            "scoring" => true,
            other => return Err(value.error(format!("`{other}` is not pass-fail or scoring"))),
        },
    };
    let (custom, interactive) = match root.get("validation") {
        None => (false, false),
        Some(value) => {
            let text = value.string()?;
            let mut words = text.split_whitespace();
            match words.next() {
                Some("default") if words.next().is_none() => (false, false),
                Some("custom") => {
                    let mut interactive = false;
                    for word in words {
                        match word {
                            "interactive" => interactive = true,
                            "score" if scoring => {}
                            "score" => return Err(value.error("`score` needs `type: scoring`")),
                            other => {
                                return Err(
                                    value.error(format!("unknown validation option `{other}`"))
                                );
                            }
                        }
                    }
                    (true, interactive)
                }
                _ => return Err(value.error("must be `default` or `custom [interactive] [score]`")),
            }
        }
    };
    if let Some(grading) = root.get("grading") {
        let grading = grading.map()?;
        grading.only_keys(&[
            "objective",
            "show_test_data_groups",
            "accept_score",
            "reject_score",
            "range",
            "on_reject",
        ])?;
        if let Some(objective) = grading.get("objective") {
            if objective.string()? == "min" {
                return Err(
                    objective.error("minimising scores (`objective: min`) is not supported")
                );
            }
        }
    }
    let validator_flags = match root.str("validator_flags")? {
        Some(flags) => flags.split_whitespace().map(str::to_string).collect(),
        None => Vec::new(),
    };

    let limits_map = root.get("limits").map(|v| v.map()).transpose()?;
    if let Some(limits) = &limits_map {
        limits.only_keys(LEGACY_LIMIT_KEYS)?;
    }
    let get_f64 = |key: &str| -> FormatResult<Option<f64>> {
        limits_map.as_ref().map_or(Ok(None), |m| m.f64(key))
    };
    let (multiplier, margin) = (get_f64("time_multiplier")?, get_f64("time_safety_margin")?);
    for (value, key) in [
        (multiplier, "time_multiplier"),
        (margin, "time_safety_margin"),
    ] {
        if value.is_some_and(|x| x < 1.0) {
            let field = limits_map
                .as_ref()
                .and_then(|m| m.get(key))
                .expect("read above");
            return Err(field.error("must be at least 1"));
        }
    }
    let origin = if multiplier.is_some() || margin.is_some() {
        "problem.yaml limits.time_multiplier / time_safety_margin".to_string()
    } else {
        "legacy defaults: time_multiplier 5, time_safety_margin 2".to_string()
    };
    let fixed = read_timelimit_file(dir)?;
    let time = TimeLimitRule::FromSubmissions {
        fixed,
        ac_to_time_limit: multiplier.unwrap_or(5.0),
        time_limit_to_tle: margin.unwrap_or(2.0),
        resolution: 1.0,
        origin,
        margin_is_error: false,
    };
    Ok(Metadata {
        format: PackageFormat::KattisLegacy,
        name: root.str("name")?,
        scoring,
        interaction: if interactive {
            Interaction::Interactive
        } else {
            Interaction::Batch
        },
        legacy_custom_validation: custom,
        validator_flags,
        limits: read_sizes(limits_map.as_ref(), time)?,
        constants: Constants::default(),
        warnings: Vec::new(),
    })
}

/// Kattis' `.timelimit` file (seconds), written by its tools and honoured by
/// DOMjudge: when present it is the limit of a legacy package.
fn read_timelimit_file(dir: &Path) -> FormatResult<Option<(Duration, String)>> {
    let path = dir.join(".timelimit");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds.is_finite() => Ok(Some((
            Duration::from_secs_f64(seconds),
            ".timelimit".to_string(),
        ))),
        _ => Err(FormatError::at(
            &path,
            1,
            "time limit",
            "expected a number of seconds",
        )),
    }
}

fn read_2025(dir: &Path, root: &Map<'_>) -> FormatResult<Metadata> {
    let path = dir.join("problem.yaml");
    // Legacy credit keys change nothing about judging; even the
    // specification's own examples still carry `source_url`.
    let mut warnings = Vec::new();
    let mut allowed = V2025_KEYS.to_vec();
    for old in ["source_url", "author"] {
        if let Some(value) = root.get(old) {
            warnings.push(format!(
                "{}:{}: `{old}` is a legacy key, ignored in 2025-09",
                path.display(),
                value.line()
            ));
            allowed.push(old);
        }
    }
    root.only_keys(&allowed)?;
    for required in ["name", "uuid"] {
        if root.get(required).is_none() {
            return Err(FormatError::file(
                &path,
                format!("`{required}` is required in 2025-09"),
            ));
        }
    }
    check_license(root)?;
    let types = match root.get("type") {
        None => vec!["pass-fail".to_string()],
        Some(value) => {
            // A list, or one string (several types space-separated, as the
            // specification's own examples write them).
            let list: Vec<String> = value
                .strings()?
                .iter()
                .flat_map(|kind| {
                    kind.split_whitespace()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect();
            for kind in &list {
                if ![
                    "pass-fail",
                    "scoring",
                    "multi-pass",
                    "interactive",
                    "submit-answer",
                ]
                .contains(&kind.as_str())
                {
                    return Err(value.error(format!("unknown problem type `{kind}`")));
                }
            }
            let has = |kind: &str| list.iter().any(|k| k == kind);
            if has("pass-fail") && has("scoring") {
                return Err(value.error("pass-fail and scoring exclude each other"));
            }
            if has("submit-answer") {
                return Err(value.error("submit-answer problems are not supported"));
            }
            list
        }
    };
    let has = |kind: &str| types.iter().any(|k| k == kind);
    let name = match root.get("name") {
        Some(value) if value.is_map() => {
            let names = value.map()?.entries();
            let english = names
                .iter()
                .find(|(lang, _)| lang == "en")
                .or(names.first());
            english.map(|(_, v)| v.string()).transpose()?
        }
        Some(value) => Some(value.string()?),
        None => None,
    };
    if let Some(value) = root.get("allow_file_writing") {
        value.boolean()?;
    }

    let limits_map = root.get("limits").map(|v| v.map()).transpose()?;
    if let Some(limits) = &limits_map {
        limits.only_keys(V2025_LIMIT_KEYS)?;
    }
    let limit_f64 = |key: &str| -> FormatResult<Option<f64>> {
        limits_map.as_ref().map_or(Ok(None), |m| m.f64(key))
    };
    let positive = |key: &str, value: Option<f64>, floor: f64| -> FormatResult<()> {
        match (value, limits_map.as_ref().and_then(|m| m.get(key))) {
            (Some(x), Some(field)) if x < floor || x <= 0.0 => Err(field.error(format!(
                "must be {} {floor}",
                if floor > 0.0 { "at least" } else { "above" }
            ))),
            _ => Ok(()),
        }
    };
    let time_limit = limit_f64("time_limit")?;
    positive("time_limit", time_limit, 0.0)?;
    let resolution = limit_f64("time_resolution")?;
    positive("time_resolution", resolution, 0.0)?;
    let multipliers = limits_map
        .as_ref()
        .and_then(|m| m.get("time_multipliers"))
        .map(|v| v.map())
        .transpose()?;
    let (mut ac, mut tle) = (None, None);
    if let Some(multipliers) = &multipliers {
        multipliers.only_keys(&["ac_to_time_limit", "time_limit_to_tle"])?;
        ac = multipliers.f64("ac_to_time_limit")?;
        tle = multipliers.f64("time_limit_to_tle")?;
        for key in ["ac_to_time_limit", "time_limit_to_tle"] {
            if let Some(field) = multipliers.get(key) {
                if field.number()? < 1.0 {
                    return Err(field.error("must be at least 1"));
                }
            }
        }
    }
    let origin = if multipliers.is_some() || resolution.is_some() {
        "problem.yaml limits.time_multipliers / time_resolution".to_string()
    } else {
        "2025-09 defaults: ac_to_time_limit 2, time_limit_to_tle 1.5, time_resolution 1".to_string()
    };
    let time = TimeLimitRule::FromSubmissions {
        fixed: time_limit.map(|s| {
            (
                Duration::from_secs_f64(s),
                "problem.yaml limits.time_limit".to_string(),
            )
        }),
        ac_to_time_limit: ac.unwrap_or(2.0),
        time_limit_to_tle: tle.unwrap_or(1.5),
        resolution: resolution.unwrap_or(1.0),
        origin,
        margin_is_error: true,
    };
    let passes = match limits_map.as_ref().and_then(|m| m.get("validation_passes")) {
        Some(field) => {
            let passes = field.unsigned()?;
            if passes < 2 || !has("multi-pass") {
                return Err(field.error("needs type multi-pass and at least 2"));
            }
            u32::try_from(passes).map_err(|_| field.error("too large"))?
        }
        None => 2,
    };
    let interaction = match (has("multi-pass"), has("interactive")) {
        (true, interactive) => Interaction::MultiPass {
            passes,
            interactive,
        },
        (false, true) => Interaction::Interactive,
        (false, false) => Interaction::Batch,
    };
    let constants = match root.get("constants") {
        Some(value) => read_constants(&value)?,
        None => Constants::default(),
    };
    Ok(Metadata {
        format: PackageFormat::Kattis2025,
        name,
        scoring: has("scoring"),
        interaction,
        legacy_custom_validation: false,
        validator_flags: Vec::new(),
        limits: read_sizes(limits_map.as_ref(), time)?,
        constants,
        warnings,
    })
}

fn check_license(root: &Map<'_>) -> FormatResult<()> {
    if let Some(value) = root.get("license") {
        let license = value.string()?;
        if !LICENSES.contains(&license.as_str()) {
            return Err(value.error(format!("unknown license `{license}`")));
        }
    }
    Ok(())
}

/// The size and resource limits shared by both versions (MiB, KiB, seconds).
fn read_sizes(limits: Option<&Map<'_>>, time: TimeLimitRule) -> FormatResult<PackageLimits> {
    let get = |key: &str| -> FormatResult<Option<u64>> {
        let Some(map) = limits else { return Ok(None) };
        match map.get(key) {
            Some(field) => match field.unsigned()? {
                0 => Err(field.error("must be positive")),
                value => Ok(Some(value)),
            },
            None => Ok(None),
        }
    };
    let mib = |key: &str| get(key).map(|v| v.map(|x| x.saturating_mul(MIB)));
    let seconds = |key: &str| get(key).map(|v| v.map(Duration::from_secs));
    Ok(PackageLimits {
        time,
        memory: mib("memory")?,
        output: mib("output")?,
        code: get("code")?.map(|kib| kib.saturating_mul(1024)),
        compilation_time: seconds("compilation_time")?,
        compilation_memory: mib("compilation_memory")?,
        validation_time: seconds("validation_time")?,
        validation_memory: mib("validation_memory")?,
        validation_output: mib("validation_output")?,
    })
}
