//! Serde structs that mirror `problem.toml` exactly. Values that have a
//! syntax of their own (durations, sizes, verdicts) are parsed during
//! deserialisation, so a bad value is reported by `toml` with its line, column
//! and key, like an unknown key.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Deserializer, de};

use crate::verdict::Verdict;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawProblem {
    pub(crate) id: toml::Spanned<String>,
    pub(crate) title: Option<String>,
    pub(crate) source: Option<String>,
    /// How a submission is judged: `batch` (the default; an `[interactor]`
    /// makes it interactive) or `output-only`.
    pub(crate) kind: Option<toml::Spanned<RawKind>>,
    #[serde(default)]
    pub(crate) limits: RawLimits,
    #[serde(default)]
    pub(crate) compare: RawCompare,
    pub(crate) checker: Option<RawTool>,
    pub(crate) validator: Option<RawTool>,
    pub(crate) interactor: Option<RawTool>,
    pub(crate) answers: Option<RawTool>,
    pub(crate) generator: Option<RawGenerator>,
    #[serde(default)]
    pub(crate) scoring: RawScoring,
    #[serde(default, rename = "solution")]
    pub(crate) solutions: Vec<toml::Spanned<RawSolution>>,
    /// `judge stress` (see `spec/stress.rs`).
    #[serde(default)]
    pub(crate) stress: super::stress::RawStress,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawKind {
    Batch,
    /// A submission is a folder of answer files (Kattis `submit-answer`).
    OutputOnly,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawLimits {
    #[serde(default, deserialize_with = "duration")]
    pub(crate) time: Option<Duration>,
    #[serde(default, deserialize_with = "duration")]
    pub(crate) wall: Option<Duration>,
    #[serde(default, deserialize_with = "size")]
    pub(crate) memory: Option<u64>,
    #[serde(default, deserialize_with = "size")]
    pub(crate) output: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawCompare {
    pub(crate) mode: Option<toml::Spanned<RawCompareMode>>,
    #[serde(default)]
    pub(crate) case_sensitive: bool,
    #[serde(default)]
    pub(crate) space_change_sensitive: bool,
    pub(crate) float_absolute_tolerance: Option<toml::Spanned<f64>>,
    pub(crate) float_relative_tolerance: Option<toml::Spanned<f64>>,
    pub(crate) float_tolerance: Option<toml::Spanned<f64>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawCompareMode {
    Tokens,
    Exact,
    Checker,
}

/// A helper program: a workspace binary or a source file in the package.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawTool {
    pub(crate) bin: Option<String>,
    pub(crate) file: Option<PathBuf>,
    #[serde(default)]
    pub(crate) args: Vec<String>,
    #[serde(default)]
    pub(crate) protocol: RawProtocol,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawProtocol {
    #[default]
    Kattis,
    Testlib,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawGenerator {
    pub(crate) bin: Option<String>,
    pub(crate) file: Option<PathBuf>,
    #[serde(default)]
    pub(crate) tests: Vec<toml::Spanned<RawGeneratedTest>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawGeneratedTest {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) args: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawScoring {
    pub(crate) aggregate: Option<RawAggregate>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawAggregate {
    Sum,
    Min,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawSolution {
    pub(crate) bin: Option<String>,
    pub(crate) file: Option<PathBuf>,
    #[serde(deserialize_with = "verdicts")]
    pub(crate) expect: Vec<Verdict>,
    pub(crate) score: Option<f64>,
}

/// A duration or size value that cannot be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ValueError {
    #[error("invalid duration `{text}` ({source}); write e.g. \"1s\" or \"500ms\"")]
    Duration {
        text: String,
        #[source]
        source: humantime::DurationError,
    },
    /// bytesize says why as text only.
    #[error("invalid size `{text}` ({reason}); write e.g. \"256MiB\"")]
    Size { text: String, reason: String },
}

/// `"1s"`, `"500ms"`, `"2.5s"`: humantime's syntax.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, ValueError> {
    humantime::parse_duration(text).map_err(|source| ValueError::Duration {
        text: text.to_string(),
        source,
    })
}

/// `"256MiB"`, `"64 MiB"`, `"1GiB"`: bytesize's syntax.
pub(crate) fn parse_size(text: &str) -> Result<u64, ValueError> {
    text.parse::<bytesize::ByteSize>()
        .map(|size| size.as_u64())
        .map_err(|reason| ValueError::Size {
            text: text.to_string(),
            reason,
        })
}

fn duration<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Duration>, D::Error> {
    let text = String::deserialize(de)?;
    parse_duration(&text).map(Some).map_err(de::Error::custom)
}

fn size<'de, D: Deserializer<'de>>(de: D) -> Result<Option<u64>, D::Error> {
    let text = String::deserialize(de)?;
    parse_size(&text).map(Some).map_err(de::Error::custom)
}

/// `expect = "AC"` or `expect = ["AC", "TLE"]`.
fn verdicts<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<Verdict>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let codes = match OneOrMany::deserialize(de)? {
        OneOrMany::One(code) => vec![code],
        OneOrMany::Many(codes) => codes,
    };
    if codes.is_empty() {
        return Err(de::Error::custom("expect needs at least one verdict"));
    }
    codes
        .iter()
        .map(|code| {
            Verdict::from_short(code).ok_or_else(|| {
                de::Error::custom(format!(
                    "unknown verdict `{code}`; expected one of AC, WA, PE, TLE, MLE, OLE, RE, CE, JE"
                ))
            })
        })
        .collect()
}
