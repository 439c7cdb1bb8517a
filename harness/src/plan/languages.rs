//! 2025-09 `languages:` in `problem.yaml`: a submission in a language the
//! package does not list is refused before it is built, as a compile
//! error naming the languages the problem accepts (the submitter's doing,
//! never a judge error).

use crate::compile::{Built, CompileError};
use crate::spec::{ProblemSpec, ProgramRef, language_key};

/// The refusal of `program` when its language is not one of `problem`'s
/// package's `languages`; `None` when it is, or nothing is restricted.
pub(super) fn not_allowed(problem: &ProblemSpec, program: &ProgramRef) -> Option<Built> {
    let allowed = problem.package.as_deref()?.rules.languages.as_ref()?;
    // The language table's code (a file's), or the builder's key (a
    // package submission's, whose language is decided when it is read).
    let language = match program {
        ProgramRef::Submitted(path) | ProgramRef::File(path) => {
            crate::formats::language_of(path)?.to_string()
        }
        ProgramRef::Sources(set) => set.language.clone(),
        ProgramRef::Bin(_) | ProgramRef::Answers { .. } => return None,
    };
    let listed = allowed
        .iter()
        .any(|code| code == &language || language_key(code) == language_key(&language));
    (!listed).then(|| {
        Built::CompileError(CompileError::LanguageNotAllowed {
            language,
            allowed: allowed.clone(),
        })
    })
}
