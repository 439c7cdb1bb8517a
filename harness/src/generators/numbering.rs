//! How `generators.yaml` names the items of a `data:` list. Two schemes:
//!
//! - **By list** (files without a `version:` key, this reader's reading of
//!   them since it first read the format): each list numbers its items
//!   `1`, `2`, ... zero-padded to the list's length, cases and folders
//!   alike; a counted case is one item (`2-random-1`, `2-random-2`).
//!   BAPCtools' current reader numbers over the file whatever the version
//!   (its `generatorincludes` has no `version:` and data named so), so
//!   where the two schemes differ the reader warns, naming a case both
//!   ways; numbering such files over the file too would rename the cases
//!   of packages already made by this reader.
//! - **Over the file** (a `version:` key, as BAPCtools writes it since its
//!   2025-12 framework, `version: 2026-01` in its `generatorcount`): every
//!   test case of every list takes the next number of one counter over the
//!   whole file, zero-padded to the file's count of such cases, and each
//!   value of a `count` takes a number of its own (`03-random-1`,
//!   `04-random-2`); folders in a list are numbered per list, padded to
//!   that list's count of folders. Cases are numbered in the order
//!   BAPCtools reads them: `data/`'s folders as `sample`, `secret`,
//!   `invalid_output`, `invalid_answer`, `invalid_input`, `valid_output`,
//!   then the others; a map's keys elsewhere in name order; lists in order.

use crate::formats::FormatError;
use crate::formats::yaml::{Map, Value};

type Result<T> = std::result::Result<T, FormatError>;

/// `data/`'s folders in the order BAPCtools reads them.
const ROOT_ORDER: &[&str] = &[
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
];

/// The numbering of one file.
#[derive(Debug, Default)]
pub(crate) enum Numbering {
    #[default]
    ByList,
    OverFile {
        /// The number the next case of a list takes.
        next: usize,
        width: usize,
    },
}

/// How one entry of a `data:` is named.
pub(super) enum Naming {
    /// Its name is known (a map's key, or a number by list).
    Fixed(String),
    /// A case of a list numbered over the file: each name it makes takes
    /// the next number, then its key (if any).
    Numbered(String),
}

impl Numbering {
    /// The numbering of the file whose root is `root`.
    pub(super) fn of(root: &Map<'_>) -> Result<Numbering> {
        if root.get("version").is_none() {
            return Ok(Numbering::ByList);
        }
        Numbering::over_file(root)
    }

    /// Numbering over the file whose root is `root`, whatever its version.
    pub(super) fn over_file(root: &Map<'_>) -> Result<Numbering> {
        let cases = numbered_cases(root)?;
        Ok(Numbering::OverFile {
            next: 1,
            width: cases.to_string().len(),
        })
    }

    /// The entries of a `data:` value in the order they are read, each
    /// with how it is named. `root`: the `data:` of the file's root.
    pub(super) fn entries<'a>(
        &self,
        data: &Value<'a>,
        root: bool,
    ) -> Result<Vec<(Naming, Value<'a>)>> {
        let over_file = matches!(self, Numbering::OverFile { .. });
        if data.is_map() {
            let mut entries = data.map()?.entries();
            if over_file {
                sort_as_read(&mut entries, root);
            }
            return Ok(entries
                .into_iter()
                .map(|(key, value)| (Naming::Fixed(key), value))
                .collect());
        }
        let items = data.items()?;
        let mut named = Vec::new();
        if !over_file {
            let width = items.len().to_string().len();
            for (i, item) in items.iter().enumerate() {
                for (key, value) in item.map()?.entries() {
                    named.push((Naming::Fixed(numbered(i + 1, width, &key)), value));
                }
            }
            return Ok(named);
        }
        let mut folders = 0;
        for item in &items {
            for (_, value) in item.map()?.entries() {
                folders += usize::from(is_directory(&value)?);
            }
        }
        let width = folders.to_string().len();
        let mut folder = 0;
        for item in &items {
            let mut entries = item.map()?.entries();
            sort_as_read(&mut entries, false);
            for (key, value) in entries {
                match is_directory(&value)? {
                    true => {
                        folder += 1;
                        named.push((Naming::Fixed(numbered(folder, width, &key)), value));
                    }
                    false => named.push((Naming::Numbered(key), value)),
                }
            }
        }
        Ok(named)
    }

    /// A name of `naming`: a numbered case takes the next number.
    pub(super) fn name(&mut self, naming: &Naming) -> String {
        match (naming, self) {
            (Naming::Fixed(name), _) => name.clone(),
            (Naming::Numbered(key), Numbering::OverFile { next, width }) => {
                let name = numbered(*next, *width, key);
                *next += 1;
                name
            }
            // Never made: a list numbered by list names its items itself.
            (Naming::Numbered(key), Numbering::ByList) => key.clone(),
        }
    }
}

/// `01-key`, or `01` for an empty key.
fn numbered(number: usize, width: usize, key: &str) -> String {
    match key.is_empty() {
        true => format!("{number:0width$}"),
        false => format!("{number:0width$}-{key}"),
    }
}

/// Whether a `data:` entry is a folder (it has `data`, `test_group.yaml`
/// or `include`) rather than a test case.
pub(super) fn is_directory(value: &Value<'_>) -> Result<bool> {
    Ok(value.is_map()
        && value
            .map()?
            .entries()
            .iter()
            .any(|(k, _)| ["data", "test_group.yaml", "include"].contains(&k.as_str())))
}

/// `entries` of a map in the order BAPCtools reads them.
fn sort_as_read(entries: &mut [(String, Value<'_>)], root: bool) {
    match root {
        true => entries.sort_by_key(|(key, _)| {
            ROOT_ORDER
                .iter()
                .position(|known| known == key)
                .unwrap_or(ROOT_ORDER.len())
        }),
        false => entries.sort_by(|(a, _), (b, _)| a.cmp(b)),
    }
}

/// How many names the cases of the lists under `map` take: one per case,
/// one per value of a counted case.
fn numbered_cases(map: &Map<'_>) -> Result<usize> {
    let Some(data) = map.get("data").filter(|d| !d.is_null()) else {
        return Ok(0);
    };
    let (items, in_list) = match data.is_map() {
        true => (vec![data], false),
        false => (data.items()?, true),
    };
    let mut total = 0;
    for item in items {
        for (_, value) in item.map()?.entries() {
            if is_directory(&value)? {
                total += numbered_cases(&value.map()?)?;
            } else if in_list {
                total += match value.is_map() {
                    true => match value.map()?.get("count") {
                        Some(count) => super::spec::counts(&count)?.len(),
                        None => 1,
                    },
                    false => 1,
                };
            }
        }
    }
    Ok(total)
}
