//! `generators/generators.yaml`, BAPCtools' description of how every test
//! of a package is made, read into a flat list of cases (what each writes
//! and from what) and the `test_group.yaml` files it holds. Errors name the
//! file, line and key; keys this reader does not act on are warnings.
//!
//! The format (BAPCtools' `doc/generators.md`): the root is a directory of
//! `data/`; a directory has `data` (a map of names, or a list of maps whose
//! items get a zero-padded number `01-name`), `test_group.yaml`,
//! `solution`, `random_salt`, `retries`; a case is a command string
//! (`gen.py {seed} 10`), or a map with `generate`, `copy`, inline files by
//! extension (`in`, `ans`, ...), `yaml`, `count` (`3`, `[1, 5]` or
//! `1..=3`: one case per value, named `name-1`, ... , `{count}` in the
//! command) and the directory keys. The root may name multi-file
//! generators in `generators: {name: [files]}`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha512};

use crate::formats::yaml::{Map, Value, YamlFile};
use crate::formats::{Constants, FormatError};

use super::numbering::{Naming, Numbering, is_directory};

type Result<T> = std::result::Result<T, FormatError>;

/// One test case `generators.yaml` makes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CaseRule {
    /// The path under `data/` without extension: `secret/03-random-2`.
    pub(crate) name: String,
    /// Where it is said, for messages: `generators.yaml:12`.
    pub(crate) line: usize,
    pub(crate) source: Source,
    /// Files given inline, by extension (`in`, `ans`, `yaml`, ...).
    pub(crate) inline: BTreeMap<String, String>,
    /// The program writing missing `.ans` files: a path from the package
    /// folder (`/submissions/accepted/sol.py`); `None`: none (a `.ans`
    /// must then come from elsewhere).
    pub(crate) solution: Option<String>,
}

/// Where a case's `.in` (and maybe more) comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Source {
    /// A generator run: `program` (a name in `generators:` or a file or
    /// folder of `generators/`) with `args`, `{seed}`, `{name}` and
    /// `{count}` already filled in.
    Generate {
        program: String,
        args: Vec<String>,
        /// The command as written (after `{count}`), for messages.
        command: String,
    },
    /// `copy: base`: `generators/base.<ext>` for every extension present.
    Copy(String),
    /// Only inline files.
    Inline,
}

/// What `generators.yaml` says.
#[derive(Debug, Default)]
pub(crate) struct Generators {
    pub(crate) cases: Vec<CaseRule>,
    /// `test_group.yaml` contents by folder under `data/` (`""` is `data/`).
    pub(crate) group_files: BTreeMap<String, String>,
    /// `generators:`: name → its files, relative to `generators/`.
    pub(crate) programs: BTreeMap<String, Vec<String>>,
    /// The root's `solution` (`/submissions/accepted/sol.py`).
    pub(crate) solution: Option<String>,
    pub(crate) warnings: Vec<String>,
    /// `problem.yaml`'s `constants`, substituted in `generate` commands
    /// (before `{count}` and the seed, as BAPCtools does; inline files are
    /// test data and keep their `{{...}}`).
    pub(crate) constants: Constants,
    /// `include:` lists by the folder that holds them (`secret/`), resolved
    /// once the whole file is read.
    includes: Vec<(String, Vec<String>, usize)>,
    /// How the items of `data:` lists are named.
    numbering: Numbering,
}

/// Settings a directory passes down to what it holds.
#[derive(Debug, Clone, Default)]
struct Inherited {
    solution: Option<String>,
    salt: String,
}

const DIRECTORY_KEYS: &[&str] = &[
    "data",
    "test_group.yaml",
    "solution",
    "random_salt",
    "retries",
    "include",
];
const ROOT_KEYS: &[&str] = &["generators", "version", "visualizer", "parallel"];
const CASE_KEYS: &[&str] = &[
    "generate",
    "copy",
    "count",
    "solution",
    "random_salt",
    "retries",
    "match",
    "yaml",
];
/// Files a case may give inline or a generator may write.
pub(crate) const EXTENSIONS: &[&str] = &[
    "in",
    "ans",
    "out",
    "yaml",
    "hint",
    "desc",
    "interaction",
    "png",
    "jpg",
    "jpeg",
    "svg",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
];

/// Reads `generators/generators.yaml` of the package in `dir`, if any.
pub(crate) fn read(dir: &Path) -> Option<Result<Generators>> {
    let path = dir.join("generators").join("generators.yaml");
    path.is_file().then(|| {
        let constants = crate::formats::package_constants(dir)?;
        read_file(&path, constants)
    })
}

fn read_file(path: &Path, constants: Constants) -> Result<Generators> {
    let file = YamlFile::read(path)?;
    let root = file.root();
    let mut generators = Generators {
        constants,
        ..Generators::default()
    };
    if let Some(programs) = root.get("generators") {
        for (name, files) in programs.map()?.entries() {
            generators.programs.insert(name, files.string_list()?);
        }
    }
    let inherited = Inherited {
        solution: root.str("solution")?,
        salt: root.str("random_salt")?.unwrap_or_default(),
    };
    generators.solution.clone_from(&inherited.solution);
    // A `version:` key: BAPCtools' newer framework, which numbers list
    // items over the whole file (`numbering.rs`).
    generators.numbering = Numbering::of(&root)?;
    directory(&root, "", &inherited, &mut generators, true)?;
    if matches!(generators.numbering, Numbering::ByList) {
        warn_if_bapctools_names_otherwise(&root, &inherited, &mut generators)?;
    }
    resolve_includes(&mut generators, path)?;
    Ok(generators)
}

/// A file without `version:` is numbered by list; BAPCtools' current
/// reader numbers over the file whatever the version says. Where the two
/// name a case differently, a warning says so, with the first such case.
fn warn_if_bapctools_names_otherwise(
    root: &Map<'_>,
    inherited: &Inherited,
    generators: &mut Generators,
) -> Result<()> {
    let mut over_file = Generators {
        constants: generators.constants.clone(),
        numbering: Numbering::over_file(root)?,
        ..Generators::default()
    };
    directory(root, "", inherited, &mut over_file, true)?;
    // The same case is said on the same line (each value of a count, in
    // order): the first of ours that BAPCtools names otherwise.
    let said_on = |cases: &[CaseRule], line: usize| -> Vec<String> {
        cases
            .iter()
            .filter(|c| c.line == line)
            .map(|c| c.name.clone())
            .collect()
    };
    let differs = generators.cases.iter().find_map(|case| {
        let ours = said_on(&generators.cases, case.line);
        let theirs = said_on(&over_file.cases, case.line);
        let at = ours.iter().position(|name| *name == case.name)?;
        let other = theirs.get(at)?;
        (*other != case.name).then(|| (case.name.clone(), other.clone()))
    });
    if let Some((ours, theirs)) = differs {
        generators.warnings.push(format!(
            "{}: no `version:`, so list items are numbered per list ({ours}); BAPCtools numbers a list's test cases over the whole file ({theirs}): add `version: 2025-12` to name them as it does",
            file_of(root)
        ));
    }
    Ok(())
}

/// `include: [NAME, ...]` in a folder: the cases named (by their own name,
/// `01-small`, or a folder's, `sample`, for all of its cases) are made in
/// that folder too, by the same rules, as BAPCtools links them there.
fn resolve_includes(generators: &mut Generators, path: &Path) -> Result<()> {
    for (prefix, names, line) in std::mem::take(&mut generators.includes) {
        for wanted in names {
            let found: Vec<CaseRule> = generators
                .cases
                .iter()
                .filter(|case| {
                    // By the name as written: a list item's number
                    // (`1-small`) is not part of it.
                    let named = |part: &str| part == wanted || unnumbered(part) == wanted;
                    let base = case.name.rsplit('/').next().unwrap_or(&case.name);
                    named(base) || case.name.split('/').any(named)
                })
                .filter(|case| !case.name.starts_with(&prefix) || prefix.is_empty())
                .cloned()
                .collect();
            if found.is_empty() {
                return Err(FormatError::at(
                    path,
                    line,
                    format!("{prefix}include"),
                    format!("no test case or folder named `{wanted}`"),
                ));
            }
            for mut case in found {
                let base = case.name.rsplit('/').next().unwrap_or(&case.name);
                case.name = format!("{prefix}{base}");
                generators.cases.push(case);
            }
        }
    }
    Ok(())
}

/// `name` without the number a list gives its items (`01-small`: `small`).
fn unnumbered(name: &str) -> &str {
    match name.split_once('-') {
        Some((number, rest)) if number.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => name,
    }
}

/// Reads a directory's keys; `prefix` is its path under `data/` with a
/// trailing `/` (empty at the root).
fn directory(
    map: &Map<'_>,
    prefix: &str,
    parent: &Inherited,
    out: &mut Generators,
    root: bool,
) -> Result<()> {
    let mut known = DIRECTORY_KEYS.to_vec();
    if root {
        known.extend(ROOT_KEYS);
    }
    warn_unknown(map, &known, out);
    let inherited = inherit(map, parent)?;
    if let Some(group) = map.get("test_group.yaml") {
        out.group_files.insert(
            prefix.trim_end_matches('/').to_string(),
            group.to_yaml_text(),
        );
    }
    if let Some(include) = map.get("include") {
        out.includes
            .push((prefix.to_string(), include.string_list()?, include.line()));
    }
    let Some(data) = map.get("data") else {
        return Ok(());
    };
    if data.is_null() {
        return Ok(());
    }
    // A list: its items are numbered (`01-name`, or `01` alone), by list
    // or over the file (`numbering.rs`).
    for (naming, value) in out.numbering.entries(&data, root)? {
        let key = match &naming {
            Naming::Fixed(name) => name.as_str(),
            Naming::Numbered(key) => key.as_str(),
        };
        let numbered_empty = matches!(naming, Naming::Numbered(_)) && key.is_empty();
        if !numbered_empty && (key.is_empty() || key.contains('/') || key.starts_with('.')) {
            return Err(value.error(format!("`{key}` is not a test or folder name")));
        }
        match is_directory(&value)? {
            true => {
                let path = format!("{prefix}{}", out.numbering.name(&naming));
                directory(&value.map()?, &format!("{path}/"), &inherited, out, false)?;
            }
            false => case(&value, prefix, &naming, &inherited, out)?,
        }
    }
    Ok(())
}

fn inherit(map: &Map<'_>, parent: &Inherited) -> Result<Inherited> {
    let mut next = parent.clone();
    if let Some(solution) = map.get("solution") {
        // An empty `solution:` turns it off (samples written by hand).
        next.solution = match solution.is_null() {
            true => None,
            false => Some(solution.string()?),
        };
    }
    if let Some(salt) = map.str("random_salt")? {
        next.salt = salt;
    }
    Ok(next)
}

/// Reads a case of the folder `prefix` (`secret/`), named as `naming`
/// says (each value of a `count` by a name of its own).
fn case(
    value: &Value<'_>,
    prefix: &str,
    naming: &Naming,
    parent: &Inherited,
    out: &mut Generators,
) -> Result<()> {
    let line = value.line();
    if !value.is_map() {
        let source = command_source(value, parent, out)?;
        out.cases.push(CaseRule {
            name: format!("{prefix}{}", out.numbering.name(naming)),
            line,
            source,
            inline: BTreeMap::new(),
            solution: parent.solution.clone(),
        });
        return Ok(());
    }
    let map = value.map()?;
    let mut known = CASE_KEYS.to_vec();
    known.extend(EXTENSIONS);
    warn_unknown(&map, &known, out);
    let inherited = inherit(&map, parent)?;
    let inline = inline_files(&map)?;
    let counts = match map.get("count") {
        Some(count) => Some(counts(&count)?),
        None => None,
    };
    let values = counts.clone().unwrap_or_else(|| vec![1]);
    let padding = padding(&values);
    for count in values {
        let source = match (map.str("generate")?, map.str("copy")?) {
            (Some(_), Some(_)) => {
                return Err(value.error("give `generate` or `copy`, not both"));
            }
            (Some(command), None) => {
                let field = map.get("generate").expect("present");
                let command = out.constants.substitute(&command);
                generate(&command, count, counts.is_some(), &inherited, &field)?
            }
            (None, Some(base)) => Source::Copy(base),
            (None, None) if inline.contains_key("in") => Source::Inline,
            // A sample may be given by what the statement shows alone
            // (2025-09 "Sample data"): shown and offered, never run.
            (None, None) if prefix.starts_with("sample/") && shows_a_sample(&inline) => {
                Source::Inline
            }
            (None, None) => {
                return Err(value.error("a test case needs `generate`, `copy` or `in`"));
            }
        };
        let name = format!("{prefix}{}", out.numbering.name(naming));
        let name = match counts.is_some() {
            true => format!("{name}-{count:0padding$}"),
            false => name,
        };
        out.cases.push(CaseRule {
            name,
            line,
            source,
            inline: inline.clone(),
            solution: inherited.solution.clone(),
        });
    }
    Ok(())
}

/// A case given as a string: a command, or (older files) `path.in` to
/// copy.
fn command_source(value: &Value<'_>, parent: &Inherited, out: &Generators) -> Result<Source> {
    let command = match value.is_null() {
        true => return Err(value.error("a test case needs a command or keys")),
        false => value.string()?,
    };
    Ok(match command.strip_suffix(".in") {
        Some(base) if !command.contains(' ') => Source::Copy(base.to_string()),
        _ => generate(&out.constants.substitute(&command), 1, false, parent, value)?,
    })
}

/// A case's files given inline, by extension: text, or `{link: EXT}` for
/// the contents of another of its files.
fn inline_files(map: &Map<'_>) -> Result<BTreeMap<String, String>> {
    let mut inline = BTreeMap::new();
    for ext in EXTENSIONS {
        if let Some(text) = map.get(ext) {
            let text = match ext {
                &"yaml" => text.to_yaml_text(),
                // `{link: in}`: the same contents as the case's own `.in`.
                _ if text.is_map() => match text.map()?.str("link")? {
                    Some(other) => match map.get(&other) {
                        Some(linked) => linked.string()?,
                        None => continue,
                    },
                    None => return Err(text.error("a file is text or `{link: EXT}`")),
                },
                _ => text.string()?,
            };
            // BAPCtools ends every non-empty inline file with a line break.
            let text = match ext {
                &"yaml" => text,
                _ if text.is_empty() || text.ends_with('\n') => text,
                _ => text + "\n",
            };
            inline.insert(ext.to_string(), text);
        }
    }
    Ok(inline)
}

/// The digits a `count`'s numbers are padded to in names: as many as the
/// largest has when they run without a gap, else none.
fn padding(values: &[i64]) -> usize {
    let consecutive = values
        .iter()
        .max()
        .zip(values.iter().min())
        .is_some_and(|(max, min)| (max - min) as usize + 1 == values.len());
    match consecutive {
        true => values
            .iter()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1),
        false => 0,
    }
}

/// Whether inline files say what a sample shows without an `.in`: an
/// `.in.statement` or an `.interaction`, each offered through an
/// `.in.download`.
fn shows_a_sample(files: &BTreeMap<String, String>) -> bool {
    ["in.statement", "interaction"]
        .iter()
        .any(|ext| files.contains_key(*ext))
}

/// `count: 3` (1, 2, 3), `count: [7, -3]`, `count: 1..=3`.
pub(super) fn counts(value: &Value<'_>) -> Result<Vec<i64>> {
    let bad = || value.error("expected a count (3), a list ([1, 5]) or a range (1..=3)");
    if !value.is_map() && value.items().is_err() {
        let text = value.string()?;
        if let Some((low, high)) = text.split_once("..=") {
            let (low, high): (i64, i64) = (
                low.trim().parse().map_err(|_| bad())?,
                high.trim().parse().map_err(|_| bad())?,
            );
            return Ok((low..=high).collect());
        }
        let n: i64 = text.parse().map_err(|_| bad())?;
        return match n {
            1.. => Ok((1..=n).collect()),
            _ => Err(bad()),
        };
    }
    value
        .items()?
        .iter()
        .map(|item| item.string()?.parse().map_err(|_| bad()))
        .collect()
}

/// A `generate` command with `{count}`, `{name}` and `{seed}` filled in.
fn generate(
    command: &str,
    count: i64,
    counted: bool,
    inherited: &Inherited,
    value: &Value<'_>,
) -> Result<Source> {
    let command = match counted {
        true => command.replace("{count}", &count.to_string()),
        false => command.to_string(),
    };
    let seeds = seed_tokens(&command);
    if seeds.len() > 1 {
        return Err(value.error("{seed} may appear at most once in a command"));
    }
    let seed = seed_of(&inherited.salt, counted.then_some(count), &command);
    // Split as BAPCtools splits it (Python's shlex): quotes are removed.
    let Some(words) = shlex::split(&command) else {
        return Err(value.error("an unclosed quote or a trailing backslash in the command"));
    };
    let mut words = words.into_iter().map(|word| {
        let word = word.replace("{name}", "testcase");
        match seed_tokens(&word).first() {
            Some(token) => word.replacen(token.as_str(), &seed.to_string(), 1),
            None => word,
        }
    });
    let Some(program) = words.next() else {
        return Err(value.error("an empty command"));
    };
    Ok(Source::Generate {
        program,
        args: words.collect(),
        command,
    })
}

/// The `{seed}` and `{seed:N}` tokens of `text`.
fn seed_tokens(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{seed") {
        let tail = &rest[start + 5..];
        let end = match tail.strip_prefix(':') {
            Some(digits) => {
                let n = digits.bytes().take_while(u8::is_ascii_digit).count();
                (n > 0 && digits[n..].starts_with('}')).then_some(start + 5 + 1 + n + 1)
            }
            None => tail.starts_with('}').then_some(start + 5 + 1),
        };
        match end {
            Some(end) => {
                found.push(rest[start..end].to_string());
                rest = &rest[end..];
            }
            None => rest = &rest[start + 5..],
        }
    }
    found
}

/// BAPCtools' seed: the SHA-512 of the salt, `:count-1` for counted cases
/// past the first, and the command, as an integer mod 2³¹ (so a package
/// made with BAPCtools is made again byte for byte).
pub(crate) fn seed_of(salt: &str, count: Option<i64>, command: &str) -> u32 {
    let mut text = salt.to_string();
    if let Some(count) = count.filter(|&c| c != 1) {
        text.push_str(&format!(":{}", count - 1));
    }
    text.push_str(command.trim());
    let digest = Sha512::digest(text.as_bytes());
    let tail = u32::from_be_bytes(digest[60..64].try_into().expect("four bytes"));
    tail & 0x7fff_ffff
}

fn warn_unknown(map: &Map<'_>, known: &[&str], out: &mut Generators) {
    for (key, value) in map.entries() {
        if !known.contains(&key.as_str()) {
            out.warnings.push(format!(
                "{}:{}: `{key}` is not read",
                file_of(map),
                value.line()
            ));
        }
    }
}

fn file_of(_map: &Map<'_>) -> &'static str {
    "generators/generators.yaml"
}

/// The package file a case's `copy` names, for an extension.
pub(crate) fn copied(dir: &Path, base: &str, ext: &str) -> PathBuf {
    dir.join("generators").join(format!("{base}.{ext}"))
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
