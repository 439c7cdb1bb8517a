//! What a package adds to every file handed in for it, as it adds them to
//! its own solutions: an IOI-style task's grader (CMS's `sol/grader.cpp`,
//! a Communication task's `sol/stub.cpp`, TPS's `grader/cpp/`), whose
//! sources and headers a contestant's file (the task's functions and no
//! `main`) is built with (`formats::ioi::solution`); a Kattis package's
//! `include/<language>/` files, placed beside it, and its `{{constants}}`
//! filled in, as in its own submissions (`spec::package_program`).
//! A file in another language than an IOI grader's cannot be built with
//! it: a compile error naming both.

use std::path::PathBuf;
use std::sync::Arc;

use crate::compile::{Built, CompileError};
use crate::spec::{ProblemSpec, ProgramRef, SourceSet, constant_pairs, language_key};

/// `program` built by `build`: a file handed in with the files its package
/// adds, anything else as it is.
pub(super) fn build_with_grader(
    problem: &ProblemSpec,
    program: &ProgramRef,
    build: impl FnOnce(&ProgramRef) -> Built,
) -> Built {
    let ProgramRef::Submitted(path) = program else {
        return build(program);
    };
    let Some(package) = problem.package.as_deref() else {
        return build(program);
    };
    // A file of no known language is the builder's to name.
    let Some(language) = crate::formats::language_of(path) else {
        return build(program);
    };
    let (sources, beside): (Vec<PathBuf>, Vec<PathBuf>) = match &package.grader {
        Some(grader) if language_key(language) != language_key(&grader.language) => {
            return Built::CompileError(CompileError::NotTheGradersLanguage {
                language: language.to_string(),
                grader: grader.language.clone(),
            });
        }
        Some(grader) => (grader.sources.clone(), grader.headers.clone()),
        None => (Vec::new(), package.includes.for_language(language)),
    };
    if sources.is_empty() && beside.is_empty() {
        return build(program);
    }
    build(&ProgramRef::Sources(Arc::new(SourceSet {
        name: program.display_name(),
        language: language_key(language).to_string(),
        sources,
        entry: path.clone(),
        beside,
        constants: constant_pairs(&package.constants),
        submitted: Some(path.clone()),
    })))
}
