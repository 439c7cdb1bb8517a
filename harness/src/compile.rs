//! Turning `ProgramRef`s into runnable programs: workspace binaries through
//! one `cargo build` (paths read from cargo's JSON messages, never guessed),
//! single files through the language table, cached by content hash.

use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;

use crate::errors::BuildError;
use crate::lang::{self, Languages};
use crate::sandbox::{RunRequest, Sandbox, Termination};
use crate::spec::{Limits, ProgramRef};

/// Limits for one compilation: generous, but a template explosion or
/// `#include "/dev/random"` ends as CE instead of a hung judge.
pub const COMPILE_LIMITS: Limits = Limits {
    time: Duration::from_secs(30),
    wall: Duration::from_secs(60),
    memory: 2 << 30,
    output: 256 << 20,
};

/// How much compiler output a CE keeps.
const MESSAGE_KEEP: usize = 8 << 10;

/// A runnable program: the command line that starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executable {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Folders it must read besides its own (an interpreter's toolchain).
    pub read_only: Vec<PathBuf>,
}

impl Executable {
    pub fn with_args(&self, extra: impl IntoIterator<Item = impl Into<OsString>>) -> Executable {
        let mut exe = self.clone();
        exe.args.extend(extra.into_iter().map(Into::into));
        exe
    }
}

/// The result of building one submission or helper program.
#[derive(Debug, Clone)]
pub enum Built {
    Ready(Executable),
    /// The compiler rejected it: the submission's fault (CE).
    CompileError(String),
    /// We could not build it (missing compiler, I/O): not the submission's fault (JE).
    JudgeError(String),
}

#[derive(Debug, Deserialize)]
struct Metadata {
    packages: Vec<MetaPackage>,
}

#[derive(Debug, Deserialize)]
struct MetaPackage {
    name: String,
    id: String,
    targets: Vec<MetaTarget>,
}

#[derive(Debug, Deserialize)]
struct MetaTarget {
    name: String,
    kind: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct CargoMessage {
    reason: String,
    package_id: Option<String>,
    target: Option<MetaTarget>,
    executable: Option<PathBuf>,
    message: Option<CompilerMessage>,
}

#[derive(Debug, Deserialize)]
struct CompilerMessage {
    level: String,
    rendered: Option<String>,
}

/// Builds programs for a problem root (the folder holding `problems/` and,
/// for workspace binaries, `Cargo.toml`).
pub struct Builder {
    root: PathBuf,
    languages: Languages,
    sandbox: Sandbox,
    cache: PathBuf,
    /// bin name → package name, from `cargo metadata`.
    bin_packages: HashMap<String, String>,
    /// package name → cargo package id, to find a package's compiler messages.
    package_ids: HashMap<String, String>,
    /// bin name → built binary or the errors that stopped it.
    cargo_bins: HashMap<String, Built>,
    /// Compilers and interpreters by name, resolved once (`None`: missing).
    tools: HashMap<String, Option<Tool>>,
}

impl Builder {
    pub fn new(root: &Path, languages: Languages, sandbox: Sandbox) -> Builder {
        Builder {
            root: root.to_path_buf(),
            languages,
            sandbox,
            cache: root.join("target").join("judge-cache"),
            bin_packages: HashMap::new(),
            package_ids: HashMap::new(),
            cargo_bins: HashMap::new(),
            tools: HashMap::new(),
        }
    }

    pub fn languages(&self) -> &Languages {
        &self.languages
    }

    fn cargo() -> Command {
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
    }

    /// Builds every workspace binary among `programs` with one cargo call, in
    /// the `judge` profile. Binaries that fail to compile become `CompileError`
    /// with the compiler's messages; the others still build (`--keep-going`).
    pub fn build_workspace<'a>(
        &mut self,
        programs: impl IntoIterator<Item = &'a ProgramRef>,
    ) -> Result<(), BuildError> {
        let wanted: BTreeSet<&str> = programs
            .into_iter()
            .filter_map(|p| match p {
                ProgramRef::Bin(name) => Some(name.as_str()),
                ProgramRef::File(_) => None,
            })
            .filter(|name| !self.cargo_bins.contains_key(*name))
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let manifest = self.root.join("Cargo.toml");
        if self.bin_packages.is_empty() && manifest.is_file() {
            self.load_metadata(&manifest)?;
        }
        let mut packages = BTreeSet::new();
        for name in &wanted {
            match self.bin_packages.get(*name) {
                Some(package) => {
                    packages.insert(package.clone());
                }
                None => {
                    self.cargo_bins.insert(
                        (*name).to_string(),
                        Built::JudgeError(format!(
                            "no binary `{name}` in the workspace at {}",
                            manifest.display()
                        )),
                    );
                }
            }
        }
        if packages.is_empty() {
            return Ok(());
        }

        let mut command = Self::cargo();
        command
            .args(["build", "--profile", "judge", "--keep-going", "--bins"])
            .args(["--message-format", "json-render-diagnostics"])
            .arg("--manifest-path")
            .arg(&manifest);
        for package in &packages {
            command.args(["-p", package]);
        }
        let output = command.output().map_err(|source| BuildError::Spawn {
            command: "cargo build".into(),
            source,
        })?;

        let mut errors: HashMap<String, String> = HashMap::new();
        let mut built: HashMap<String, PathBuf> = HashMap::new();
        for line in output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
        {
            let Ok(message) = serde_json::from_slice::<CargoMessage>(line) else {
                continue;
            };
            match message.reason.as_str() {
                "compiler-artifact" => {
                    if let (Some(target), Some(exe)) = (message.target, message.executable) {
                        if target.kind.iter().any(|k| k == "bin") {
                            built.insert(target.name, exe);
                        }
                    }
                }
                "compiler-message" => {
                    if let (Some(package), Some(msg)) = (message.package_id, message.message) {
                        if msg.level == "error" {
                            let entry = errors.entry(package).or_default();
                            entry.push_str(msg.rendered.as_deref().unwrap_or("error"));
                        }
                    }
                }
                _ => {}
            }
        }
        if !output.status.success() && built.is_empty() && errors.is_empty() {
            return Err(BuildError::Cargo {
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            });
        }
        let package_ids: HashMap<&str, &str> = self
            .package_ids
            .iter()
            .map(|(n, id)| (n.as_str(), id.as_str()))
            .collect();
        for name in wanted {
            if self.cargo_bins.contains_key(name) {
                continue;
            }
            let result = match built.get(name) {
                Some(path) => Built::Ready(Executable {
                    program: path.clone(),
                    args: Vec::new(),
                    read_only: Vec::new(),
                }),
                None => {
                    let package = &self.bin_packages[name];
                    let message = package_ids
                        .get(package.as_str())
                        .and_then(|id| errors.get(*id))
                        .cloned()
                        .unwrap_or_else(|| String::from_utf8_lossy(&output.stderr).into_owned());
                    Built::CompileError(truncate(message))
                }
            };
            self.cargo_bins.insert(name.to_string(), result);
        }
        Ok(())
    }

    fn load_metadata(&mut self, manifest: &Path) -> Result<(), BuildError> {
        let output = Self::cargo()
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--manifest-path",
            ])
            .arg(manifest)
            .output()
            .map_err(|source| BuildError::Spawn {
                command: "cargo metadata".into(),
                source,
            })?;
        if !output.status.success() {
            return Err(BuildError::Cargo {
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            });
        }
        let metadata: Metadata =
            serde_json::from_slice(&output.stdout).map_err(|e| BuildError::Cargo {
                stderr: format!("unreadable cargo metadata: {e}"),
            })?;
        for package in metadata.packages {
            for target in &package.targets {
                if target.kind.iter().any(|k| k == "bin") {
                    self.bin_packages
                        .insert(target.name.clone(), package.name.clone());
                }
            }
            self.package_ids.insert(package.name, package.id);
        }
        Ok(())
    }

    /// The built program. Workspace binaries must have gone through
    /// `build_workspace` first; files are compiled here (or found in the cache).
    pub fn build(&mut self, program: &ProgramRef) -> Built {
        match program {
            ProgramRef::Bin(name) => {
                if !self.cargo_bins.contains_key(name) {
                    if let Err(error) = self.build_workspace([program]) {
                        return Built::JudgeError(error.to_string());
                    }
                }
                self.cargo_bins.get(name).cloned().unwrap_or_else(|| {
                    Built::JudgeError(format!("no binary `{name}` in the workspace"))
                })
            }
            ProgramRef::File(path) => self
                .compile_file(path)
                .unwrap_or_else(|e| Built::JudgeError(e.to_string())),
        }
    }

    /// The compiler or interpreter a `file` program needs that this machine
    /// lacks, if any: `judge verify` skips such a solution and says so,
    /// instead of charging the package for the machine.
    pub fn unavailable_tool(&mut self, program: &ProgramRef) -> Option<String> {
        let ProgramRef::File(path) = program else {
            return None;
        };
        let language = self.languages.for_file(path)?.1.clone();
        let interpreter = (!language.run[0].contains('{')).then(|| language.run[0].clone());
        language
            .compile
            .first()
            .cloned()
            .into_iter()
            .chain(interpreter)
            .find(|name| self.tool(name, &language.name).is_err())
    }

    /// The compiler or interpreter `name` as a contained run can start it
    /// (resolved once per judge).
    fn tool(&mut self, name: &str, language: &str) -> Result<Tool, BuildError> {
        if let Some(tool) = self.tools.get(name) {
            return tool.clone().ok_or_else(|| BuildError::ToolMissing {
                tool: name.to_string(),
                language: language.to_string(),
            });
        }
        let tool = Tool::resolve(name);
        self.tools.insert(name.to_string(), tool.clone());
        tool.ok_or_else(|| BuildError::ToolMissing {
            tool: name.to_string(),
            language: language.to_string(),
        })
    }

    fn compile_file(&mut self, source: &Path) -> Result<Built, BuildError> {
        let Some((key, language)) = self.languages.for_file(source) else {
            return Err(BuildError::UnknownLanguage {
                path: source.to_path_buf(),
                known: self.languages.known_extensions(),
            });
        };
        let (key, language) = (key.to_string(), language.clone());
        let bytes =
            std::fs::read(source).map_err(|e| io_error(format!("read {}", source.display()), e))?;
        let mut hasher = blake3::Hasher::new();
        for part in [key.as_str()]
            .into_iter()
            .chain(language.compile.iter().map(String::as_str))
            .chain(language.run.iter().map(String::as_str))
        {
            hasher.update(part.as_bytes());
            hasher.update(&[0]);
        }
        hasher.update(&bytes);
        let headers = local_headers(source, &bytes);
        for (name, header) in &headers {
            hasher.update(name.as_bytes());
            hasher.update(&[0]);
            hasher.update(header);
        }
        let hash = hasher.finalize().to_hex();
        let stem = source
            .file_stem()
            .map_or_else(|| "source".into(), |s| s.to_string_lossy().into_owned());
        let dir = self.cache.join(format!("{stem}-{key}-{}", &hash[..16]));
        // The source is built under a fixed name: a file named like a module
        // of the compiler's own (`py_compile.py`) must not be picked up by it.
        let fixed_name = match (
            language.keep_file_name,
            source.file_name(),
            source.extension(),
        ) {
            (true, Some(name), _) => name.to_string_lossy().into_owned(),
            (_, _, Some(ext)) => format!("{SOURCE_STEM}.{}", ext.to_string_lossy()),
            _ => SOURCE_STEM.to_string(),
        };
        let user_name = source
            .file_name()
            .map_or_else(|| fixed_name.clone(), |n| n.to_string_lossy().into_owned());
        // `{binary}` is made by the build; anything else is an interpreter.
        let interpreter = match language.run[0].contains('{') {
            true => None,
            false => Some(self.tool(&language.run[0], &language.name)?),
        };
        let run = |dir: &Path| -> Result<Built, BuildError> {
            let argv = lang::expand(
                &language.run,
                &dir.join(&fixed_name),
                &dir.join("main"),
                dir,
            );
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
        if dir.join("ok").is_file() {
            return run(&dir);
        }
        if let Ok(message) = std::fs::read_to_string(dir.join("compile-error.txt")) {
            return Ok(Built::CompileError(message));
        }

        std::fs::create_dir_all(&self.cache)
            .map_err(|e| io_error(format!("create {}", self.cache.display()), e))?;
        let scratch = tempfile::Builder::new()
            .prefix(".building-")
            .tempdir_in(&self.cache)
            .map_err(|e| io_error("create a build folder".into(), e))?;
        std::fs::write(scratch.path().join(&fixed_name), &bytes)
            .map_err(|e| io_error("copy the source".into(), e))?;
        for (name, header) in &headers {
            std::fs::write(scratch.path().join(name), header)
                .map_err(|e| io_error(format!("copy the header {name}"), e))?;
        }

        let mut message = None;
        if !language.compile.is_empty() {
            let argv = lang::expand(
                &language.compile,
                &scratch.path().join(&fixed_name),
                &scratch.path().join("main"),
                scratch.path(),
            );
            let tool = self.tool(&argv[0], &language.name)?;
            let mut path = std::ffi::OsString::new();
            if let Some(toolchain) = &tool.toolchain {
                path.push(toolchain.join("bin"));
                path.push(":");
            }
            path.push(crate::sandbox::SANDBOX_PATH);
            let outcome = self.sandbox.run(&RunRequest {
                program: tool.program.clone(),
                args: argv[1..].iter().map(OsString::from).collect(),
                stdin: None,
                workdir: scratch.path().to_path_buf(),
                limits: COMPILE_LIMITS,
                env: vec![(OsString::from("PATH"), path)],
                stack: None,
                read_only: tool.toolchain.into_iter().collect(),
                containment: crate::sandbox::Containment::Compiler,
            })?;
            // Compilers quote the source, and the source is the submitter's.
            let mut text = crate::escape::visible_bytes(&outcome.stderr);
            text.push_str(&crate::escape::visible_bytes(&outcome.stdout));
            // Name the file as the user knows it, not by our build folder.
            let text = text
                .replace(&format!("{}/", scratch.path().display()), "")
                .replace(&fixed_name, &user_name);
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
            None => ("ok", String::new()),
            Some(text) => ("compile-error.txt", truncate(text.clone())),
        };
        std::fs::write(scratch.path().join(marker.0), &marker.1)
            .map_err(|e| io_error("write the build marker".into(), e))?;
        // Readable by the unprivileged user submissions run as.
        let _ = std::fs::set_permissions(
            scratch.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        );
        let scratch = scratch.keep();
        // Another judge may have built the same source meanwhile: either copy is fine.
        if std::fs::rename(&scratch, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&scratch);
        }
        match message {
            None => run(&dir),
            Some(text) => Ok(Built::CompileError(truncate(text))),
        }
    }
}

/// The stem every single-file source is built under (see `compile_file`).
const SOURCE_STEM: &str = "solution";

/// A compiler or interpreter as a contained run starts it: the real binary,
/// not a launcher that needs the judge's home (a rustup proxy, a pyenv
/// shim), and the toolchain folder it reads when that lies outside the
/// system folders every run sees.
#[derive(Debug, Clone)]
struct Tool {
    program: PathBuf,
    toolchain: Option<PathBuf>,
}

impl Tool {
    fn resolve(name: &str) -> Option<Tool> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        // What a run's own PATH finds first: a system tool needs nothing more.
        if let Ok(program) = which::which_in(name, Some(crate::sandbox::SANDBOX_PATH), &cwd) {
            return Some(Tool {
                program,
                toolchain: None,
            });
        }
        let found = which::which(name).ok()?;
        let real = std::fs::canonicalize(&found).ok()?;
        let real = if real.file_name().is_some_and(|n| n == "rustup") {
            // A rustup proxy: ask it which toolchain binary it would start.
            let output = Command::new(&real).args(["which", name]).output().ok()?;
            let path = String::from_utf8(output.stdout).ok()?;
            std::fs::canonicalize(path.trim()).ok()?
        } else {
            real
        };
        // `<prefix>/bin/<tool>`: the toolchain is the prefix.
        let toolchain = real
            .parent()
            .filter(|bin| bin.ends_with("bin"))
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .filter(|prefix| !is_system(prefix));
        Some(Tool {
            program: real,
            toolchain,
        })
    }
}

/// Folders every contained run sees anyway.
fn is_system(path: &Path) -> bool {
    ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"]
        .iter()
        .any(|s| path.starts_with(s))
        || path == Path::new("/")
}

fn io_error(what: String, source: std::io::Error) -> BuildError {
    BuildError::Io { what, source }
}

fn truncate(mut text: String) -> String {
    if text.len() > MESSAGE_KEEP {
        let mut cut = MESSAGE_KEEP;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n… (truncated)");
    }
    text
}

/// The headers beside `source` that it names with `#include "..."`, and
/// those they name in turn: a checker built against `testlib.h` next to
/// it, or a program split into a source and its header. Only plain file
/// names in the same folder are followed, never paths.
pub(crate) fn local_headers(source: &Path, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let Some(dir) = source.parent() else {
        return Vec::new();
    };
    let mut found: Vec<(String, Vec<u8>)> = Vec::new();
    let mut pending = quoted_includes(bytes);
    while let Some(name) = pending.pop() {
        let plain = !name.contains(['/', '\\']) && name != "." && name != "..";
        if !plain || found.iter().any(|(n, _)| *n == name) {
            continue;
        }
        if let Ok(header) = std::fs::read(dir.join(&name)) {
            pending.extend(quoted_includes(&header));
            found.push((name, header));
        }
    }
    found.sort();
    found
}

/// The names in `#include "name"` lines.
fn quoted_includes(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let name = rest.strip_prefix('"')?.split('"').next()?;
            Some(name.to_string())
        })
        .collect()
}
