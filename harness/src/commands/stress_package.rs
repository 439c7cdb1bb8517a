//! `judge stress` on a package whose tests `generators/generators.yaml`
//! makes (BAPCtools' format) instead of a `[generator]` of `problem.toml`:
//! `--gen "gen.py {seed} 10"` names one of its generators and the
//! arguments; the reference is its `solution` unless `--against` says
//! otherwise. `--out` adds the counterexample where `judge generate` keeps
//! it: its files under `generators/stress/` and a `copy:` entry in
//! `generators.yaml` (in `secret`, or in a folder `stress` of it when the
//! secret tests are in groups), then the test under the name
//! `generators.yaml` gives it.

use std::path::{Path, PathBuf};

use super::Context;
use crate::errors::{Error, Result};
use crate::formats::yaml::{Map, YamlFile};
use crate::generators::{Generators, Source};
use crate::spec::ProblemSpec;

/// What stress takes from `generators.yaml`.
pub(super) struct PackageStress {
    /// `--gen` without the generator's name: the arguments, `{seed}` in them.
    pub(super) template: String,
    /// The root `solution` as a solution's name (`accepted/sol.py`).
    pub(super) reference: Option<String>,
}

/// For a problem without `[generator]` whose package has a
/// `generators.yaml`: the generator `--gen` names becomes the problem's.
/// `None`: the problem has its own generator, or no `generators.yaml`.
pub(super) fn use_package_generator(
    ctx: &mut Context,
    problem: &mut ProblemSpec,
    gen_args: Option<&str>,
) -> Result<Option<PackageStress>> {
    if problem.generator.is_some() {
        return Ok(None);
    }
    let generators = match crate::generators::spec::read(&problem.dir) {
        None => return Ok(None),
        Some(read) => read.map_err(|e| Error::Usage(format!("{}: {e}", problem.id)))?,
    };
    let Some((name, template)) = gen_args.and_then(|g| g.trim().split_once(char::is_whitespace))
    else {
        return Err(Error::Usage(format!(
            "{}: pass --gen \"GENERATOR {{seed}} ...\": one of generators/ with its arguments",
            problem.id
        )));
    };
    let program = crate::checks::generator_program(&ctx.means(), &problem.dir, &generators, name)
        .map_err(|e| Error::Usage(format!("{}: --gen: {e}", problem.id)))?;
    problem.generator = Some((program, Vec::new()));
    Ok(Some(PackageStress {
        template: template.trim().to_string(),
        reference: generators
            .solution
            .as_deref()
            .map(|path| path.trim_start_matches("/submissions/").to_string()),
    }))
}

/// Why the counterexample could not be added to `generators.yaml`.
#[derive(Debug, thiserror::Error)]
pub(super) enum AddError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Read(#[from] crate::formats::FormatError),
    #[error(
        "generators/generators.yaml: {why}; add `{entry}` under secret's `data:` by hand (the files are in generators/stress/)"
    )]
    ByHand { why: String, entry: String },
}

impl From<AddError> for Error {
    fn from(error: AddError) -> Error {
        Error::Usage(error.to_string())
    }
}

/// Adds the case `stress-SEED` (input, answer) to the package in `dir`:
/// its files under `generators/stress/`, an entry in `generators.yaml`;
/// returns the test's path under `data/` without extension, as
/// `generators.yaml` names it (`secret/4-stress-7`).
pub(super) fn add_case(
    dir: &Path,
    seed: u64,
    input: &[u8],
    answer: &[u8],
) -> std::result::Result<String, AddError> {
    let name = format!("stress-{seed}");
    let write = |path: PathBuf, bytes: &[u8]| {
        std::fs::create_dir_all(path.parent().unwrap_or(dir))
            .and_then(|()| std::fs::write(&path, bytes))
            .map_err(|source| AddError::Io { path, source })
    };
    let folder = dir.join("generators/stress");
    write(folder.join(format!("{name}.in")), input)?;
    write(folder.join(format!("{name}.ans")), answer)?;

    let path = dir.join("generators/generators.yaml");
    let text = std::fs::read_to_string(&path).map_err(|source| AddError::Io {
        path: path.clone(),
        source,
    })?;
    let before = read_back(dir)?;
    let entry = format!("{name}: {{copy: stress/{name}}}");
    let by_hand = |why: &str| AddError::ByHand {
        why: why.to_string(),
        entry: entry.clone(),
    };
    let grouped = before.cases.iter().any(|c| c.name.matches('/').count() > 1);
    let edited = {
        let file = YamlFile::parse(&path, &text)?;
        let root = file.root();
        let secret = root
            .get("data")
            .and_then(|data| data.map().ok()?.get("secret")?.map().ok())
            .ok_or_else(|| by_hand("no `data: secret:` directory"))?;
        let existing_stress = secret
            .get("data")
            .and_then(|data| data.map().ok()?.get("stress")?.map().ok());
        match (grouped, existing_stress) {
            (true, Some(stress)) => insert(&text, &stress, std::slice::from_ref(&entry)),
            (true, None) => insert(
                &text,
                &secret,
                &[
                    "stress:".to_string(),
                    "  data:".to_string(),
                    format!("    {entry}"),
                ],
            ),
            (false, _) => insert(&text, &secret, std::slice::from_ref(&entry)),
        }
        .map_err(|why| by_hand(&why.to_string()))?
    };
    write(path.clone(), edited.as_bytes())?;
    let restore = |why: String| {
        let _ = std::fs::write(&path, &text);
        by_hand(&why)
    };
    let after = match read_back(dir) {
        Ok(after) => after,
        Err(e) => return Err(restore(format!("the edited file does not read ({e})"))),
    };
    let old: Vec<&str> = before.cases.iter().map(|c| c.name.as_str()).collect();
    if let Some(renamed) = old
        .iter()
        .find(|name| !after.cases.iter().any(|c| c.name == **name))
    {
        return Err(restore(format!(
            "one more case would rename `{renamed}` (its number grows a digit)"
        )));
    }
    let source = Source::Copy(format!("stress/{name}"));
    match after
        .cases
        .iter()
        .find(|c| c.source == source && !old.contains(&c.name.as_str()))
    {
        Some(case) => Ok(case.name.clone()),
        None => Err(restore("the new entry names no case".into())),
    }
}

fn read_back(dir: &Path) -> std::result::Result<Generators, AddError> {
    match crate::generators::spec::read(dir) {
        Some(read) => Ok(read?),
        None => Err(AddError::ByHand {
            why: "gone".into(),
            entry: String::new(),
        }),
    }
}

/// Why the new entry has no place the edit can find.
#[derive(Debug, thiserror::Error)]
enum NoPlace {
    #[error("the directory has no `data:`")]
    NoData,
    #[error("`data:` is past the end")]
    PastEnd,
    #[error("`data:` is not on its line")]
    NotOnItsLine,
    #[error("secret's `data:` is written inline")]
    Inline,
}

/// `text` with `lines` added at the end of the block `data:` of the
/// directory `map` (a map of names or a list of them), indented as its
/// entries are. Flow-style blocks (`data: {...}`) are left to the setter.
fn insert(text: &str, map: &Map<'_>, lines: &[String]) -> std::result::Result<String, NoPlace> {
    let Some(line) = map.key_line("data") else {
        return Err(NoPlace::NoData);
    };
    let all: Vec<&str> = text.lines().collect();
    let key_line = all.get(line - 1).ok_or(NoPlace::PastEnd)?;
    let column = key_line.find("data:").ok_or(NoPlace::NotOnItsLine)?;
    let after_colon = key_line[column + 5..].trim();
    if !after_colon.is_empty() && !after_colon.starts_with('#') && after_colon != "~" {
        return Err(NoPlace::Inline);
    }
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let content = |l: &&str| !l.trim().is_empty() && !l.trim_start().starts_with('#');
    // The block: the lines after `data:` indented deeper than its key, or
    // as deep when they are a list's items (YAML allows both).
    let is_item = |l: &str| l.trim_start().starts_with("- ");
    let mut end = line;
    let mut first = None;
    for (i, l) in all.iter().enumerate().skip(line) {
        if !content(l) {
            continue;
        }
        let items_at_key = first.is_none_or(|f: &str| indent_of(f) == column);
        let inside =
            indent_of(l) > column || (indent_of(l) == column && is_item(l) && items_at_key);
        if !inside {
            break;
        }
        first.get_or_insert(*l);
        end = i + 1;
    }
    let (indent, list) = match first {
        Some(l) => (indent_of(l), is_item(l)),
        None => (column + 2, false),
    };
    let pad = " ".repeat(indent);
    let mut added: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        added.push(match (list, i) {
            (true, 0) => format!("{pad}- {l}"),
            (true, _) => format!("{pad}  {l}"),
            (false, _) => format!("{pad}{l}"),
        });
    }
    let mut out: Vec<String> = all[..end].iter().map(|l| l.to_string()).collect();
    out.extend(added);
    out.extend(all[end..].iter().map(|l| l.to_string()));
    Ok(out.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(yaml: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("generators")).unwrap();
        std::fs::write(dir.path().join("generators/generators.yaml"), yaml).unwrap();
        let name = add_case(dir.path(), 7, b"1 2\n", b"3\n").unwrap();
        let text = std::fs::read_to_string(dir.path().join("generators/generators.yaml")).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("generators/stress/stress-7.in")).unwrap(),
            b"1 2\n"
        );
        format!("{name}\n{text}")
    }

    #[test]
    fn the_entry_goes_into_secret_as_its_entries_are_written() {
        // A map of names.
        assert_eq!(
            added("data:\n  secret:\n    data:\n      a: {in: \"1\"}\n  # end\n"),
            "secret/stress-7\ndata:\n  secret:\n    data:\n      a: {in: \"1\"}\n      stress-7: {copy: stress/stress-7}\n  # end\n"
        );
        // A numbered list: the next number.
        assert_eq!(
            added("data:\n  secret:\n    data:\n    - a: {in: \"1\"}\n    - b: {in: \"2\"}\n"),
            "secret/3-stress-7\ndata:\n  secret:\n    data:\n    - a: {in: \"1\"}\n    - b: {in: \"2\"}\n    - stress-7: {copy: stress/stress-7}\n"
        );
        // Groups: a folder `stress` of its own.
        assert_eq!(
            added(
                "data:\n  secret:\n    data:\n      g1:\n        data:\n          a: {in: \"1\"}\n"
            ),
            "secret/stress/stress-7\ndata:\n  secret:\n    data:\n      g1:\n        data:\n          a: {in: \"1\"}\n      stress:\n        data:\n          stress-7: {copy: stress/stress-7}\n"
        );
    }

    #[test]
    fn an_entry_that_would_rename_others_is_left_to_the_setter() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("generators")).unwrap();
        let items: String = (1..=9)
            .map(|i| format!("    - c{i}: {{in: \"{i}\"}}\n"))
            .collect();
        let yaml = format!("data:\n  secret:\n    data:\n{items}");
        std::fs::write(dir.path().join("generators/generators.yaml"), &yaml).unwrap();
        let error = add_case(dir.path(), 7, b"1\n", b"1\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("would rename `secret/1-c1`"), "{error}");
        assert!(
            error.contains("stress-7: {copy: stress/stress-7}"),
            "{error}"
        );
        let kept = std::fs::read_to_string(dir.path().join("generators/generators.yaml")).unwrap();
        assert_eq!(kept, yaml);
    }
}
