//! Finds problem packages under `problems/` and pairs each `.in` with its
//! `.ans` (Kattis layout: `data/sample/*`, `data/secret/[group/]*`).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::SpecError;
use super::problem::{ProblemSpec, TestCase};
use super::raw::RawProblem;

/// Every package folder below `problems_dir` (one with a `problem.toml`, a
/// Kattis `problem.yaml` or a Polygon `problem.xml`), each loaded on its
/// own: one broken package never hides the others, and a package in a
/// format the judge cannot run yet is reported, never skipped in silence.
pub fn discover_problems(
    problems_dir: &Path,
) -> Result<Vec<Result<ProblemSpec, SpecError>>, SpecError> {
    if !problems_dir.is_dir() {
        return Err(SpecError::NoProblemsDir {
            path: problems_dir.to_path_buf(),
        });
    }
    let mut dirs: Vec<PathBuf> = WalkDir::new(problems_dir)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_dir() && is_package(entry.path()))
        .map(|entry| entry.into_path())
        .collect();
    dirs.sort();
    Ok(dirs.iter().map(|dir| load_problem(dir)).collect())
}

/// Whether `dir` holds a problem package in any format the judge reads.
pub fn is_package(dir: &Path) -> bool {
    crate::formats::package_kind(dir).is_some()
}

/// Loads and validates one package folder. A Kattis package whose time
/// limit follows from its own submissions gets the provisional cap here:
/// `judge` settles it by running them (`commands::package_time`).
pub fn load_problem(dir: &Path) -> Result<ProblemSpec, SpecError> {
    match crate::formats::read_package(dir) {
        None => load(dir, true),
        Some(Err(error)) => Err(SpecError::Package(error.to_string())),
        Some(Ok(package)) => {
            let time = crate::formats::provisional_limit(&package.limits.time);
            super::lower::lower(std::sync::Arc::new(package), time)
        }
    }
}

/// Like `load_problem`, but a `.in` may lack its `.ans`: for writing answers.
pub fn load_problem_for_answers(dir: &Path) -> Result<ProblemSpec, SpecError> {
    load(dir, false)
}

fn load(dir: &Path, require_answers: bool) -> Result<ProblemSpec, SpecError> {
    let manifest = dir.join("problem.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|source| SpecError::Read {
        path: manifest.clone(),
        source,
    })?;
    let raw = parse_manifest(&manifest, &text)?;
    let tests = find_tests(&dir.join("data"), require_answers)?;
    ProblemSpec::from_raw(raw, dir, &manifest, &text, tests)
}

/// `problem.toml`'s text as read, before any check of what it says.
pub(super) fn parse_manifest(manifest: &Path, text: &str) -> Result<RawProblem, SpecError> {
    toml::from_str(text).map_err(|error| SpecError::Parse {
        path: manifest.to_path_buf(),
        message: error.to_string(),
    })
}

/// Test cases under `data/`: samples first, then the rest, each in
/// lexicographic path order (the order Kattis runs them in).
fn find_tests(data: &Path, require_answers: bool) -> Result<Vec<TestCase>, SpecError> {
    let mut tests = Vec::new();
    if !data.is_dir() {
        return Ok(tests);
    }
    for entry in WalkDir::new(data).sort_by_file_name() {
        let entry = entry.map_err(|e| SpecError::Read {
            path: e.path().unwrap_or(data).to_path_buf(),
            source: e.into(),
        })?;
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|ext| ext != "in") {
            continue;
        }
        let answer = path.with_extension("ans");
        if require_answers && !answer.is_file() {
            return Err(SpecError::MissingAnswer {
                input: path.to_path_buf(),
            });
        }
        let relative = path.strip_prefix(data).unwrap_or(path).with_extension("");
        let name = relative.to_string_lossy().replace('\\', "/");
        let group = relative
            .parent()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        tests.push(TestCase {
            name,
            group,
            input: path.to_path_buf(),
            answer,
            ..TestCase::default()
        });
    }
    tests.sort_by(|a, b| (!a.is_sample(), &a.name).cmp(&(!b.is_sample(), &b.name)));
    Ok(tests)
}
