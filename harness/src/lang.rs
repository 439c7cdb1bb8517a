//! The language table (`languages.toml`): how a program of one language (a
//! single file, or several sources built together) is compiled and run. Built-in defaults, extended or overridden by the user's
//! file without touching code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::spec::SpecError;

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

impl Language {
    /// The first program this language needs (its compiler, or its
    /// interpreter) that is not on this machine's `PATH`; `None` when it can
    /// build and run here.
    pub fn missing_tool(&self) -> Option<String> {
        let interpreter = self.run.first().filter(|r| !r.contains('{'));
        self.compile
            .first()
            .into_iter()
            .chain(interpreter)
            .find(|tool| which::which(tool).is_err())
            .cloned()
    }
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

    /// The language with this key (`cpp`, `python`).
    pub fn get(&self, key: &str) -> Option<&Language> {
        self.by_key.get(key)
    }

    pub fn known_keys(&self) -> String {
        self.by_key.keys().cloned().collect::<Vec<_>>().join(", ")
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
        if lang.run.is_empty() {
            return Err(SpecError::Languages {
                path: path.to_path_buf(),
                message: format!("language `{key}` needs a non-empty `run`"),
            });
        }
        let mut commands = lang.compile.iter().chain(&lang.run);
        if commands.any(|part| part != SOURCES && part.contains(SOURCES)) {
            return Err(SpecError::Languages {
                path: path.to_path_buf(),
                message: format!("language `{key}`: `{SOURCES}` must be a whole argument"),
            });
        }
    }
    Ok(table)
}

/// What a command template's placeholders stand for in one build.
pub(crate) struct Placeholders<'a> {
    /// `{source}`: the entry (a crate root, the file an interpreter runs).
    pub source: &'a Path,
    /// `{sources}`: every source compiled, in sorted order.
    pub sources: &'a [PathBuf],
    /// `{binary}`: the executable the build makes.
    pub binary: &'a Path,
    /// `{dir}`: the build folder.
    pub dir: &'a Path,
    /// `{main_class}`: the JVM class to start, when it was found (else the
    /// entry's name without extension).
    pub main_class: Option<&'a str>,
}

/// The placeholder that stands for several arguments.
const SOURCES: &str = "{sources}";

/// The placeholder of the JVM class to start: a build whose run command
/// has it looks for the class with a main method.
pub(crate) const MAIN_CLASS: &str = "{main_class}";

/// Fills a command template: `{source}`, `{binary}`, `{dir}`, `{stem}` (the
/// entry's file name without extension), `{main_class}` (the class with a
/// main method, for Java and Kotlin; see `compile::main_class`), and
/// `{sources}`, an argument that becomes one per source.
pub(crate) fn expand(template: &[String], at: &Placeholders) -> Vec<String> {
    let show = |p: &Path| p.to_string_lossy().into_owned();
    let stem = at
        .source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut argv = Vec::new();
    for part in template {
        if part == SOURCES {
            argv.extend(at.sources.iter().map(|s| show(s)));
            continue;
        }
        argv.push(
            part.replace("{source}", &show(at.source))
                .replace("{binary}", &show(at.binary))
                .replace("{dir}", &show(at.dir))
                .replace("{stem}", &stem)
                .replace("{main_class}", at.main_class.unwrap_or(&stem)),
        );
    }
    argv
}

/// The default location of the user's table: beside `problems/`.
pub(crate) fn user_table(root: &Path) -> PathBuf {
    root.join("languages.toml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_whose_compiler_is_missing_says_which() {
        let ghost = Language {
            name: "Ghost".into(),
            extensions: vec!["gh".into()],
            compile: vec!["no-such-compiler-for-ghost".into(), "{source}".into()],
            run: vec!["{binary}".into()],
            keep_file_name: false,
        };
        assert_eq!(
            ghost.missing_tool().as_deref(),
            Some("no-such-compiler-for-ghost")
        );
        let shell = Language {
            compile: Vec::new(),
            run: vec!["sh".into(), "{source}".into()],
            ..ghost
        };
        assert_eq!(shell.missing_tool(), None);
    }

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

    /// The built-in table with a user's table of `text`; an error as its message.
    fn load_user(text: &str) -> Result<Languages, SpecError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("languages.toml");
        std::fs::write(&path, text).unwrap();
        Languages::load(Some(&path))
    }

    #[test]
    fn user_table_adds_and_overrides() {
        let langs = load_user(
            "[python]\nname = \"PyPy\"\nextensions = [\"py\"]\nrun = [\"pypy3\", \"{source}\"]\n\n[sh]\nname = \"Shell\"\nextensions = [\"sh\"]\nrun = [\"sh\", \"{source}\"]\n",
        )
        .unwrap();
        assert_eq!(langs.for_file(Path::new("a.py")).unwrap().1.name, "PyPy");
        assert_eq!(langs.for_file(Path::new("a.sh")).unwrap().0, "sh");
    }

    #[test]
    fn bad_user_table_names_the_file() {
        let error = load_user("[go]\nname = \"Go\"\nextension = [\"go\"]\n")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("languages.toml") && error.contains("extension"),
            "{error}"
        );
    }

    fn template(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn placeholders_name_the_source_and_its_class() {
        let sources = [PathBuf::from("/b/Sum.java")];
        let at = Placeholders {
            source: Path::new("/b/Sum.java"),
            sources: &sources,
            binary: Path::new("/b/main"),
            dir: Path::new("/b"),
            main_class: None,
        };
        let argv = expand(&template(&["java", "-cp", "{dir}", "{main_class}"]), &at);
        assert_eq!(argv, ["java", "-cp", "/b", "Sum"]);
        let found = Placeholders {
            main_class: Some("Main"),
            ..at
        };
        let argv = expand(&template(&["java", "-cp", "{dir}", "{main_class}"]), &found);
        assert_eq!(argv, ["java", "-cp", "/b", "Main"]);
    }

    #[test]
    fn sources_become_one_argument_each() {
        let sources = [PathBuf::from("/b/a.cpp"), PathBuf::from("/b/main.cpp")];
        let at = Placeholders {
            source: Path::new("/b/main.cpp"),
            sources: &sources,
            binary: Path::new("/b/main"),
            dir: Path::new("/b"),
            main_class: None,
        };
        let argv = expand(
            &template(&["g++", "-o", "{binary}", "{sources}", "-lm"]),
            &at,
        );
        assert_eq!(
            argv,
            ["g++", "-o", "/b/main", "/b/a.cpp", "/b/main.cpp", "-lm"]
        );
        let run = expand(&template(&["python3", "{source}"]), &at);
        assert_eq!(run, ["python3", "/b/main.cpp"]);
    }

    #[test]
    fn sources_inside_an_argument_is_an_error() {
        let error = load_user(
            "[zig]\nname = \"Zig\"\nextensions = [\"zig\"]\ncompile = [\"zig\", \"--files={sources}\"]\nrun = [\"{binary}\"]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("languages.toml") && error.contains("whole argument"),
            "{error}"
        );
    }
}
