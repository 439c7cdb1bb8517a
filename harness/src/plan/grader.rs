//! An IOI-style task's grader (CMS's `sol/grader.cpp`, a Communication
//! task's `sol/stub.cpp`, TPS's `grader/cpp/`): a contestant's file holds
//! the task's functions and no `main`, so a file handed in for the task is
//! built with the grader's sources and headers, as the task's own
//! solutions are (`formats::ioi::solution`). A file in another language
//! than the grader's cannot be: a compile error naming both.

use std::sync::Arc;

use crate::compile::{Built, CompileError};
use crate::spec::{ProblemSpec, ProgramRef, SourceSet, language_key};

/// `program` built by `build`: a file handed in for a task with a grader
/// built with it, anything else as it is.
pub(super) fn build_with_grader(
    problem: &ProblemSpec,
    program: &ProgramRef,
    build: impl FnOnce(&ProgramRef) -> Built,
) -> Built {
    let ProgramRef::Submitted(path) = program else {
        return build(program);
    };
    let Some(grader) = problem
        .package
        .as_deref()
        .and_then(|package| package.grader.as_ref())
    else {
        return build(program);
    };
    // A file of no known language is the builder's to name.
    let Some(language) = crate::formats::language_of(path) else {
        return build(program);
    };
    if language_key(language) != language_key(&grader.language) {
        return Built::CompileError(CompileError::NotTheGradersLanguage {
            language: language.to_string(),
            grader: grader.language.clone(),
        });
    }
    build(&ProgramRef::Sources(Arc::new(SourceSet {
        name: program.display_name(),
        language: language_key(&grader.language).to_string(),
        sources: grader.sources.clone(),
        entry: path.clone(),
        beside: grader.headers.clone(),
        constants: Vec::new(),
        submitted: Some(path.clone()),
    })))
}
