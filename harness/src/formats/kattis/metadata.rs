//! `problem.yaml` of a Kattis/ICPC package: which version it is, and the
//! legacy reader (`modern.rs` reads 2023-07-draft and 2025-09): type,
//! name, validation, limits (with the time-limit rule). Unknown keys are
//! errors, as the specification asks; keys other versions use are read
//! with a warning.

use std::path::Path;
use std::time::Duration;

use super::modern::read_modern;
use super::settings::parse_range;
use super::version::version_named;
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::package::{
    Constants, Interaction, PackageFormat, PackageLimits, SubmissionRules, TimeLimitRule,
};
use crate::formats::yaml::{Map, Value, YamlFile};

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
/// The limits every version has besides its time keys.
pub(super) const SIZE_LIMIT_KEYS: &[&str] = &[
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
    /// Legacy `grading:` keys that override every test data group's.
    pub(crate) grading: ProblemGrading,
    pub(crate) limits: PackageLimits,
    pub(crate) rules: SubmissionRules,
    pub(crate) constants: Constants,
    /// Keys tolerated with a warning.
    pub(crate) warnings: Vec<String>,
}

/// Legacy `grading:` in `problem.yaml`. problemtools lets its
/// `accept_score`, `reject_score`, `range` and `on_reject` (`first_error`:
/// break, `grade`: continue) override every test data group's, as packages
/// from before `testdata.yaml` put them there.
#[derive(Debug, Clone, Default)]
pub(crate) struct ProblemGrading {
    pub(crate) accept_score: Option<f64>,
    pub(crate) reject_score: Option<f64>,
    pub(crate) range: Option<(f64, f64)>,
    pub(crate) stop_on_reject: Option<bool>,
}

impl ProblemGrading {
    fn read(grading: &Map<'_>) -> FormatResult<ProblemGrading> {
        grading.only_keys(&[
            "objective",
            "show_test_data_groups",
            "accept_score",
            "reject_score",
            "range",
            "on_reject",
        ])?;
        if let Some(objective) = grading.get("objective") {
            match objective.string()?.as_str() {
                "max" => {}
                "min" => {
                    return Err(
                        objective.error("minimising scores (`objective: min`) is not supported")
                    );
                }
                other => return Err(objective.error(format!("`{other}` is not max or min"))),
            }
        }
        let stop_on_reject = match grading.get("on_reject") {
            None => None,
            Some(value) => match value.string()?.as_str() {
                "first_error" => Some(true),
                "grade" => Some(false),
                // The default grader's own choice (its verdict mode decides).
                "worst_error" => None,
                other => {
                    return Err(value.error(format!(
                        "`{other}` is not first_error, worst_error or grade"
                    )));
                }
            },
        };
        Ok(ProblemGrading {
            accept_score: grading.f64("accept_score")?,
            reject_score: grading.f64("reject_score")?,
            range: grading.get("range").map(|v| parse_range(&v)).transpose()?,
            stop_on_reject,
        })
    }
}

pub(crate) fn read_metadata(dir: &Path) -> FormatResult<Metadata> {
    let path = dir.join("problem.yaml");
    let file = YamlFile::read(&path)?;
    let root = file.root();
    let format = match root.get("problem_format_version") {
        None => PackageFormat::KattisLegacy,
        Some(value) => version_named(&value.string()?).ok_or_else(|| {
            value.error(
                "not a version of the format (legacy, legacy-icpc, 2023-07-draft or 2025-09)",
            )
        })?,
    };
    match format {
        PackageFormat::KattisLegacy => read_legacy(dir, &root),
        _ => read_modern(dir, &root, format),
    }
}

fn read_legacy(dir: &Path, root: &Map<'_>) -> FormatResult<Metadata> {
    let path = dir.join("problem.yaml");
    let mut warnings = Vec::new();
    let mut allowed = LEGACY_KEYS.to_vec();
    // Keys the legacy specification dropped (2021) but packages still have.
    for old in ["libraries", "languages"] {
        if let Some(value) = root.get(old) {
            warnings.push(format!(
                "{}:{}: `{old}` is no longer a key of problem.yaml, ignored",
                path.display(),
                value.line()
            ));
            allowed.push(old);
        }
    }
    root.only_keys(&allowed)?;
    check_license(root)?;
    let scoring = match root.get("type") {
        None => false,
        Some(value) => match value.string()?.as_str() {
            "pass-fail" => false,
            "scoring" => true,
            other => return Err(value.error(format!("`{other}` is not pass-fail or scoring"))),
        },
    };
    let validation = match root.get("validation") {
        Some(value) => Validation::read(&value, scoring)?,
        None => Validation::default(),
    };
    let grading = match root.get("grading") {
        Some(value) => ProblemGrading::read(&value.map()?)?,
        None => ProblemGrading::default(),
    };
    let validator_flags = match root.str("validator_flags")? {
        Some(flags) => flags.split_whitespace().map(str::to_string).collect(),
        None => Vec::new(),
    };

    let limits_map = root.get("limits").map(|v| v.map()).transpose()?;
    if let Some(limits) = &limits_map {
        let mut allowed = vec!["time_multiplier", "time_safety_margin"];
        allowed.extend(SIZE_LIMIT_KEYS);
        limits.only_keys(&allowed)?;
    }
    let (multiplier, margin) = legacy_multipliers(limits_map.as_ref())?;
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
    let passes = validation_passes(limits_map.as_ref(), validation.multi_pass)?;
    Ok(Metadata {
        format: PackageFormat::KattisLegacy,
        name: root.str("name")?,
        scoring,
        interaction: validation.interaction(passes),
        legacy_custom_validation: validation.custom,
        validator_flags,
        grading,
        limits: read_sizes(limits_map.as_ref(), time)?,
        rules: SubmissionRules::default(),
        constants: Constants::default(),
        warnings,
    })
}

/// Legacy `validation`: `default`, or `custom` followed by any of
/// `interactive`, `score` and `multi-pass` (the legacy spelling of the
/// later `type: multi-pass`, found in contest archives).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Validation {
    pub(super) custom: bool,
    pub(super) interactive: bool,
    pub(super) multi_pass: bool,
    pub(super) score: bool,
}

impl Validation {
    pub(super) fn read(value: &Value<'_>, scoring: bool) -> FormatResult<Validation> {
        let text = value.string()?;
        let mut words = text.split_whitespace();
        let mut validation = Validation::default();
        match words.next() {
            Some("default") if words.next().is_none() => return Ok(validation),
            Some("custom") => validation.custom = true,
            _ => {
                return Err(value.error(
                    "must be `default` or `custom` followed by any of interactive, score, multi-pass",
                ));
            }
        }
        for word in words {
            match word {
                "interactive" => validation.interactive = true,
                "multi-pass" | "multipass" => validation.multi_pass = true,
                "score" if scoring => validation.score = true,
                "score" => return Err(value.error("`score` needs `type: scoring`")),
                other => {
                    return Err(value.error(format!("unknown validation option `{other}`")));
                }
            }
        }
        Ok(validation)
    }

    pub(super) fn interaction(self, passes: u32) -> Interaction {
        match (self.multi_pass, self.interactive) {
            (true, interactive) => Interaction::MultiPass {
                passes,
                interactive,
            },
            (false, true) => Interaction::Interactive,
            (false, false) => Interaction::Batch,
        }
    }
}

/// `limits.validation_passes` (default 2), for multi-pass problems only.
pub(super) fn validation_passes(limits: Option<&Map<'_>>, multi_pass: bool) -> FormatResult<u32> {
    match limits.and_then(|m| m.get("validation_passes")) {
        Some(field) => {
            let passes = field.unsigned()?;
            if passes < 2 || !multi_pass {
                return Err(field.error("needs a multi-pass problem and at least 2"));
            }
            u32::try_from(passes).map_err(|_| field.error("too large"))
        }
        None => Ok(2),
    }
}

/// Legacy `limits.time_multiplier` and `time_safety_margin`, each at least 1.
pub(super) fn legacy_multipliers(
    limits: Option<&Map<'_>>,
) -> FormatResult<(Option<f64>, Option<f64>)> {
    let mut found = [None, None];
    for (slot, key) in found
        .iter_mut()
        .zip(["time_multiplier", "time_safety_margin"])
    {
        if let Some(field) = limits.and_then(|m| m.get(key)) {
            let value = field.number()?;
            if value < 1.0 {
                return Err(field.error("must be at least 1"));
            }
            *slot = Some(value);
        }
    }
    Ok((found[0], found[1]))
}

/// A time limit fixed outside `problem.yaml`: Kattis' `.timelimit` file
/// (seconds, written by its tools and honoured by DOMjudge), else the
/// `timelimit` of DOMjudge's own `domjudge-problem.ini`.
pub(super) fn read_timelimit_file(dir: &Path) -> FormatResult<Option<(Duration, String)>> {
    let seconds = |path: &Path, line: usize, text: &str| match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds.is_finite() => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(FormatError::at(
            path,
            line,
            "timelimit",
            "expected a number of seconds",
        )),
    };
    let path = dir.join(".timelimit");
    if path.is_file() {
        let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
        return Ok(Some((seconds(&path, 1, &text)?, ".timelimit".to_string())));
    }
    let path = dir.join("domjudge-problem.ini");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
    for (index, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if line.trim_start().starts_with(';') || key.trim() != "timelimit" {
            continue;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        let limit = seconds(&path, index + 1, value)?;
        return Ok(Some((limit, "domjudge-problem.ini timelimit".to_string())));
    }
    Ok(None)
}

pub(super) fn check_license(root: &Map<'_>) -> FormatResult<()> {
    if let Some(value) = root.get("license") {
        let license = value.string()?;
        if !LICENSES.contains(&license.as_str()) {
            return Err(value.error(format!("unknown license `{license}`")));
        }
    }
    Ok(())
}

/// The size and resource limits shared by both versions (MiB, KiB, seconds).
pub(super) fn read_sizes(
    limits: Option<&Map<'_>>,
    time: TimeLimitRule,
) -> FormatResult<PackageLimits> {
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
    // Resource guarantees: what builds and output validators get at least.
    // This judge gives fixed limits; a package that asks for more is
    // refused, as the specification asks ("reject the problem package").
    use crate::sandbox::{COMPILE_LIMITS as BUILD, TOOL_LIMITS as VALIDATION};
    // (key, what this judge gives, in units of), seconds or bytes.
    let guarantees = [
        ("compilation_time", BUILD.time.as_secs(), 1),
        ("compilation_memory", BUILD.memory, MIB),
        ("validation_time", VALIDATION.time.as_secs(), 1),
        ("validation_memory", VALIDATION.memory, MIB),
        ("validation_output", VALIDATION.output, MIB),
    ];
    for (key, given, unit) in guarantees {
        let unit_name = if unit == 1 { "s" } else { "MiB" };
        let field = limits.and_then(|map| map.get(key));
        if let (Some(asked), Some(field)) = (get(key)?, field) {
            if asked.saturating_mul(unit) > given {
                return Err(field.error(format!(
                    "{asked} {unit_name} is more than this judge gives ({} {unit_name}): a guarantee it cannot keep",
                    given / unit
                )));
            }
        }
    }
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
