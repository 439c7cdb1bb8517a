//! What `cargo metadata` says of a workspace's own packages: the one
//! reader of it, for the builder (which package each binary is in) and the
//! exporter (the sources a binary is built from).

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

/// Cargo, as the judge was built or run with it (`$CARGO`), else from PATH.
pub(crate) fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

#[derive(Debug, Deserialize)]
pub(crate) struct Metadata {
    pub(crate) packages: Vec<Package>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Package {
    pub(crate) name: String,
    pub(crate) id: String,
    pub(crate) manifest_path: PathBuf,
    pub(crate) targets: Vec<Target>,
    pub(crate) dependencies: Vec<Dependency>,
}

/// A target, as in `cargo metadata` and in cargo's build messages.
#[derive(Debug, Deserialize)]
pub(crate) struct Target {
    pub(crate) name: String,
    pub(crate) kind: Vec<String>,
    pub(crate) src_path: PathBuf,
}

impl Target {
    pub(crate) fn is(&self, kind: &str) -> bool {
        self.kind.iter().any(|k| k == kind)
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Dependency {
    pub(crate) name: String,
    pub(crate) rename: Option<String>,
    /// `None` for normal dependencies, `"dev"` or `"build"` otherwise.
    pub(crate) kind: Option<String>,
    /// Set for path dependencies (the workspace's own crates).
    pub(crate) path: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum MetadataError {
    #[error("cannot run `cargo metadata`: {0}")]
    Spawn(#[source] io::Error),
    #[error("`cargo metadata` failed on {}: {stderr}", manifest.display())]
    Failed { manifest: PathBuf, stderr: String },
    #[error("unreadable `cargo metadata` output: {0}")]
    Unreadable(#[source] serde_json::Error),
}

/// The workspace of `manifest`, its own packages only (`--no-deps`).
pub(crate) fn load(manifest: &Path) -> Result<Metadata, MetadataError> {
    let output = cargo()
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .map_err(MetadataError::Spawn)?;
    if !output.status.success() {
        return Err(MetadataError::Failed {
            manifest: manifest.to_path_buf(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    serde_json::from_slice(&output.stdout).map_err(MetadataError::Unreadable)
}
