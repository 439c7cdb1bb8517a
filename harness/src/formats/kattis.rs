//! Reads a Kattis/ICPC problem package (`problem.yaml`) of any version
//! (legacy, 2023-07-draft, 2025-09; what each calls things is in
//! `version`) into a `Package`: metadata and limits (`metadata`,
//! `modern`), test data and groups (`data`, `settings`), validators,
//! `include/`, and submissions with their expectations (`submissions`).

mod constants;
mod data;
mod expected_results;
mod metadata;
mod modern;
mod sample_outputs;
mod samples;
mod settings;
mod submissions;
mod version;

use std::path::{Path, PathBuf};

use self::data::read_data;
use self::metadata::read_metadata;
pub(crate) use self::samples::{Shown, shown_samples};
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
    if meta.format.has_modern_metadata() && dir.join("problem_statement").is_dir() {
        // Statements are not judged; the old folder name only gets a word.
        warnings.push(version::renamed(
            &dir.join("problem_statement"),
            "statement/",
            meta.format,
        ));
    }
    let mut data = read_data(dir, &meta, &mut warnings)?;
    data.self_tests.samples =
        sample_outputs::sample_outputs(meta.format, meta.interaction, &data.tests);
    let conversation = !matches!(
        meta.interaction,
        Interaction::Batch | Interaction::SubmitAnswer
    );
    // The display and download rules are 2025-09's: an older package's
    // `.interaction` beside its `.in` (problemtools' `guess`) breaks none.
    if meta.format == PackageFormat::Kattis2025 {
        warnings.extend(shown_samples(dir, conversation).1);
    }
    let hints = ProgramHints {
        substitute_constants: meta.format.substitutes_constants(),
        ..ProgramHints::default()
    };
    let input_validators = read_input_validators(dir, meta.format, &hints, &mut warnings)?;
    let answer_validators = read_answer_validators(dir, &hints)?;
    let output = read_output_judging(dir, &meta, &hints, &mut warnings)?;
    let includes = read_includes(dir)?;
    let static_validator = read_static_validator(dir, &meta, &hints, &data.static_cases)?;
    let output_visualizer = read_output_visualizer(dir, &meta, &hints)?;
    let submissions = read_submissions(
        dir,
        meta.format,
        meta.scoring,
        meta.interaction == Interaction::SubmitAnswer,
        &mut warnings,
    )?;
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
        rules: meta.rules,
        tests: data.tests,
        groups: data.groups,
        legacy_root: data.legacy_root,
        input_validators,
        answer_validators,
        output,
        submissions,
        generators: Vec::new(),
        constants: meta.constants,
        includes,
        static_validator,
        grader: None,
        static_cases: data.static_cases,
        output_visualizer,
        self_tests: data.self_tests,
        warnings,
    })
}

/// The `constants` of the package in `dir` that substitutes them (2023-07-draft
/// and 2025-09), for files read outside the package reader
/// (`generators.yaml`); none for legacy packages and folders without a
/// `problem.yaml`.
pub(crate) fn package_constants(dir: &Path) -> FormatResult<super::package::Constants> {
    if !dir.join("problem.yaml").is_file() {
        return Ok(Default::default());
    }
    let meta = read_metadata(dir)?;
    match meta.format.substitutes_constants() {
        true => Ok(meta.constants),
        false => Ok(Default::default()),
    }
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

/// 2023-07-draft and 2025-09 `output_visualizer/`: a program, as an output
/// validator is.
fn read_output_visualizer(
    dir: &Path,
    meta: &metadata::Metadata,
    hints: &ProgramHints,
) -> FormatResult<Option<Program>> {
    let folder = dir.join("output_visualizer");
    match meta.format.has_modern_metadata() && folder.exists() {
        true => Ok(Some(read_program(&folder, "output_visualizer", hints)?)),
        false => Ok(None),
    }
}

/// 2025-09 `static_validator/`, a program as an output validator is:
/// needed by static validation test cases, and an error in a submit-answer
/// problem or in a package that has none.
fn read_static_validator(
    dir: &Path,
    meta: &metadata::Metadata,
    hints: &ProgramHints,
    cases: &[super::package::StaticCase],
) -> FormatResult<Option<Program>> {
    let folder = dir.join("static_validator");
    if !meta.format.has_modern_metadata() || !folder.exists() {
        return match cases.first() {
            Some(case) => Err(FormatError::file(
                &dir.join("data").join(&case.group),
                "a static validation test case needs a static_validator/",
            )),
            None => Ok(None),
        };
    }
    if meta.interaction == Interaction::SubmitAnswer {
        return Err(FormatError::file(
            &folder,
            "a submit-answer problem has no static validator",
        ));
    }
    Ok(Some(read_program(&folder, "static_validator", hints)?))
}

/// `input_validators/`: programs, `.ctd` (checktestdata) and `.viva` files.
fn read_input_validators(
    dir: &Path,
    format: PackageFormat,
    hints: &ProgramHints,
    warnings: &mut Vec<String>,
) -> FormatResult<Vec<InputValidator>> {
    let Some(folder) = version::find_folder(dir, format, "input_validators", warnings) else {
        warnings.push(format!(
            "{}: no input validators",
            dir.join("input_validators").display()
        ));
        return Ok(Vec::new());
    };
    let validators = read_validators(&folder, hints)?;
    if validators.is_empty() {
        warnings.push(format!("{}: no input validators", folder.display()));
    }
    Ok(validators)
}

/// `answer_validators/` (BAPCtools' folder, beside the specification's):
/// validators of every test's `.ans`, of the kinds input validators are.
fn read_answer_validators(dir: &Path, hints: &ProgramHints) -> FormatResult<Vec<InputValidator>> {
    let folder = dir.join("answer_validators");
    match folder.is_dir() {
        true => read_validators(&folder, hints),
        false => Ok(Vec::new()),
    }
}

/// The validators in `folder`: programs, `.ctd` and `.viva` scripts.
fn read_validators(folder: &Path, hints: &ProgramHints) -> FormatResult<Vec<InputValidator>> {
    let mut validators = Vec::new();
    for (name, path) in sorted_entries(folder)? {
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
    Ok(validators)
}

/// The output validator: legacy `output_validators/<one program>`, used
/// when `validation` is custom; the draft's and 2025-09's
/// `output_validator/`, used when present (see `modern_validator`).
fn read_output_judging(
    dir: &Path,
    meta: &metadata::Metadata,
    hints: &ProgramHints,
    warnings: &mut Vec<String>,
) -> FormatResult<OutputJudging> {
    let custom_needed = !matches!(
        meta.interaction,
        Interaction::Batch | Interaction::SubmitAnswer
    );
    let modern = meta.format.output_validator_folder();
    let folder = version::find_folder(dir, meta.format, modern, warnings);
    // Legacy packages use a validator only when `validation` says custom.
    let used = meta.format.has_modern_metadata() || meta.legacy_custom_validation;
    let program = match folder {
        None if used && meta.format == PackageFormat::KattisLegacy => {
            return Err(FormatError::file(
                &dir.join("problem.yaml"),
                "`validation: custom` needs a program in output_validators/",
            ));
        }
        None => None,
        // The folder's name says its layout, whichever version uses it.
        Some(folder) if folder.ends_with("output_validators") => {
            legacy_validator(dir, &folder, used, hints, warnings)?
        }
        Some(folder) if used => Some(modern_validator(&folder, meta.format, hints, warnings)?),
        Some(folder) => {
            warnings.push(format!(
                "{}: unused, `validation` is default",
                folder.display()
            ));
            None
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

/// A folder of output validator programs (legacy `output_validators/`),
/// of which there may be one; `used`: `validation` asks for it.
fn legacy_validator(
    dir: &Path,
    folder: &Path,
    used: bool,
    hints: &ProgramHints,
    warnings: &mut Vec<String>,
) -> FormatResult<Option<Program>> {
    match (used, sorted_entries(folder)?.as_slice()) {
        (false, []) => Ok(None),
        (false, _) => {
            warnings.push(format!(
                "{}: unused, `validation` is default",
                folder.display()
            ));
            Ok(None)
        }
        (true, [(name, path)]) => Ok(Some(read_program(path, name, hints)?)),
        (true, []) => Err(FormatError::file(
            &dir.join("problem.yaml"),
            "`validation: custom` needs a program in output_validators/",
        )),
        (true, _) => Err(FormatError::file(
            folder,
            "more than one output validator is not supported",
        )),
    }
}

/// `output_validator/`: in 2025-09 the folder is the program. problemtools
/// reads the draft's like the legacy folder, holding one program, so a
/// folder whose only entry is a folder (`output_validator/guess/`) is that
/// program (in 2025-09 with a warning).
fn modern_validator(
    folder: &Path,
    format: PackageFormat,
    hints: &ProgramHints,
    warnings: &mut Vec<String>,
) -> FormatResult<Program> {
    if let [(name, inner)] = sorted_entries(folder)?.as_slice() {
        if inner.is_dir() {
            if format == PackageFormat::Kattis2025 {
                warnings.push(format!(
                    "{}: read as the output validator (in 2025-09 output_validator/ is the program itself)",
                    inner.display()
                ));
            }
            return read_program(inner, name, hints);
        }
    }
    read_program(folder, "output_validator", hints)
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
