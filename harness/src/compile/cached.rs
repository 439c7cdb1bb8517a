//! Building a prepared set of files once per content: the build folder is
//! named by a hash of everything the build depends on, and keeps either the
//! program and an `ok` marker or the compiler's message.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::files::{BINARY, BuildFiles, ERROR_MARKER, OK_MARKER};
use super::{Builder, Built, COMPILE_LIMITS, Executable, io_error, truncate};
use crate::errors::BuildError;
use crate::lang::{self, Placeholders};
use crate::sandbox::{Containment, RunRequest, SANDBOX_PATH, Termination};

impl Builder {
    /// The program `build` makes, from the cache when it was built before.
    pub(super) fn build_files(&mut self, build: BuildFiles) -> Result<Built, BuildError> {
        let hash = content_hash(&build);
        let dir = self
            .cache
            .join(format!("{}-{}-{}", build.label, build.key, &hash[..16]));
        let language = &build.language;
        // `{binary}` is made by the build; anything else is an interpreter.
        let interpreter = match language.run[0].contains('{') {
            true => None,
            false => Some(self.tool(&language.run[0], &language.name)?),
        };
        let run = |dir: &Path| -> Result<Built, BuildError> {
            let argv = expand(&language.run, &build, dir);
            let (program, read_only) = match &interpreter {
                Some(tool) => (
                    tool.program.clone(),
                    tool.toolchain.iter().cloned().collect(),
                ),
                None => (PathBuf::from(&argv[0]), Vec::new()),
            };
            Ok(Built::Ready(Executable {
                program,
                args: argv[1..].iter().map(OsString::from).collect(),
                read_only,
            }))
        };
        if dir.join(OK_MARKER).is_file() {
            return run(&dir);
        }
        if let Ok(message) = std::fs::read_to_string(dir.join(ERROR_MARKER)) {
            return Ok(Built::CompileError(message));
        }

        std::fs::create_dir_all(&self.cache)
            .map_err(|e| io_error(format!("create {}", self.cache.display()), e))?;
        let scratch = tempfile::Builder::new()
            .prefix(".building-")
            .tempdir_in(&self.cache)
            .map_err(|e| io_error("create a build folder".into(), e))?;
        for (name, bytes) in &build.files {
            std::fs::write(scratch.path().join(name), bytes)
                .map_err(|e| io_error(format!("copy {name} into the build folder"), e))?;
        }

        let mut message = None;
        if !language.compile.is_empty() {
            let argv = expand(&language.compile, &build, scratch.path());
            let tool = self.tool(&argv[0], &language.name)?;
            let mut path = OsString::new();
            if let Some(toolchain) = &tool.toolchain {
                path.push(toolchain.join("bin"));
                path.push(":");
            }
            path.push(SANDBOX_PATH);
            let outcome = self.sandbox.run(&RunRequest {
                program: tool.program.clone(),
                args: argv[1..].iter().map(OsString::from).collect(),
                stdin: None,
                workdir: scratch.path().to_path_buf(),
                limits: COMPILE_LIMITS,
                env: vec![(OsString::from("PATH"), path)],
                stack: None,
                read_only: tool.toolchain.into_iter().collect(),
                containment: Containment::Compiler,
            })?;
            // Compilers quote the source, and the source is the submitter's.
            let mut text = crate::escape::visible_bytes(&outcome.stderr);
            text.push_str(&crate::escape::visible_bytes(&outcome.stdout));
            // Name the files as the user knows them, not by our build folder.
            let mut text = text.replace(&format!("{}/", scratch.path().display()), "");
            if let Some((built_as, user_name)) = &build.renamed {
                text = text.replace(built_as, user_name);
            }
            match outcome.termination {
                Termination::Exited(0) => {}
                Termination::Exited(code) => {
                    message = Some(format!("{} exited with code {code}\n{text}", argv[0]))
                }
                other => {
                    // Stopped at a compile limit: CE, but not cached, since a
                    // busy machine may be why.
                    let text = format!(
                        "{} stopped: {}\n{text}",
                        argv[0],
                        crate::verdict::describe_termination(other)
                    );
                    return Ok(Built::CompileError(truncate(text)));
                }
            }
        }
        let marker = match &message {
            None => (OK_MARKER, String::new()),
            Some(text) => (ERROR_MARKER, truncate(text.clone())),
        };
        std::fs::write(scratch.path().join(marker.0), &marker.1)
            .map_err(|e| io_error("write the build marker".into(), e))?;
        // Readable by the unprivileged user submissions run as.
        let _ = std::fs::set_permissions(
            scratch.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        );
        let scratch = scratch.keep();
        // Another judge may have built the same files meanwhile: either copy is fine.
        if std::fs::rename(&scratch, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&scratch);
        }
        match message {
            None => run(&dir),
            Some(text) => Ok(Built::CompileError(truncate(text))),
        }
    }
}

/// A command of the language table for `build` in the folder `dir`.
fn expand(template: &[String], build: &BuildFiles, dir: &Path) -> Vec<String> {
    let sources: Vec<PathBuf> = build.sources.iter().map(|name| dir.join(name)).collect();
    lang::expand(
        template,
        &Placeholders {
            source: &dir.join(&build.entry),
            sources: &sources,
            binary: &dir.join(BINARY),
            dir,
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
