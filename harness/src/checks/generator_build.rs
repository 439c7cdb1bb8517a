//! Building the programs `generators.yaml` names (generators, the
//! solution, the input visualizer) as the builder takes them: one file, a
//! folder, or the files a `generators:` entry lists taken as one folder,
//! with the package's `{{constants}}` substituted, as BAPCtools does.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::generators::{BuiltProgram, CaseError};
use crate::compile::NotProgram;
use crate::formats::Constants;
use crate::generators::Generators;
use crate::plan::Means;
use crate::spec::ProgramRef;

/// The files of the generator `name` of the package in `dir`: a name in
/// `generators:`, or a file or folder of `generators/`.
pub(crate) fn generator_files(dir: &Path, generators: &Generators, name: &str) -> Vec<PathBuf> {
    let folder = dir.join("generators");
    match generators.programs.get(name) {
        Some(files) => files.iter().map(|f| folder.join(f)).collect(),
        None => vec![folder.join(name)],
    }
}

/// The generator `name` of the package in `dir` as the builder takes it
/// (for `judge stress` on a package without a `[generator]`).
pub(crate) fn generator_program(
    means: &Means<'_>,
    dir: &Path,
    generators: &Generators,
    name: &str,
) -> std::result::Result<ProgramRef, CaseError> {
    let files = generator_files(dir, generators, name);
    Ok(program_of(means, name, &files, &generators.constants)?.0)
}

/// Builds a program of `files` (one file or folder, or several files
/// taken as one folder): its executable and a hash of every file.
pub(crate) fn build(
    means: &mut Means<'_>,
    name: &str,
    files: &[PathBuf],
    constants: &Constants,
) -> BuiltProgram {
    let (program, hash) = program_of(means, name, files, constants)?;
    match means.builder.build(&program).into_program() {
        Ok(exe) => Ok((exe, hash)),
        Err(NotProgram::NotBuilt(why)) => Err(CaseError::NotBuilt {
            program: name.to_string(),
            why,
        }),
        Err(NotProgram::AnswerSet(_)) => Err(CaseError::NotAProgram {
            program: name.to_string(),
        }),
    }
}

/// A program of `files` as the builder takes it, and a hash of every file.
fn program_of(
    means: &Means<'_>,
    name: &str,
    files: &[PathBuf],
    constants: &Constants,
) -> std::result::Result<(ProgramRef, String), CaseError> {
    let mut hasher = blake3::Hasher::new();
    let mut sources = Vec::new();
    for file in files {
        for entry in walkdir::WalkDir::new(file).sort_by_file_name() {
            let entry = entry.map_err(|e| CaseError::Walk {
                program: name.to_string(),
                message: e.to_string(),
            })?;
            if entry.file_type().is_file() {
                let bytes = std::fs::read(entry.path()).map_err(|e| CaseError::Read {
                    path: entry.path().to_path_buf(),
                    source: Arc::new(e),
                })?;
                hasher.update(entry.path().to_string_lossy().as_bytes());
                hasher.update(&bytes);
                sources.push(entry.into_path());
            }
        }
    }
    let hints = crate::formats::ProgramHints::default();
    // `{{constants}}` are substituted in the package's generators, as
    // BAPCtools does (and so in its solutions and visualizers, which are
    // the package's programs too).
    let program = match files {
        [one]
            if constants.values.is_empty()
                && one.is_file()
                && means.builder.languages().for_file(one).is_some() =>
        {
            ProgramRef::File(one.clone())
        }
        [one] => {
            let read = crate::formats::read_program(one, name, &hints)?;
            crate::spec::with_constants(&read, constants)
        }
        _ => {
            // Several files named in `generators:`: one program of them all.
            let mut read = crate::formats::read_program(&files[0], name, &hints)?;
            read.sources = sources.clone();
            read.extra_files = sources;
            crate::spec::with_constants(&read, constants)
        }
    };
    Ok((program, hasher.finalize().to_hex().to_string()))
}
