//! Workspace binaries: one `cargo build` for all of them, paths read from
//! cargo's JSON messages, never guessed.

use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::BuildError;
use super::metadata::{self, MetadataError, Target, cargo};
use super::{Builder, Built, CompileError, Executable, truncate};
use crate::sandbox::Runs;
use crate::spec::ProgramRef;

#[derive(Debug, Deserialize)]
struct CargoMessage {
    reason: String,
    package_id: Option<String>,
    target: Option<Target>,
    executable: Option<PathBuf>,
    message: Option<CompilerMessage>,
}

#[derive(Debug, Deserialize)]
struct CompilerMessage {
    level: String,
    rendered: Option<String>,
}

/// What `cargo build --message-format json` said: each binary built, by
/// name, and each package's error messages, by package id.
struct CargoOutput {
    built: HashMap<String, PathBuf>,
    errors: HashMap<String, String>,
}

impl CargoOutput {
    fn read(stdout: &[u8]) -> CargoOutput {
        let mut errors: HashMap<String, String> = HashMap::new();
        let mut built: HashMap<String, PathBuf> = HashMap::new();
        for line in stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let Ok(message) = serde_json::from_slice::<CargoMessage>(line) else {
                continue;
            };
            match message.reason.as_str() {
                "compiler-artifact" => {
                    if let (Some(target), Some(exe)) = (message.target, message.executable) {
                        if target.is("bin") {
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
        CargoOutput { built, errors }
    }
}

impl Builder {
    /// Runs `command` (cargo) to its end, or until Ctrl-C or SIGTERM stops
    /// the judge: then its whole process group is killed at once (a
    /// server stopped while it builds must not wait for the compilers).
    fn run_cancellable(
        &self,
        command: &mut std::process::Command,
    ) -> Result<std::process::Output, BuildError> {
        use std::os::unix::process::CommandExt;
        let spawn_failed = |source| BuildError::Spawn {
            command: "cargo build".into(),
            source,
        };
        let mut child = command
            .process_group(0)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(spawn_failed)?;
        let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut bytes);
                }
                bytes
            })
        };
        let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
        let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
        let status = loop {
            if let Some(status) = child.try_wait().map_err(spawn_failed)? {
                break status;
            }
            if self.worker.is_cancelled() {
                if let Some(group) = i32::try_from(child.id())
                    .ok()
                    .and_then(rustix::process::Pid::from_raw)
                {
                    let _ =
                        rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                }
                let _ = child.wait();
                return Err(BuildError::Stopped);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        Ok(std::process::Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        })
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
                ProgramRef::File(_)
                | ProgramRef::Submitted(_)
                | ProgramRef::Sources(_)
                | ProgramRef::Answers { .. } => None,
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
        let packages = self.packages_of(&wanted, &manifest);
        if packages.is_empty() {
            return Ok(());
        }
        let mut command = cargo();
        command
            .args(["build", "--profile", "judge", "--keep-going", "--bins"])
            .args(["--message-format", "json-render-diagnostics"])
            .arg("--manifest-path")
            .arg(&manifest);
        for package in &packages {
            command.args(["-p", package]);
        }
        let output = self.run_cancellable(&mut command)?;
        let messages = CargoOutput::read(&output.stdout);
        if !output.status.success() && messages.built.is_empty() && messages.errors.is_empty() {
            return Err(BuildError::Cargo {
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            });
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        for name in wanted {
            if !self.cargo_bins.contains_key(name) {
                let result = self.built_bin(name, &messages, &stderr);
                self.cargo_bins.insert(name.to_string(), result);
            }
        }
        Ok(())
    }

    /// The packages that hold the binaries `wanted`; a binary no package
    /// of the workspace at `manifest` holds is a judge error at once.
    fn packages_of(&mut self, wanted: &BTreeSet<&str>, manifest: &Path) -> BTreeSet<String> {
        let mut packages = BTreeSet::new();
        for name in wanted {
            match self.bin_packages.get(*name) {
                Some(package) => {
                    packages.insert(package.clone());
                }
                None => {
                    self.cargo_bins.insert(
                        (*name).to_string(),
                        Built::judge_error(BuildError::NotInWorkspace {
                            name: (*name).to_string(),
                            manifest: manifest.to_path_buf(),
                        }),
                    );
                }
            }
        }
        packages
    }

    /// What one `cargo build` gave binary `name`: its executable, or its
    /// package's errors (all of cargo's `stderr` when it said none).
    fn built_bin(&self, name: &str, messages: &CargoOutput, stderr: &str) -> Built {
        match messages.built.get(name) {
            Some(path) => Built::Ready(Executable {
                program: path.clone(),
                args: Vec::new(),
                read_only: Vec::new(),
                note: None,
            }),
            None => {
                let package = &self.bin_packages[name];
                let message = self
                    .package_ids
                    .get(package.as_str())
                    .and_then(|id| messages.errors.get(id))
                    .cloned()
                    .unwrap_or_else(|| stderr.to_owned());
                Built::CompileError(CompileError::Compiler {
                    output: truncate(message),
                })
            }
        }
    }

    fn load_metadata(&mut self, manifest: &Path) -> Result<(), BuildError> {
        let metadata = metadata::load(manifest).map_err(|e| match e {
            MetadataError::Spawn(source) => BuildError::Spawn {
                command: "cargo metadata".into(),
                source,
            },
            other => BuildError::Cargo {
                stderr: other.to_string(),
            },
        })?;
        for package in metadata.packages {
            for target in &package.targets {
                if target.is("bin") {
                    self.bin_packages
                        .insert(target.name.clone(), package.name.clone());
                }
            }
            self.package_ids.insert(package.name, package.id);
        }
        Ok(())
    }
}
