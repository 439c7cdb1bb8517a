//! Building a prepared set of files once per content: each build is an
//! entry of the build cache (`cache.rs`), named by a hash of everything it
//! depends on. A compile runs contained, in a working folder of its own
//! (a tmpfs where the machine allows), which the judge fills with the
//! sources before and copies the program out of after, within limits: the
//! compile never writes where the judge keeps anything.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::BuildError;
use super::cache::{BuildCache, Outcome, entry_name};
use super::files::{BINARY, BuildFiles};
use super::{Builder, Built, CompileError, Executable, io_error, main_class, truncate};
use crate::lang::{self, MAIN_CLASS, Placeholders};
use crate::sandbox::COMPILE_LIMITS;
use crate::sandbox::{
    Collect, CollectError, Containment, RunOutcome, RunRequest, SANDBOX_PATH, Termination,
};

/// The size of a compile's working folder while it runs (sources,
/// temporary files and the program together).
pub(super) const BUILD_WORKING_BYTES: u64 = 256 << 20;
/// The most a build may leave for the cache: the program and what it runs.
pub(super) const PROGRAM_MAX_BYTES: u64 = 64 << 20;
pub(super) const PROGRAM_MAX_FILES: u64 = 1000;

impl Builder {
    /// The program `build` makes, from the cache when it was built before.
    pub(super) fn build_files(&mut self, build: BuildFiles) -> Result<Built, BuildError> {
        let name = entry_name(&build.label, &build.key, &content_hash(&build));
        let language = &build.language;
        // `{binary}` is made by the build; anything else is an interpreter.
        let interpreter = match language.run[0].contains('{') {
            true => None,
            false => Some(self.tool(&language.run[0], &language.name)?),
        };
        let ready = |dir: &Path| -> Built {
            // A JVM program starts from the class with a main method,
            // whatever its file is called.
            let found = match language.run.iter().any(|part| part.contains(MAIN_CLASS)) {
                true => match main_class::find(dir, &stem(&build.entry)) {
                    Some(found) => Some(found),
                    None => return Built::CompileError(CompileError::Compiler {
                        output: "no class has a method public static void main(String[]): nothing to run".into(),
                    }),
                },
                false => None,
            };
            let (main_class, note) = found.unzip();
            let argv = expand(&language.run, &build, dir, main_class.as_deref());
            let (program, read_only) = match &interpreter {
                Some(tool) => (
                    tool.program.clone(),
                    tool.toolchain.iter().cloned().collect(),
                ),
                None => (PathBuf::from(&argv[0]), Vec::new()),
            };
            Built::Ready(Executable {
                program,
                args: argv[1..].iter().map(OsString::from).collect(),
                read_only,
                note: note.flatten(),
            })
        };
        let outcome_of = |outcome: Outcome, program: &Path| match outcome {
            Outcome::Built { .. } => ready(program),
            Outcome::Rejected { message } | Outcome::Stopped { message } => {
                Built::CompileError(CompileError::Compiler { output: message })
            }
        };
        if let Some((outcome, program)) = self.cache.lookup(&name) {
            return Ok(outcome_of(outcome, &program));
        }

        let cache_dir = self.cache.dir.clone();
        let cache_error = |e| io_error(format!("write the build cache {}", cache_dir.display()), e);
        let pending = self.cache.begin().map_err(cache_error)?;
        let program = BuildCache::program_of(&pending);
        let (outcome, scratch) = if language.compile.is_empty() {
            // Nothing runs: the judge writes the files itself.
            (write_program(&program, &build).map_err(cache_error)?, None)
        } else {
            let work = BuildCache::scratch_in(&pending, "work").map_err(cache_error)?;
            (self.compile(&build, &work, &program)?, Some(work))
        };
        let program = self
            .cache
            .commit(pending, &name, &outcome, scratch.as_deref())
            .map_err(cache_error)?;
        Ok(outcome_of(outcome, &program))
    }

    /// Runs the language's compile command contained, in `work`, and copies
    /// the program into `program`.
    fn compile(
        &mut self,
        build: &BuildFiles,
        work: &Path,
        program: &Path,
    ) -> Result<Outcome, BuildError> {
        let argv = expand(&build.language.compile, build, work, None);
        let tool = self.tool(&argv[0], &build.language.name)?;
        let mut path = OsString::new();
        if let Some(toolchain) = &tool.toolchain {
            path.push(toolchain.join("bin"));
            path.push(":");
        }
        path.push(SANDBOX_PATH);
        let outcome = self.worker.run(&RunRequest {
            program: tool.program.clone(),
            args: argv[1..].iter().map(OsString::from).collect(),
            stdin: None,
            workdir: work.to_path_buf(),
            limits: COMPILE_LIMITS,
            env: vec![(OsString::from("PATH"), path)],
            stack: None,
            read_only: tool.toolchain.into_iter().collect(),
            containment: Containment::Compiler,
            conversation: Default::default(),
            seed: build
                .files
                .iter()
                .map(|(name, bytes)| (PathBuf::from(name), bytes.clone()))
                .collect(),
            collect: Some(Collect {
                whatever_the_exit: false,
                into: program.to_path_buf(),
                max_bytes: PROGRAM_MAX_BYTES,
                max_files: PROGRAM_MAX_FILES,
                working_bytes: BUILD_WORKING_BYTES,
            }),
        })?;
        outcome_of_compile(&argv[0], build, work, outcome)
    }
}

/// How a compile that ran ended, for the cache: its program's size, the
/// compiler's rejection, or the limit that stopped it; `Err` is the
/// judge's failure to copy the program out.
fn outcome_of_compile(
    compiler: &str,
    build: &BuildFiles,
    work: &Path,
    outcome: RunOutcome,
) -> Result<Outcome, BuildError> {
    // Compilers quote the source, and the source is the submitter's.
    let mut text = crate::escape::visible_bytes(&outcome.stderr);
    text.push_str(&crate::escape::visible_bytes(&outcome.stdout));
    // Name the files as the user knows them, not by our build folder.
    let mut text = text.replace(&format!("{}/", work.display()), "");
    if let Some((built_as, user_name)) = &build.renamed {
        text = text.replace(built_as, user_name);
    }
    if text.contains("No space left on device") {
        text.push_str(&format!(
            "\n(a build's working folder holds at most {})",
            bytesize::ByteSize(BUILD_WORKING_BYTES)
        ));
    }
    Ok(match (outcome.termination, outcome.collected) {
        (Termination::Exited(0), Some(Ok(collected))) => Outcome::Built {
            bytes: collected.bytes,
        },
        (
            Termination::Exited(0),
            Some(Err(error @ (CollectError::TooLarge { .. } | CollectError::TooMany { .. }))),
        ) => Outcome::Rejected {
            message: format!(
                "{error} (a program may leave at most {} in {PROGRAM_MAX_FILES} files)",
                bytesize::ByteSize(PROGRAM_MAX_BYTES)
            ),
        },
        (Termination::Exited(0), Some(Err(CollectError::Io(source)))) => {
            return Err(io_error(
                "copy the program out of its build folder".into(),
                std::io::Error::new(source.kind(), source.to_string()),
            ));
        }
        (Termination::Exited(0), None) => {
            return Err(io_error(
                "copy the program out of its build folder".into(),
                std::io::Error::other("nothing was copied"),
            ));
        }
        (Termination::Exited(code), _) => Outcome::Rejected {
            message: truncate(format!("{compiler} exited with code {code}\n{text}")),
        },
        (stopped, _) => Outcome::Stopped {
            message: truncate(format!(
                "{compiler} stopped: {}\n{text}",
                crate::verdict::describe_termination(stopped)
            )),
        },
    })
}

/// An interpreted program's folder: its files, written by the judge.
fn write_program(program: &Path, build: &BuildFiles) -> std::io::Result<Outcome> {
    std::fs::create_dir(program)?;
    let mut bytes = 0;
    for (name, content) in &build.files {
        std::fs::write(program.join(name), content)?;
        bytes += content.len() as u64;
    }
    Ok(Outcome::Built { bytes })
}

/// A file name without its extension.
fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A command of the language table for `build` in the folder `dir`, with
/// the JVM class to start when one was found.
fn expand(
    template: &[String],
    build: &BuildFiles,
    dir: &Path,
    main_class: Option<&str>,
) -> Vec<String> {
    let sources: Vec<PathBuf> = build.sources.iter().map(|name| dir.join(name)).collect();
    lang::expand(
        template,
        &Placeholders {
            source: &dir.join(&build.entry),
            sources: &sources,
            binary: &dir.join(BINARY),
            dir,
            main_class,
        },
    )
}

/// Everything the build depends on: the language's entry in the table, and
/// every file by name and content, with which are compiled and run. Each
/// part is delimited, so that no two different builds hash alike.
fn content_hash(build: &BuildFiles) -> String {
    let mut hasher = blake3::Hasher::new();
    let mut part = |bytes: &[u8]| {
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(build.key.as_bytes());
    for command in [&build.language.compile, &build.language.run] {
        part(&(command.len() as u64).to_le_bytes());
        for arg in command {
            part(arg.as_bytes());
        }
    }
    part(&(build.files.len() as u64).to_le_bytes());
    for (name, bytes) in &build.files {
        part(name.as_bytes());
        part(bytes);
    }
    part(&(build.sources.len() as u64).to_le_bytes());
    for name in &build.sources {
        part(name.as_bytes());
    }
    part(build.entry.as_bytes());
    hasher.finalize().to_hex().to_string()
}
