//! Reads a Kattis/ICPC problem package (`problem.yaml`), legacy or 2025-09,
//! into a `Package`: metadata and limits (`metadata`), test data and
//! groups (`data`, `settings`), validators, `include/`, and submissions with
//! their expectations (`submissions`).

mod constants;
mod data;
mod metadata;
mod settings;
mod submissions;

use std::path::{Path, PathBuf};

use self::data::read_data;
use self::metadata::read_metadata;
use self::submissions::read_submissions;
use super::error::{FormatError, FormatResult};
use super::package::{
    Includes, InputValidator, Interaction, OutputJudging, Package, PackageFormat, Program,
    ValidatorProtocol,
};
use super::program::{ProgramHints, read_program};

/// Reads the Kattis package in `dir` (which holds `problem.yaml`).
pub(crate) fn read_kattis(dir: &Path) -> FormatResult<Package> {
    let meta = read_metadata(dir)?;
    let mut warnings = meta.warnings.clone();
    let version_2025 = meta.format == PackageFormat::Kattis2025;
    if version_2025 {
        for (old, new) in [
            ("output_validators", "output_validator"),
            ("problem_statement", "statement"),
        ] {
            if dir.join(old).is_dir() {
                return Err(FormatError::file(
                    &dir.join(old),
                    format!("renamed to {new}/ in 2025-09"),
                ));
            }
        }
    }
    let data = read_data(dir, &meta, &mut warnings)?;
    let hints = ProgramHints {
        substitute_constants: version_2025,
        ..ProgramHints::default()
    };
    let input_validators = read_input_validators(dir, &hints, &mut warnings)?;
    let output = read_output_judging(dir, &meta, &hints, &mut warnings)?;
    let includes = read_includes(dir)?;
    let submissions = read_submissions(dir, meta.format, meta.scoring, &mut warnings)?;
    let id = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Package {
        format: meta.format,
        dir: dir.to_path_buf(),
        name: meta.name.clone().unwrap_or_else(|| id.clone()),
        id,
        interaction: meta.interaction,
        scoring: meta.scoring,
        limits: meta.limits,
        tests: data.tests,
        groups: data.groups,
        input_validators,
        output,
        submissions,
        generators: Vec::new(),
        constants: meta.constants,
        includes,
        self_tests: data.self_tests,
        warnings,
    })
}

fn sorted_entries(dir: &Path) -> FormatResult<Vec<(String, PathBuf)>> {
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| FormatError::io(dir, &e))?
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with(['.', '-']))
        .collect();
    entries.sort();
    Ok(entries)
}

/// `input_validators/`: programs, `.ctd` (checktestdata) and `.viva` files.
fn read_input_validators(
    dir: &Path,
    hints: &ProgramHints,
    warnings: &mut Vec<String>,
) -> FormatResult<Vec<InputValidator>> {
    let folder = dir.join("input_validators");
    if !folder.is_dir() {
        warnings.push(format!("{}: no input validators", folder.display()));
        return Ok(Vec::new());
    }
    let mut validators = Vec::new();
    for (name, path) in sorted_entries(&folder)? {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .filter(|_| path.is_file());
        validators.push(match extension {
            Some("ctd") => InputValidator::Checktestdata {
                path,
                name,
                substitute_constants: hints.substitute_constants,
            },
            Some("viva") => InputValidator::Viva {
                path,
                name,
                substitute_constants: hints.substitute_constants,
            },
            _ => InputValidator::Program {
                program: read_program(&path, &name, hints)?,
                protocol: ValidatorProtocol::Kattis,
            },
        });
    }
    if validators.is_empty() {
        warnings.push(format!("{}: no input validators", folder.display()));
    }
    Ok(validators)
}

/// Legacy `output_validators/<one program>` (used when `validation` is
/// custom) or 2025-09 `output_validator/` (the program itself).
fn read_output_judging(
    dir: &Path,
    meta: &metadata::Metadata,
    hints: &ProgramHints,
    warnings: &mut Vec<String>,
) -> FormatResult<OutputJudging> {
    let custom_needed = !matches!(meta.interaction, Interaction::Batch);
    let program: Option<Program> = match meta.format {
        PackageFormat::Kattis2025 => {
            let folder = dir.join("output_validator");
            folder
                .is_dir()
                .then(|| read_program(&folder, "output_validator", hints))
                .transpose()?
        }
        _ => {
            let folder = dir.join("output_validators");
            let entries = if folder.is_dir() {
                sorted_entries(&folder)?
            } else {
                Vec::new()
            };
            match (meta.legacy_custom_validation, entries.as_slice()) {
                (false, []) => None,
                (false, _) => {
                    warnings.push(format!(
                        "{}: unused, `validation` is default",
                        folder.display()
                    ));
                    None
                }
                (true, [(name, path)]) => Some(read_program(path, name, hints)?),
                (true, []) => {
                    return Err(FormatError::file(
                        &dir.join("problem.yaml"),
                        "`validation: custom` needs a program in output_validators/",
                    ));
                }
                (true, _) => {
                    return Err(FormatError::file(
                        &folder,
                        "more than one output validator is not supported",
                    ));
                }
            }
        }
    };
    match program {
        Some(program) => Ok(OutputJudging::KattisValidator(program)),
        None if custom_needed => Err(FormatError::file(
            dir,
            "interactive and multi-pass problems need an output validator",
        )),
        None => Ok(OutputJudging::KattisDefault),
    }
}

/// `include/<language>/` (and `include/default/`), every file in it.
fn read_includes(dir: &Path) -> FormatResult<Includes> {
    let folder = dir.join("include");
    let mut includes = Includes::default();
    if !folder.is_dir() {
        return Ok(includes);
    }
    for (language, path) in sorted_entries(&folder)? {
        if !path.is_dir() {
            return Err(FormatError::file(
                &path,
                "include/ holds one folder per language",
            ));
        }
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(&path)
            .min_depth(1)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| FormatError::file(&path, format!("cannot list: {e}")))?;
            if entry.file_type().is_file() {
                files.push(entry.into_path());
            }
        }
        if files.is_empty() {
            return Err(FormatError::file(
                &path,
                "an include folder must not be empty",
            ));
        }
        includes.by_language.insert(language, files);
    }
    Ok(includes)
}
