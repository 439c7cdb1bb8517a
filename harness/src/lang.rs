//! The language table (`languages.toml`): how a single-file submission is
//! compiled and run. Built-in defaults, extended or overridden by the user's
//! file without touching code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::errors::SpecError;

const BUILT_IN: &str = include_str!("../languages.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Language {
    pub name: String,
    pub extensions: Vec<String>,
    #[serde(default)]
    pub compile: Vec<String>,
    pub run: Vec<String>,
    /// Build the source under the submission's own file name instead of
    /// `solution.<ext>` (Java: a public class must be in a file of its name).
    #[serde(default)]
    pub keep_file_name: bool,
}

#[derive(Debug, Clone)]
pub struct Languages {
    by_key: BTreeMap<String, Language>,
}

impl Languages {
    /// The built-in table, with `user` (if it exists) layered on top.
    pub fn load(user: Option<&Path>) -> Result<Languages, SpecError> {
        let mut by_key = parse(BUILT_IN, Path::new("<built-in languages.toml>"))?;
        if let Some(path) = user.filter(|p| p.is_file()) {
            let text = std::fs::read_to_string(path).map_err(|source| SpecError::Read {
                path: path.to_path_buf(),
                source,
            })?;
            by_key.extend(parse(&text, path)?);
        }
        Ok(Languages { by_key })
    }

    /// The language for a source file, by extension; its key too.
    pub fn for_file(&self, path: &Path) -> Option<(&str, &Language)> {
        let ext = path.extension()?.to_str()?;
        self.by_key
            .iter()
            .find(|(_, lang)| lang.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
            .map(|(key, lang)| (key.as_str(), lang))
    }

    pub fn known_extensions(&self) -> String {
        let mut exts: Vec<&str> = self
            .by_key
            .values()
            .flat_map(|l| l.extensions.iter().map(String::as_str))
            .collect();
        exts.sort_unstable();
        exts.join(", ")
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Language)> {
        self.by_key.iter().map(|(k, v)| (k.as_str(), v))
    }
}

fn parse(text: &str, path: &Path) -> Result<BTreeMap<String, Language>, SpecError> {
    let table: BTreeMap<String, Language> = toml::from_str(text).map_err(|e| SpecError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    for (key, lang) in &table {
        if lang.run.is_empty() || lang.extensions.is_empty() {
            return Err(SpecError::Languages {
                path: path.to_path_buf(),
                message: format!("language `{key}` needs non-empty `run` and `extensions`"),
            });
        }
    }
    Ok(table)
}

/// Fills `{source}`, `{binary}`, `{dir}`, `{stem}` (the source's file name
/// without extension) and `{main_class}` (the same, for Java and Kotlin) in
/// a command template.
pub fn expand(template: &[String], source: &Path, binary: &Path, dir: &Path) -> Vec<String> {
    let show = |p: &Path| p.to_string_lossy().into_owned();
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    template
        .iter()
        .map(|part| {
            part.replace("{source}", &show(source))
                .replace("{binary}", &show(binary))
                .replace("{dir}", &show(dir))
                .replace("{stem}", &stem)
                .replace("{main_class}", &stem)
        })
        .collect()
}

/// The default location of the user's table: beside `problems/`.
pub fn user_table(root: &Path) -> PathBuf {
    root.join("languages.toml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_table_covers_its_languages() {
        let langs = Languages::load(None).unwrap();
        for ext in ["rs", "c", "cpp", "py", "java", "js", "go", "kt"] {
            assert!(
                langs.for_file(Path::new(&format!("x.{ext}"))).is_some(),
                "{ext}"
            );
        }
        assert!(langs.for_file(Path::new("x.unknown")).is_none());
    }

    #[test]
    fn user_table_adds_and_overrides() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("languages.toml");
        std::fs::write(
            &path,
            "[python]\nname = \"PyPy\"\nextensions = [\"py\"]\nrun = [\"pypy3\", \"{source}\"]\n\n[sh]\nname = \"Shell\"\nextensions = [\"sh\"]\nrun = [\"sh\", \"{source}\"]\n",
        )
        .unwrap();
        let langs = Languages::load(Some(&path)).unwrap();
        assert_eq!(langs.for_file(Path::new("a.py")).unwrap().1.name, "PyPy");
        assert_eq!(langs.for_file(Path::new("a.sh")).unwrap().0, "sh");
    }

    #[test]
    fn bad_user_table_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("languages.toml");
        std::fs::write(&path, "[go]\nname = \"Go\"\nextension = [\"go\"]\n").unwrap();
        let error = Languages::load(Some(&path)).unwrap_err().to_string();
        assert!(
            error.contains("languages.toml") && error.contains("extension"),
            "{error}"
        );
    }

    #[test]
    fn placeholders_name_the_source_and_its_class() {
        let argv = expand(
            &[
                "java".into(),
                "-cp".into(),
                "{dir}".into(),
                "{main_class}".into(),
            ],
            Path::new("/b/Sum.java"),
            Path::new("/b/main"),
            Path::new("/b"),
        );
        assert_eq!(argv, ["java", "-cp", "/b", "Sum"]);
    }
}
