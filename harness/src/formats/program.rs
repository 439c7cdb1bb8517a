//! A package program (validator, checker, interactor, generator or
//! submission) found on disk: one source file, or a folder whose sources
//! are built together with its headers on the include path.
//!
//! Language detection follows the Kattis languages table and problemtools:
//! by file extension; in a folder, the language with the most source files
//! wins, ties going to the higher priority. The main file is, in order: an
//! explicit entry point, the language's default entry file, a file named
//! `main.*`, the only source, or the first source in name order.

use std::path::{Path, PathBuf};

use super::error::{FormatError, FormatResult};
use super::package::Program;

/// One row of the languages table: code, extensions, priority, default entry.
struct LanguageRow {
    code: &'static str,
    extensions: &'static [&'static str],
    priority: u32,
    entry: Option<&'static str>,
}

const LANGUAGES: &[LanguageRow] = &[
    row("cpp", &["cc", "cpp", "cxx", "c++", "C"], 1000, None),
    row("c", &["c"], 950, None),
    row("python3", &["py", "py3"], 850, Some("__main__.py")),
    row("python2", &["py2"], 860, Some("__main__.py")),
    row("java", &["java"], 800, Some("Main.java")),
    row("csharp", &["cs"], 700, None),
    row("go", &["go"], 600, None),
    row("rust", &["rs"], 575, None),
    row("javascript", &["js"], 500, Some("main.js")),
    row("typescript", &["ts"], 480, None),
    row("php", &["php"], 460, Some("main.php")),
    row("haskell", &["hs"], 450, None),
    row("ocaml", &["ml"], 440, None),
    row("scala", &["scala"], 430, None),
    row("swift", &["swift"], 420, None),
    row("ruby", &["rb"], 410, None),
    row("pascal", &["pas"], 400, None),
    row("lua", &["lua"], 390, None),
    row("kotlin", &["kt"], 250, None),
    row("bash", &["sh"], 100, None),
    // The rest of the Kattis languages table, for detection only.
    row("ada", &["adb", "ads"], 50, None),
    row("algol68", &["a68"], 50, None),
    row("apl", &["apl"], 50, None),
    row("cobol", &["cob"], 50, None),
    row("crystal", &["cr"], 50, None),
    row("d", &["d"], 50, None),
    row("dart", &["dart"], 50, None),
    row("elixir", &["ex"], 50, None),
    row("erlang", &["erl"], 50, None),
    row("forth", &["fth", "4th", "forth", "frt"], 50, None),
    row("fortran", &["f90"], 50, None),
    row("fsharp", &["fs"], 50, None),
    row("gerbil", &["ss"], 50, None),
    row("julia", &["jl"], 50, None),
    row("lisp", &["lisp", "cl"], 50, Some("main.lisp")),
    row("modula2", &["mod", "def"], 50, None),
    row("nim", &["nim"], 50, None),
    row("objectivec", &["m"], 50, None),
    row("odin", &["odin"], 50, None),
    row("perl", &["pm"], 50, None),
    row("prolog", &["pl"], 50, None),
    row("racket", &["rkt"], 50, None),
    row("simula", &["sim"], 50, None),
    row("smalltalk", &["st"], 50, None),
    row("snobol", &["sno"], 50, None),
    row("visualbasic", &["vb"], 50, None),
    row("zig", &["zig"], 50, None),
];

const fn row(
    code: &'static str,
    extensions: &'static [&'static str],
    priority: u32,
    entry: Option<&'static str>,
) -> LanguageRow {
    LanguageRow {
        code,
        extensions,
        priority,
        entry,
    }
}

/// Headers are never sources, but C and C++ programs need them beside.
const HEADER_EXTENSIONS: &[&str] = &["h", "hh", "hpp", "hxx", "h++", "inc"];

/// The language code for a file name, by extension (case matters: `.C` is C++).
pub(crate) fn language_of(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?;
    LANGUAGES
        .iter()
        .find(|lang| lang.extensions.contains(&ext))
        .map(|lang| lang.code)
}

fn row_of(code: &str) -> Option<&'static LanguageRow> {
    LANGUAGES.iter().find(|lang| lang.code == code)
}

fn is_header(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| HEADER_EXTENSIONS.contains(&e))
}

/// Files of a folder program, sorted, skipping hidden ones (the spec tells
/// the judge to act as if names starting with `.` or `-` were not there).
fn folder_files(dir: &Path) -> FormatResult<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .follow_links(true)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| FormatError::file(dir, format!("cannot list: {e}")))?;
        let hidden = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with(['.', '-']));
        if entry.file_type().is_file() && !hidden {
            files.push(entry.into_path());
        }
    }
    Ok(files)
}

/// Whether any file of the program at `path` has a known language (or it
/// is a folder with `build`/`run` scripts).
pub(crate) fn has_known_language(path: &Path) -> bool {
    if path.is_file() {
        return language_of(path).is_some();
    }
    folder_files(path).is_ok_and(|files| {
        files.iter().any(|f| {
            language_of(f).is_some() || f.file_name().is_some_and(|n| n == "build" || n == "run")
        })
    })
}

/// What the caller knows about the program beyond its files.
#[derive(Debug, Default, Clone)]
pub(crate) struct ProgramHints {
    /// A language code given by the package (`submissions.yaml language`,
    /// Polygon source type).
    pub(crate) language: Option<String>,
    /// `submissions.yaml entrypoint`: a file name in the folder.
    pub(crate) entry: Option<String>,
    pub(crate) substitute_constants: bool,
}

/// Reads the program at `path` (a file or a folder) named `name`.
pub(crate) fn read_program(path: &Path, name: &str, hints: &ProgramHints) -> FormatResult<Program> {
    let files = if path.is_dir() {
        folder_files(path)?
    } else if path.is_file() {
        vec![path.to_path_buf()]
    } else {
        return Err(FormatError::file(path, "no such file or folder"));
    };
    if files.is_empty() {
        return Err(FormatError::file(path, "the program folder is empty"));
    }
    let dir = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().unwrap_or(Path::new(".")).to_path_buf()
    };
    let mut program = Program {
        name: name.to_string(),
        path: path.to_path_buf(),
        language: String::new(),
        sources: Vec::new(),
        entry: PathBuf::new(),
        extra_files: Vec::new(),
        include_dirs: vec![dir.clone()],
        substitute_constants: hints.substitute_constants,
    };

    // Kattis: a folder with `build` and/or `run` scripts builds itself.
    let script = |script: &str| files.iter().any(|f| f == &dir.join(script));
    if path.is_dir() && (script("build") || script("run")) {
        program.language = "build-run".to_string();
        program.entry = dir.join("run");
        program.extra_files = files;
        return Ok(program);
    }

    let language = match &hints.language {
        Some(code) => code.clone(),
        None => detect_language(&files).ok_or_else(|| {
            FormatError::file(
                path,
                "cannot tell the program's language from its file extensions",
            )
        })?,
    };
    let language = if language == "python3" && all_python2(&files) {
        "python2".to_string()
    } else {
        language
    };
    let (sources, extra): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|f| !is_header(f) && language_matches(&language, f));
    if sources.is_empty() {
        return Err(FormatError::file(
            path,
            format!("no {language} source file"),
        ));
    }
    program.entry = choose_entry(path, &language, &sources, hints.entry.as_deref())?;
    program.language = language;
    program.sources = sources;
    program.extra_files = extra;
    Ok(program)
}

/// Whether `file` is a source of `language` (by extension; Python 2 and 3
/// share `.py`).
fn language_matches(language: &str, file: &Path) -> bool {
    match (language, language_of(file)) {
        // Python files, run by another interpreter.
        ("python2" | "pypy3", Some("python3")) => true,
        (code, Some(found)) => code == found,
        (_, None) => false,
    }
}

/// `.py` files are Python 2 only when every one starts with a `python2`
/// shebang (the legacy rule, as problemtools applies it).
fn all_python2(files: &[PathBuf]) -> bool {
    let scripts: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "py"))
        .collect();
    !scripts.is_empty()
        && scripts.iter().all(|file| {
            let first = std::fs::read_to_string(file).unwrap_or_default();
            let line = first.lines().next().unwrap_or("");
            line.starts_with("#!") && line.contains("python2")
        })
}

fn detect_language(files: &[PathBuf]) -> Option<String> {
    let mut best: Option<(usize, u32, &str)> = None;
    for lang in LANGUAGES {
        let count = files
            .iter()
            .filter(|f| language_of(f) == Some(lang.code))
            .count();
        if count == 0 {
            continue;
        }
        let candidate = (count, lang.priority, lang.code);
        if best.is_none_or(|b| (candidate.0, candidate.1) > (b.0, b.1)) {
            best = Some(candidate);
        }
    }
    best.map(|(_, _, code)| code.to_string())
}

fn choose_entry(
    path: &Path,
    language: &str,
    sources: &[PathBuf],
    explicit: Option<&str>,
) -> FormatResult<PathBuf> {
    let named = |name: &str| {
        sources
            .iter()
            .find(|s| s.file_name().is_some_and(|n| n == name))
    };
    if let Some(name) = explicit {
        return named(name).cloned().ok_or_else(|| {
            FormatError::file(
                path,
                format!("entry point `{name}` is not one of its source files"),
            )
        });
    }
    if let Some(found) = row_of(language).and_then(|row| row.entry).and_then(named) {
        return Ok(found.clone());
    }
    let main = sources.iter().find(|s| {
        s.file_stem()
            .and_then(|stem| stem.to_str())
            .is_some_and(|stem| stem.eq_ignore_ascii_case("main"))
    });
    Ok(main.unwrap_or(&sources[0]).clone())
}

/// A Polygon source type (`cpp.g++17`, `python.3`, `java11`, `c.gcc`,
/// `kotlin17`...) as a Kattis language code.
pub(crate) fn language_of_polygon_type(source_type: &str) -> Option<&'static str> {
    let family = source_type
        .split(['.', '-'])
        .next()
        .unwrap_or(source_type)
        .trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match family {
        "cpp" | "h" => "cpp",
        "c" => "c",
        "python" if source_type.contains('2') && !source_type.contains("3") => "python2",
        // `python.pypy3`, `python.pypy3-64`: Python run by PyPy.
        "python" | "pypy" if source_type.contains("pypy") => "pypy3",
        "python" => "python3",
        "java" => "java",
        "kotlin" => "kotlin",
        "go" => "go",
        "rust" => "rust",
        "csharp" => "csharp",
        "js" | "javascript" | "node" => "javascript",
        "pascal" | "delphi" | "fpc" => "pascal",
        "haskell" => "haskell",
        "ruby" => "ruby",
        "scala" => "scala",
        "php" => "php",
        "ocaml" => "ocaml",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "x").unwrap();
        path
    }

    #[test]
    fn extensions_follow_the_languages_table() {
        assert_eq!(language_of(Path::new("a.cpp")), Some("cpp"));
        assert_eq!(language_of(Path::new("a.C")), Some("cpp"));
        assert_eq!(language_of(Path::new("a.c")), Some("c"));
        assert_eq!(language_of(Path::new("a.py")), Some("python3"));
        assert_eq!(language_of(Path::new("a.kt")), Some("kotlin"));
        assert_eq!(language_of(Path::new("a.h")), None);
    }

    #[test]
    fn folder_with_header_is_cpp_and_keeps_the_header_beside() {
        let dir = tempfile::tempdir().unwrap();
        let main = write(dir.path(), "checker.cpp");
        let header = write(dir.path(), "nim.h");
        write(dir.path(), ".hidden.py");
        let program = read_program(dir.path(), "checker", &ProgramHints::default()).unwrap();
        assert_eq!(program.language, "cpp");
        assert_eq!(program.sources, vec![main.clone()]);
        assert_eq!(program.entry, main);
        assert_eq!(program.extra_files, vec![header]);
        assert_eq!(program.include_dirs, vec![dir.path().to_path_buf()]);
    }

    #[test]
    fn entry_is_explicit_then_default_then_main_then_first() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "b.py");
        let solve = write(dir.path(), "solve.py");
        let hints = ProgramHints {
            entry: Some("solve.py".into()),
            ..ProgramHints::default()
        };
        assert_eq!(read_program(dir.path(), "p", &hints).unwrap().entry, solve);
        let dunder = write(dir.path(), "__main__.py");
        let plain = ProgramHints::default();
        assert_eq!(read_program(dir.path(), "p", &plain).unwrap().entry, dunder);

        let other = tempfile::tempdir().unwrap();
        write(other.path(), "a.cpp");
        let main = write(other.path(), "Main.cpp");
        assert_eq!(read_program(other.path(), "p", &plain).unwrap().entry, main);
    }

    #[test]
    fn most_files_win_then_priority() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.c");
        write(dir.path(), "b.c");
        write(dir.path(), "c.cpp");
        let program = read_program(dir.path(), "p", &ProgramHints::default()).unwrap();
        assert_eq!(program.language, "c");
        assert_eq!(program.sources.len(), 2);
    }

    #[test]
    fn build_run_folder_and_bad_entry() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "build");
        write(dir.path(), "run");
        let program = read_program(dir.path(), "p", &ProgramHints::default()).unwrap();
        assert_eq!(program.language, "build-run");

        let other = tempfile::tempdir().unwrap();
        write(other.path(), "a.py");
        let hints = ProgramHints {
            entry: Some("missing.py".into()),
            ..ProgramHints::default()
        };
        let error = read_program(other.path(), "p", &hints).unwrap_err();
        assert!(error.message.contains("missing.py"), "{error}");
    }

    #[test]
    fn python2_needs_a_shebang_in_every_file() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.py");
        std::fs::write(&old, "#!/usr/bin/env python2\nprint 1\n").unwrap();
        assert_eq!(
            read_program(&old, "old.py", &ProgramHints::default())
                .unwrap()
                .language,
            "python2"
        );
        write(dir.path(), "new.py");
        let both = read_program(dir.path(), "p", &ProgramHints::default()).unwrap();
        assert_eq!(both.language, "python3");
    }

    #[test]
    fn polygon_types() {
        assert_eq!(language_of_polygon_type("cpp.g++17"), Some("cpp"));
        assert_eq!(language_of_polygon_type("c.gcc"), Some("c"));
        assert_eq!(language_of_polygon_type("python.3"), Some("python3"));
        assert_eq!(language_of_polygon_type("python.pypy3"), Some("pypy3"));
        assert_eq!(language_of_polygon_type("python.3"), Some("python3"));
        assert_eq!(language_of_polygon_type("python.2"), Some("python2"));
        assert_eq!(language_of_polygon_type("java11"), Some("java"));
        assert_eq!(language_of_polygon_type("kotlin17"), Some("kotlin"));
        assert_eq!(language_of_polygon_type("brainfuck"), None);
    }
}
