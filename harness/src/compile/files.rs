//! The files of one build folder, gathered before anything is built: a
//! single file with the headers it includes, or a program of several files
//! with the files placed beside it and its constants filled in. What is
//! gathered here is all a build depends on besides the language table.

use std::collections::BTreeMap;
use std::path::Path;

use crate::lang::Language;
use crate::spec::SourceSet;
use crate::untrusted::{self, Links, SOURCE_LIMIT, UntrustedFile};

/// The stem every single-file source is built under (see `BuildFiles::single`).
const SOURCE_STEM: &str = "solution";

/// The executable a build makes (`{binary}`).
pub(super) const BINARY: &str = "main";

/// One build: the language and the files of its build folder. Builds of
/// equal `BuildFiles` make the same program (`cached.rs` hashes all of it).
#[derive(Debug)]
pub(super) struct BuildFiles {
    /// The language table's key, and its entry.
    pub key: String,
    pub language: Language,
    /// Names the cache folder for a reader: the entry's stem as the user
    /// wrote it.
    pub label: String,
    /// Every file of the build folder, by name.
    pub files: BTreeMap<String, Vec<u8>>,
    /// The names among `files` that are compiled (`{sources}`), sorted.
    pub sources: Vec<String>,
    /// The name among `files` that `{source}` stands for.
    pub entry: String,
    /// A file the build names differently from the user (build name,
    /// user's name), named back in compiler messages.
    pub renamed: Option<(String, String)>,
}

impl BuildFiles {
    /// A single source, with the headers beside it that it includes. A
    /// submitter's source (`Links::Refuse`) and its headers are read as
    /// hostile files: the first one that is a link, not a regular file or
    /// too large is the error.
    pub(super) fn single(
        source: &Path,
        key: &str,
        language: &Language,
        links: Links,
    ) -> Result<BuildFiles, UntrustedFile> {
        let bytes = untrusted::read(source, links, SOURCE_LIMIT)?;
        let (fixed_name, user_name) = build_name(source, language);
        let mut files: BTreeMap<String, Vec<u8>> = local_headers(source, &bytes, links)?
            .into_iter()
            .filter(|(name, _)| !is_reserved(name))
            .collect();
        files.insert(fixed_name.clone(), bytes);
        Ok(BuildFiles {
            key: key.to_string(),
            language: language.clone(),
            label: stem(&user_name),
            files,
            sources: vec![fixed_name.clone()],
            entry: fixed_name.clone(),
            renamed: (fixed_name != user_name).then_some((fixed_name, user_name)),
        })
    }

    /// A program of several files, each under its own file name; a file
    /// placed beside replaces a source or an earlier beside file of its
    /// name. What is wrong with the set is the error's text.
    pub(super) fn set(set: &SourceSet, language: &Language) -> Result<BuildFiles, SourceSetError> {
        let mut files = BTreeMap::new();
        let mut sources = Vec::new();
        // A file handed in comes first, read as hostile, under the name a
        // single source is built under.
        let submitted = match &set.submitted {
            Some(path) => {
                let bytes = untrusted::read(path, Links::Refuse, SOURCE_LIMIT)
                    .map_err(SourceSetError::Submitted)?;
                let (fixed_name, user_name) = build_name(path, language);
                files.insert(fixed_name.clone(), bytes);
                sources.push(fixed_name.clone());
                Some((fixed_name, user_name))
            }
            None => None,
        };
        for path in &set.sources {
            let name = file_name(path)?;
            if files
                .insert(name.clone(), read_package_file(path)?)
                .is_some()
            {
                return Err(SourceSetError::TwoSources { name });
            }
            sources.push(name);
        }
        for path in &set.beside {
            files.insert(file_name(path)?, read_package_file(path)?);
        }
        if let Some(name) = files.keys().find(|name| is_reserved(name)) {
            return Err(SourceSetError::Reserved { name: name.clone() });
        }
        let entry = match &submitted {
            Some((fixed_name, _)) => fixed_name.clone(),
            None => file_name(&set.entry)?,
        };
        if !files.contains_key(&entry) {
            return Err(SourceSetError::NoEntry { entry });
        }
        if !set.constants.is_empty() {
            for bytes in files.values_mut() {
                if let Ok(text) = std::str::from_utf8(bytes) {
                    *bytes = substitute(text, &set.constants).into_bytes();
                }
            }
        }
        sources.sort();
        Ok(BuildFiles {
            key: set.language.clone(),
            language: language.clone(),
            label: stem(
                submitted
                    .as_ref()
                    .map_or(&entry, |(_, user_name)| user_name),
            ),
            files,
            sources,
            entry,
            renamed: submitted.filter(|(fixed_name, user_name)| fixed_name != user_name),
        })
    }
}

/// The name a single or handed-in source is built under, and the user's
/// name for it. The source is built under a fixed name: a file named like
/// a module of the compiler's own (`py_compile.py`) must not be picked up
/// by it.
fn build_name(source: &Path, language: &Language) -> (String, String) {
    let fixed_name = match (
        language.keep_file_name,
        source.file_name(),
        source.extension(),
    ) {
        (true, Some(name), _) => name.to_string_lossy().into_owned(),
        (_, _, Some(ext)) => format!("{SOURCE_STEM}.{}", ext.to_string_lossy()),
        _ => SOURCE_STEM.to_string(),
    };
    let user_name = source
        .file_name()
        .map_or_else(|| fixed_name.clone(), |n| n.to_string_lossy().into_owned());
    (fixed_name, user_name)
}

/// What is wrong with a program of several files (a package's).
#[derive(Debug, thiserror::Error)]
pub enum SourceSetError {
    #[error("two sources are named {name}")]
    TwoSources { name: String },
    #[error("a file may not be named {name}: the build folder keeps that name for itself")]
    Reserved { name: String },
    #[error("its entry {entry} is not among its files")]
    NoEntry { entry: String },
    #[error("{} is not a file name", path.display())]
    NotAFileName { path: std::path::PathBuf },
    #[error(transparent)]
    Unreadable(#[from] UntrustedFile),
    /// The file handed in (`SourceSet::submitted`) cannot be read: a
    /// link, a FIFO or a huge file is the submitter's doing.
    #[error(transparent)]
    Submitted(UntrustedFile),
}

/// A package's file: the setter's links are followed, but a FIFO, a
/// device or a huge file is still refused.
fn read_package_file(path: &Path) -> Result<Vec<u8>, SourceSetError> {
    Ok(untrusted::read(path, Links::Follow, SOURCE_LIMIT)?)
}

fn file_name(path: &Path) -> Result<String, SourceSetError> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| SourceSetError::NotAFileName {
            path: path.to_path_buf(),
        })
}

fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map_or_else(|| "source".into(), |s| s.to_string_lossy().into_owned())
}

/// The name the build writes into its folder besides the user's files.
fn is_reserved(name: &str) -> bool {
    name == BINARY
}

/// `text` with every `{{name}}` of `constants` replaced by its value, in
/// one pass (a value is never expanded again); `{{name}}` of any other name
/// stays as written.
pub(super) fn substitute(text: &str, constants: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let value = after.find("}}").and_then(|close| {
            let name = &after[..close];
            let (_, value) = constants.iter().find(|(n, _)| n == name)?;
            Some((value, close))
        });
        match value {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 2..];
            }
            None => {
                // Only one brace is kept as it is: `{{{n}}}` is `{` + value + `}`.
                out.push('{');
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The headers beside `source` that it names with `#include "..."`, and
/// those they name in turn: a checker built against `testlib.h` next to
/// it, or a program split into a source and its header. Only plain file
/// names in the same folder are read, through the folder's descriptor,
/// never paths; a name that is not there is left to the compiler, and one
/// that is there but may not be read (`untrusted`) is the error.
pub(crate) fn local_headers(
    source: &Path,
    bytes: &[u8],
    links: Links,
) -> Result<Vec<(String, Vec<u8>)>, UntrustedFile> {
    let mut found: Vec<(String, Vec<u8>)> = Vec::new();
    let mut pending = quoted_includes(bytes);
    if pending.is_empty() {
        return Ok(found);
    }
    let dir_path = match source.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let dir = untrusted::open_dir(dir_path, links)?;
    let mut total = bytes.len() as u64;
    while let Some(name) = pending.pop() {
        let plain = !name.contains(['/', '\\']) && name != "." && name != ".." && !name.is_empty();
        if !plain || found.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let header = match untrusted::read_in(&dir, dir_path, &name, links, SOURCE_LIMIT) {
            Ok(header) => header,
            Err(error) if error.is_not_found() => continue,
            Err(error) => return Err(error),
        };
        // Headers naming each other are read once each; all of them
        // together stay within one file's limit.
        total += header.len() as u64;
        if total > SOURCE_LIMIT {
            return Err(UntrustedFile::TooLarge {
                path: source.to_path_buf(),
                limit: SOURCE_LIMIT,
            });
        }
        pending.extend(quoted_includes(&header));
        found.push((name, header));
    }
    Ok(found)
}

/// The names in `#include "name"` lines.
fn quoted_includes(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let name = rest.strip_prefix('"')?.split('"').next()?;
            Some(name.to_string())
        })
        .collect()
}
