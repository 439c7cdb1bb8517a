//! What `judge generate` made from what: per case, the hash of its recipe
//! (the rule, and the contents of the generator, the solution and the
//! copied files it uses) and of each file it wrote. Kept beside
//! `generators.yaml` as `generators/.generated.json` (a hidden file, which
//! the package format ignores): commit it to skip unchanged cases on every
//! checkout, or leave it out to make everything once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub(crate) cases: BTreeMap<String, Made>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Made {
    pub(crate) recipe: String,
    /// Extension → hash of the file written.
    pub(crate) files: BTreeMap<String, String>,
}

pub(crate) fn path(dir: &Path) -> PathBuf {
    dir.join("generators").join(".generated.json")
}

impl Manifest {
    /// The package's manifest; a missing or unreadable one is empty (then
    /// every case is made).
    pub(crate) fn load(dir: &Path) -> Manifest {
        std::fs::read(path(dir))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    pub(crate) fn save(&self, dir: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(path(dir), text + "\n")
    }

    /// Whether `case` was made from `recipe` and its files are still as
    /// made (under `data/`, as `name.ext`).
    pub(crate) fn unchanged(&self, dir: &Path, case: &str, recipe: &str) -> bool {
        self.cases.get(case).is_some_and(|made| {
            made.recipe == recipe
                && made.files.iter().all(|(ext, hash)| {
                    std::fs::read(dir.join("data").join(format!("{case}.{ext}")))
                        .is_ok_and(|bytes| hash_of(&bytes) == *hash)
                })
        })
    }
}

pub(crate) fn hash_of(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}
