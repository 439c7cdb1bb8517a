//! `generators.yaml` run: `judge generate` makes each case whose recipe
//! changed (`make_all`), and `judge verify` checks that what the package
//! holds is what `generators.yaml` makes, with every generator run twice
//! (a generator that makes two different inputs from one command is not
//! deterministic, and its tests cannot be made again).
//!
//! A generator runs in a folder of its own as a trusted program: its
//! stdout is the `.in`, unless it writes `testcase.in` itself; the other
//! files it writes there (`testcase.ans`, `testcase.yaml`, ...) are kept.
//! A `.ans` that no generator, copy or inline text gives is the
//! `solution`'s output on the `.in` (an empty file for interactive and
//! multi-pass problems without one).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::findings::Finding;
use super::generator_build::{build, generator_files};
use super::illustrate;
use crate::compile::{Executable, NotBuilt};
use crate::errors::{Error, Result};
use crate::generators::manifest::{Made, Manifest, hash_of};
use crate::generators::spec::{EXTENSIONS, copied};
use crate::generators::{CaseRule, Generators, Source};
use crate::plan::Means;
use crate::report::Styles;
use crate::sandbox::TOOL_LIMITS;
use crate::sandbox::{Collect, Containment, RunRequest, Termination};
use crate::spec::SpecError;

/// A case's files, by extension.
pub(crate) type Files = BTreeMap<String, Vec<u8>>;

/// Programs built once per command: by generator name or solution path.
pub(crate) struct Programs<'a> {
    dir: &'a Path,
    generators: &'a Generators,
    built: BTreeMap<String, BuiltProgram>,
}

impl Programs<'_> {
    /// The generator `name` (a name in `generators:`, or a file or folder
    /// of `generators/`), built, with a hash of its files.
    fn generator(&mut self, means: &mut Means<'_>, name: &str) -> BuiltProgram {
        let files = generator_files(self.dir, self.generators, name);
        self.built(means, format!("generator {name}"), name, &files)
    }

    /// What `generators.yaml` says.
    pub(crate) fn generators(&self) -> &Generators {
        self.generators
    }

    /// The package's `input_visualizer/`, built; `None` when it has none.
    pub(crate) fn visualizer(&mut self, means: &mut Means<'_>) -> Option<BuiltProgram> {
        let folder = self.dir.join("input_visualizer");
        folder.is_dir().then(|| {
            self.built(
                means,
                "input visualizer".into(),
                "input_visualizer",
                &[folder],
            )
        })
    }

    /// The solution at `path` (from the package folder, `/` first).
    fn solution(&mut self, means: &mut Means<'_>, path: &str) -> BuiltProgram {
        let file = self.dir.join(path.trim_start_matches('/'));
        self.built(means, format!("solution {path}"), path, &[file])
    }

    /// `build`, once per `key`.
    fn built(
        &mut self,
        means: &mut Means<'_>,
        key: String,
        name: &str,
        files: &[PathBuf],
    ) -> BuiltProgram {
        if let Some(done) = self.built.get(&key) {
            return done.clone();
        }
        let made = build(means, name, files, &self.generators.constants);
        self.built.insert(key, made.clone());
        made
    }
}

/// A built program and the hash of its files, or why it did not build.
pub(crate) type BuiltProgram = std::result::Result<(Executable, String), CaseError>;

/// Why a case of `generators.yaml` was not made. Cloned: a program that
/// did not build is reported for every case that needs it.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum CaseError {
    #[error("{program}: {message}")]
    Walk { program: String, message: String },
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: Arc<std::io::Error>,
    },
    #[error(transparent)]
    Program(#[from] crate::formats::FormatError),
    #[error("{program} did not build: {}", why.first_line())]
    NotBuilt { program: String, why: NotBuilt },
    #[error("{program} is not a program")]
    NotAProgram { program: String },
    #[error(transparent)]
    Run(#[from] ToolRunError),
    #[error("{case}: no .in (copy: found no file)")]
    NoInput { case: String },
    #[error("{case}: no .ans, and no `solution` to write one")]
    NoAnswer { case: String },
    #[error("{case}: solution {solution}: {source}")]
    Solution {
        case: String,
        solution: String,
        #[source]
        source: ToolRunError,
    },
}

/// Why a package program run by `run` gave no output.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum ToolRunError {
    /// A folder or file of the run could not be made.
    #[error("{0}")]
    Io(Arc<std::io::Error>),
    #[error("{0}")]
    Sandbox(Arc<crate::sandbox::SandboxError>),
    /// How it ended, and `: ` with its first line of stderr (or nothing).
    #[error("{ended}{stderr}")]
    Failed { ended: String, stderr: String },
    #[error("the files it wrote could not be taken: {0}")]
    Collect(crate::sandbox::CollectError),
}

fn io_failed(error: std::io::Error) -> ToolRunError {
    ToolRunError::Io(Arc::new(error))
}

/// Runs `exe` in a fresh folder (stdin from `stdin`): its stdout and the
/// `testcase.<ext>` files it left there, by extension.
pub(crate) fn run(
    means: &Means<'_>,
    exe: &Executable,
    stdin: Option<&Path>,
) -> std::result::Result<(Vec<u8>, Files), ToolRunError> {
    let work = tempfile::tempdir_in(means.scratch).map_err(io_failed)?;
    let out = tempfile::tempdir_in(means.scratch).map_err(io_failed)?;
    let outcome = means
        .builder
        .worker()
        .run(&RunRequest {
            stdin: stdin.map(Path::to_path_buf),
            // A folder the collection makes: it must not exist yet.
            collect: Some(Collect {
                whatever_the_exit: false,
                into: out.path().join("files"),
                max_bytes: TOOL_LIMITS.output,
                max_files: 64,
                working_bytes: TOOL_LIMITS.output,
            }),
            ..exe.request(work.path(), TOOL_LIMITS, Containment::Tool)
        })
        .map_err(|e| ToolRunError::Sandbox(Arc::new(e)))?;
    if outcome.termination != Termination::Exited(0) {
        return Err(ToolRunError::Failed {
            ended: crate::verdict::describe_termination(outcome.termination),
            stderr: String::from_utf8_lossy(&outcome.stderr)
                .lines()
                .next()
                .map(|l| format!(": {l}"))
                .unwrap_or_default(),
        });
    }
    if let Some(Err(e)) = &outcome.collected {
        return Err(ToolRunError::Collect(e.clone()));
    }
    let mut files = Files::new();
    for ext in EXTENSIONS {
        if let Ok(bytes) = std::fs::read(out.path().join(format!("files/testcase.{ext}"))) {
            files.insert(ext.to_string(), bytes);
        }
    }
    Ok((outcome.stdout, files))
}

/// What a case is made from, hashed: a changed hash makes it again.
fn recipe(
    rule: &CaseRule,
    generator: Option<&str>,
    solution: Option<&str>,
    copies: &Files,
) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(format!("{rule:?}").as_bytes());
    for part in [generator, solution].into_iter().flatten() {
        hasher.update(part.as_bytes());
    }
    for (ext, bytes) in copies {
        hasher.update(ext.as_bytes());
        hasher.update(bytes);
    }
    hasher.finalize().to_hex().to_string()
}

/// The files `copy:` takes from `generators/`.
fn copies(dir: &Path, rule: &CaseRule) -> Files {
    let Source::Copy(base) = &rule.source else {
        return Files::new();
    };
    EXTENSIONS
        .iter()
        .filter_map(|ext| Some((ext.to_string(), std::fs::read(copied(dir, base, ext)).ok()?)))
        .collect()
}

/// Makes one case: its files by extension, and its recipe.
fn make(
    means: &mut Means<'_>,
    programs: &mut Programs<'_>,
    rule: &CaseRule,
    answers_empty: bool,
    with_answer: bool,
) -> std::result::Result<(Files, String), CaseError> {
    let copied = copies(programs.dir, rule);
    let mut files = copied.clone();
    let mut generator_hash = None;
    if let Source::Generate { program, args, .. } = &rule.source {
        let (exe, hash) = programs.generator(means, program)?;
        let (stdout, written) = run(means, &exe.with_args(args), None)?;
        files.extend(written);
        files.entry("in".into()).or_insert(stdout);
        generator_hash = Some(hash);
    }
    for (ext, text) in &rule.inline {
        files.insert(ext.clone(), text.clone().into_bytes());
    }
    let shown_only = Source::Inline == rule.source && !files.contains_key("in");
    if shown_only {
        // A sample given by its statement files only: nothing runs on it.
        return Ok((files, recipe(rule, None, None, &copied)));
    }
    if !files.contains_key("in") {
        return Err(CaseError::NoInput {
            case: rule.name.clone(),
        });
    }
    let mut solution_hash = None;
    // An invalid input has no answer (the solution need not read it).
    let needs_answer = !rule.name.starts_with("invalid_input/");
    if with_answer && needs_answer && !files.contains_key("ans") {
        // An interactive or multi-pass problem's answer is no output of the
        // solution: BAPCtools leaves it empty unless the case gives one.
        match (&rule.solution, answers_empty) {
            (_, true) => {
                files.insert("ans".into(), Vec::new());
            }
            (Some(solution), false) => {
                let (exe, hash) = programs.solution(means, solution)?;
                let input = tempfile::NamedTempFile::new_in(means.scratch).map_err(io_failed)?;
                std::fs::write(input.path(), &files["in"]).map_err(io_failed)?;
                let (stdout, _) =
                    run(means, &exe, Some(input.path())).map_err(|source| CaseError::Solution {
                        case: rule.name.clone(),
                        solution: solution.clone(),
                        source,
                    })?;
                files.insert("ans".into(), stdout);
                solution_hash = Some(hash);
            }
            (None, false) => {
                return Err(CaseError::NoAnswer {
                    case: rule.name.clone(),
                });
            }
        }
    }
    let recipe = recipe(
        rule,
        generator_hash.as_deref(),
        solution_hash.as_deref(),
        &copied,
    );
    Ok((files, recipe))
}

/// Whether the package's problem is interactive or multi-pass (its `.ans`
/// may be empty), from `problem.yaml`'s `type` or `validation`.
fn answers_may_be_empty(dir: &Path) -> bool {
    let text = std::fs::read_to_string(dir.join("problem.yaml")).unwrap_or_default();
    text.lines().any(|line| {
        let line = line.trim_start();
        (line.starts_with("type:") || line.starts_with("validation:"))
            && (line.contains("interactive") || line.contains("multi-pass"))
    })
}

fn package_error(id: &str, message: impl std::fmt::Display) -> Error {
    SpecError::Package(format!("{id}: {message}")).into()
}

/// `judge generate ID` on a package with `generators/generators.yaml`:
/// makes every case whose recipe changed (or whose files did), writes the
/// `test_group.yaml` files it holds, and records what it made.
pub(crate) fn generate(
    means: &mut Means<'_>,
    out: &mut dyn Write,
    styles: &Styles,
    dir: &Path,
    id: &str,
) -> Result<bool> {
    let generators = match crate::generators::spec::read(dir) {
        Some(read) => read.map_err(|e| package_error(id, e))?,
        None => return Err(package_error(id, "no generators/generators.yaml")),
    };
    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    for warning in &generators.warnings {
        writeln!(out, "warning: {warning}").map_err(io)?;
    }
    let mut manifest = Manifest::load(dir);
    let empty_answers = answers_may_be_empty(dir);
    let mut programs = Programs {
        dir,
        generators: &generators,
        built: BTreeMap::new(),
    };
    let (mut made, mut kept, mut failed) = (0, 0, 0);
    for rule in &generators.cases {
        // The recipe is known only once the programs are built: build
        // them, then skip the run when nothing changed.
        let made_case = make_if_changed(means, &mut programs, rule, empty_answers, &manifest);
        match made_case {
            Ok(None) => kept += 1,
            Ok(Some((files, recipe))) => {
                let mut hashes = BTreeMap::new();
                for (ext, bytes) in &files {
                    let path = dir.join("data").join(format!("{}.{ext}", rule.name));
                    write(&path, bytes)?;
                    hashes.insert(ext.clone(), hash_of(bytes));
                }
                manifest.cases.insert(
                    rule.name.clone(),
                    Made {
                        recipe,
                        files: hashes,
                    },
                );
                made += 1;
                if let Some(warning) = illustrate::case(means, &mut programs, dir, rule, &files)? {
                    writeln!(out, "warning: {warning}").map_err(io)?;
                }
            }
            Err(why) => {
                failed += 1;
                writeln!(out, "{} {why}", styles.bad("failed:")).map_err(io)?;
            }
        }
    }
    for (folder, text) in &generators.group_files {
        write(
            &dir.join("data").join(folder).join("test_group.yaml"),
            text.as_bytes(),
        )?;
    }
    let names: Vec<&str> = generators.cases.iter().map(|c| c.name.as_str()).collect();
    manifest
        .cases
        .retain(|name, _| names.contains(&name.as_str()));
    manifest.save(dir).map_err(|source| Error::Report {
        what: crate::generators::manifest::path(dir).display().to_string(),
        source,
    })?;
    for stray in strays(dir, &generators) {
        writeln!(out, "warning: {stray}: not made by generators.yaml").map_err(io)?;
    }
    writeln!(
        out,
        "{id}: {made} cases made by generators.yaml, {kept} unchanged{}",
        if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        }
    )
    .map_err(io)?;
    Ok(failed == 0)
}

/// The case made, or `None` when its recipe and files are unchanged.
fn make_if_changed(
    means: &mut Means<'_>,
    programs: &mut Programs<'_>,
    rule: &CaseRule,
    empty_answers: bool,
    manifest: &Manifest,
) -> std::result::Result<Option<(Files, String)>, CaseError> {
    let generator = match &rule.source {
        Source::Generate { program, .. } => Some(programs.generator(means, program)?.1),
        _ => None,
    };
    let needs_solution =
        !rule.inline.contains_key("ans") && rule.solution.is_some() && !empty_answers;
    let solution = match (&rule.solution, needs_solution) {
        (Some(path), true) => Some(programs.solution(means, path)?.1),
        _ => None,
    };
    // A generator that writes its own `.ans` never needs the solution,
    // but its recipe names it all the same: the recipe is conservative.
    let expected = recipe(
        rule,
        generator.as_deref(),
        solution.as_deref(),
        &copies(programs.dir, rule),
    );
    if manifest.unchanged(programs.dir, &rule.name, &expected) {
        return Ok(None);
    }
    let (files, _) = make(means, programs, rule, empty_answers, true)?;
    Ok(Some((files, expected)))
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let failed = |source| Error::Report {
        what: path.display().to_string(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    std::fs::write(path, bytes).map_err(failed)
}

/// Inputs under `data/` that no case of `generators.yaml` makes.
fn strays(dir: &Path, generators: &Generators) -> Vec<String> {
    let data = dir.join("data");
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(&data)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "in") {
            let name = path.strip_prefix(&data).unwrap_or(path).with_extension("");
            let name = name.to_string_lossy().into_owned();
            if !generators.cases.iter().any(|c| c.name == name) {
                found.push(format!("data/{name}.in"));
            }
        }
    }
    found
}

/// `judge verify`: each case's files are what `generators.yaml` makes of
/// them (the `.in` and whatever the generator, a copy or inline text
/// gives; answers written by the solution are judged by the runs), and
/// every generator makes the same input twice.
pub(crate) fn check(means: &mut Means<'_>, dir: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    let generators = match crate::generators::spec::read(dir) {
        None => return findings,
        Some(Err(e)) => return vec![Finding::error("generators.yaml", e.to_string())],
        Some(Ok(generators)) => generators,
    };
    let mut programs = Programs {
        dir,
        generators: &generators,
        built: BTreeMap::new(),
    };
    let before = findings.len();
    for rule in &generators.cases {
        let first = make(means, &mut programs, rule, true, false);
        let (files, _) = match first {
            Ok(made) => made,
            Err(why) => {
                findings.push(Finding::error(&rule.name, why.to_string()));
                continue;
            }
        };
        if let Source::Generate { command, .. } = &rule.source {
            match make(means, &mut programs, rule, true, false) {
                Ok((again, _)) if again["in"] != files["in"] => findings.push(Finding::error(
                    &rule.name,
                    format!("`{command}` is not deterministic: two runs made different inputs"),
                )),
                Ok(_) => {}
                Err(why) => findings.push(Finding::error(&rule.name, why.to_string())),
            }
        }
        for (ext, bytes) in &files {
            let path = dir.join("data").join(format!("{}.{ext}", rule.name));
            match std::fs::read(&path) {
                Ok(committed) if committed == *bytes => {}
                Ok(_) => findings.push(Finding::error(
                    format!("data/{}.{ext}", rule.name),
                    format!(
                        "differs from what generators.yaml makes (line {}): run `judge generate`",
                        rule.line
                    ),
                )),
                Err(_) => findings.push(Finding::error(
                    format!("data/{}.{ext}", rule.name),
                    "not generated yet: run `judge generate`",
                )),
            }
        }
    }
    for stray in strays(dir, &generators) {
        findings.push(Finding::warning(stray, "not made by generators.yaml"));
    }
    for warning in &generators.warnings {
        findings.push(Finding::warning("", warning.clone()));
    }
    if findings[before..]
        .iter()
        .all(|f| f.severity != super::Severity::Error)
    {
        findings.push(Finding::passed(
            "",
            format!(
                "{} cases of generators.yaml made again, generators deterministic",
                generators.cases.len()
            ),
        ));
    }
    findings
}
