//! What a Kattis 2025-09 static validation test case needs from the plan:
//! the package's `static_validator/` as the builder takes it, and a
//! submission's files, language code and entry point as the validator is
//! given them.

use std::path::{Path, PathBuf};

use crate::compile::Executable;
use crate::runner::StaticSubmission;
use crate::spec::{ProblemSpec, ProgramRef};

/// The package's static validator, when it has one and uses it.
pub(super) fn validator(problem: &ProblemSpec) -> Option<ProgramRef> {
    let package = problem.package.as_deref()?;
    if problem.static_tests.is_empty() {
        return None;
    }
    let program = package.static_validator.as_ref()?;
    Some(crate::spec::package_program(package, program))
}

/// The files the static validator is given of `program`: a submitted file,
/// or a package submission's sources and the files beside them (its
/// `include/` files). `None` for what has no source (an answer set).
pub(super) fn submission(validator: &Executable, program: &ProgramRef) -> Option<StaticSubmission> {
    let named = |path: &Path| -> Option<(PathBuf, PathBuf)> {
        Some((PathBuf::from(path.file_name()?), path.to_path_buf()))
    };
    let (language, entry, files) = match program {
        ProgramRef::Submitted(path) | ProgramRef::File(path) => (
            crate::formats::language_of(path)?.to_string(),
            path,
            vec![named(path)?],
        ),
        ProgramRef::Sources(set) => (
            kattis_code(&set.language).to_string(),
            &set.entry,
            set.sources
                .iter()
                .chain(&set.beside)
                .filter_map(|p| named(p))
                .collect(),
        ),
        ProgramRef::Bin(_) | ProgramRef::Answers { .. } => return None,
    };
    Some(StaticSubmission {
        validator: validator.clone(),
        language,
        entry: entry.file_name()?.to_string_lossy().into_owned(),
        files,
    })
}

/// The languages table's code for a key of ours (`spec::language_key`
/// the other way).
fn kattis_code(key: &str) -> &str {
    match key {
        "python" => "python3",
        "pypy" => "pypy3",
        other => other,
    }
}
