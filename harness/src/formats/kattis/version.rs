//! The three versions of the Kattis format and what each calls things:
//! legacy (no `problem_format_version`, or `legacy`/`legacy-icpc`),
//! `2023-07-draft` (as problemtools reads it) and `2025-09`. One place for
//! the names, so that the readers ask "where is the output validator of
//! this version" instead of spelling folder names themselves.
//!
//! Published packages still use names of other versions (`testdata.yaml`
//! in 2025-09 packages, the legacy `input_format_validators/`, ...): those
//! are read as the version's own name with a warning naming the file and
//! the name to use, never refused (see `OLDER_NAMES`).

use std::path::{Path, PathBuf};

use crate::formats::package::PackageFormat;

use PackageFormat::{Kattis2023Draft as Draft, Kattis2025 as V2025, KattisLegacy as Legacy};

/// What `problem_format_version` says, or `None` for a value no version
/// has (`2023-07` is problemtools' spelling of the draft too).
pub(crate) fn version_named(value: &str) -> Option<PackageFormat> {
    match value {
        "legacy" | "legacy-icpc" => Some(Legacy),
        "2023-07-draft" | "2023-07" => Some(Draft),
        "2025-09" => Some(V2025),
        _ => None,
    }
}

impl PackageFormat {
    /// `problem.yaml` in the 2023-07 shape: `type` lists the kinds,
    /// `name` may be a map, `limits.time_multipliers`, `constants`.
    pub(crate) fn has_modern_metadata(self) -> bool {
        matches!(self, Draft | V2025)
    }

    /// Test data as 2025-09 groups it: `test_group.yaml`, groups directly
    /// under `data/secret`, `max_score`. Otherwise the legacy tree of
    /// `testdata.yaml` groups (problemtools reads the draft that way).
    pub(crate) fn has_2025_groups(self) -> bool {
        self == V2025
    }

    /// The folder of the output validator. Legacy `output_validators/`
    /// holds programs (one is used); the draft's `output_validator/` holds
    /// one program too (problemtools); 2025-09's is the program itself.
    pub(crate) fn output_validator_folder(self) -> &'static str {
        match self {
            Legacy => "output_validators",
            _ => "output_validator",
        }
    }

    /// `{{constants}}` are substituted in programs and `test_group.yaml`.
    pub(crate) fn substitutes_constants(self) -> bool {
        matches!(self, Draft | V2025)
    }

    /// The name written in `problem_format_version`.
    pub(crate) fn version_name(self) -> &'static str {
        match self {
            Legacy => "legacy",
            Draft => "2023-07-draft",
            _ => "2025-09",
        }
    }
}

/// A name of another version, read as `modern` in `versions`.
pub(crate) struct OlderName {
    /// The path under the package folder (`data/invalid_inputs`).
    pub(crate) old: &'static str,
    pub(crate) modern: &'static str,
    pub(crate) versions: &'static [PackageFormat],
}

/// Folders read under another name, with a warning. Sources: the legacy
/// specification (`input_format_validators/` is deprecated there),
/// BAPCtools' `upgrade` (the plural self-test folders of its drafts), and
/// the renames of 2025-09.
pub(crate) const OLDER_NAMES: &[OlderName] = &[
    OlderName {
        old: "input_format_validators",
        modern: "input_validators",
        versions: &[Legacy, Draft, V2025],
    },
    OlderName {
        old: "output_validators",
        modern: "output_validator",
        versions: &[Draft, V2025],
    },
    OlderName {
        old: "output_validator",
        modern: "output_validators",
        versions: &[Legacy],
    },
    OlderName {
        old: "data/invalid_inputs",
        modern: "data/invalid_input",
        versions: &[Draft, V2025],
    },
    OlderName {
        old: "data/invalid_outputs",
        modern: "data/invalid_output",
        versions: &[Draft, V2025],
    },
    OlderName {
        old: "data/valid_outputs",
        modern: "data/valid_output",
        versions: &[Draft, V2025],
    },
];

/// The folder `modern` of the package in `dir` for `format`: under its
/// own name, or else under an older name (with a warning saying so).
pub(crate) fn find_folder(
    dir: &Path,
    format: PackageFormat,
    modern: &str,
    warnings: &mut Vec<String>,
) -> Option<PathBuf> {
    let own = dir.join(modern);
    if own.is_dir() {
        return Some(own);
    }
    let older = OLDER_NAMES
        .iter()
        .filter(|name| name.modern == modern && name.versions.contains(&format))
        .map(|name| dir.join(name.old))
        .find(|path| path.is_dir())?;
    warnings.push(renamed(&older, modern, format));
    Some(older)
}

/// The warning for a file or folder read under another version's name.
pub(crate) fn renamed(path: &Path, modern: &str, format: PackageFormat) -> String {
    format!(
        "{}: read as {modern} (the name in {} packages)",
        path.display(),
        format.version_name()
    )
}
