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

/// What a compiler may see of the judge's environment: toolchain managers
/// (rustup) find their toolchain through these.
const COMPILER_ENV: [&str; 5] = [
    "PATH",
    "HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "CARGO_HOME",
];

/// How much compiler output a CE keeps.
const MESSAGE_KEEP: usize = 8 << 10;

/// A runnable program: the command line that starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executable {
    pub program: PathBuf,
    pub args: Vec<OsString>,
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

    fn compile_file(&self, source: &Path) -> Result<Built, BuildError> {
        let Some((key, language)) = self.languages.for_file(source) else {
            return Err(BuildError::UnknownLanguage {
                path: source.to_path_buf(),
                known: self.languages.known_extensions(),
            });
        };
        let bytes =
            std::fs::read(source).map_err(|e| io_error(format!("read {}", source.display()), e))?;
        let mut hasher = blake3::Hasher::new();
        for part in [key]
            .into_iter()
            .chain(language.compile.iter().map(String::as_str))
            .chain(language.run.iter().map(String::as_str))
        {
            hasher.update(part.as_bytes());
            hasher.update(&[0]);
        }
        hasher.update(&bytes);
        let hash = hasher.finalize().to_hex();
        let stem = source
            .file_stem()
            .map_or_else(|| "source".into(), |s| s.to_string_lossy().into_owned());
        let dir = self.cache.join(format!("{stem}-{key}-{}", &hash[..16]));
        let file_name = source
            .file_name()
            .map_or_else(|| "source".into(), |n| n.to_os_string());
        // The run command's program is found on the judge's PATH now: the
        // submission itself runs with a minimal PATH.
        let run = |dir: &Path| {
            let argv = lang::expand(&language.run, &dir.join(&file_name), &dir.join("main"), dir);
            let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
            let program = which::which_in(&argv[0], Some(crate::sandbox::SANDBOX_PATH), &cwd)
                .or_else(|_| which::which(&argv[0]))
                .unwrap_or_else(|_| PathBuf::from(&argv[0]));
            Built::Ready(Executable {
                program,
                args: argv[1..].iter().map(OsString::from).collect(),
            })
        };
        if dir.join("ok").is_file() {
            return Ok(run(&dir));
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
        std::fs::write(scratch.path().join(&file_name), &bytes)
            .map_err(|e| io_error("copy the source".into(), e))?;

        let mut message = None;
        if !language.compile.is_empty() {
            let argv = lang::expand(
                &language.compile,
                &scratch.path().join(&file_name),
                &scratch.path().join("main"),
                scratch.path(),
            );
            let tool = which::which(&argv[0]).map_err(|_| BuildError::ToolMissing {
                tool: argv[0].clone(),
                language: language.name.clone(),
            })?;
            let outcome = self.sandbox.run(&RunRequest {
                program: tool,
                args: argv[1..].iter().map(OsString::from).collect(),
                stdin: None,
                workdir: scratch.path().to_path_buf(),
                limits: COMPILE_LIMITS,
                env: COMPILER_ENV
                    .iter()
                    .filter_map(|key| {
                        std::env::var_os(key).map(|value| (OsString::from(key), value))
                    })
                    .collect(),
                stack: None,
                containment: crate::sandbox::Containment::Compiler,
            })?;
            let mut text = String::from_utf8_lossy(&outcome.stderr).into_owned();
            text.push_str(&String::from_utf8_lossy(&outcome.stdout));
            // Name the file as the user knows it, not by our build folder.
            let text = text.replace(&format!("{}/", scratch.path().display()), "");
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
        } else if which::which(&language.run[0]).is_err() {
            return Err(BuildError::ToolMissing {
                tool: language.run[0].clone(),
                language: language.name.clone(),
            });
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
        Ok(match message {
            None => run(&dir),
            Some(text) => Built::CompileError(truncate(text)),
        })
    }
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
