//! Why a workspace binary cannot be exported as one Rust file: what
//! `judge export` refuses, naming the file and line where there is one.

use std::path::PathBuf;

use crate::compile::metadata::MetadataError;

use super::bundle::KATTIS_EDITION;

#[derive(Debug, thiserror::Error)]
pub(crate) enum BundleError {
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: cannot parse: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(
        "module file not found (tried {})",
        tried.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    ModuleNotFound { tried: Vec<PathBuf> },
    #[error(transparent)]
    Metadata(#[from] MetadataError),
    #[error("no binary `{bin}` in the workspace")]
    NoBinary { bin: String },
    #[error("package `{package}` has no library")]
    NoLibrary { package: String },
    #[error(
        "package `{package}` renames its dependency `{dependency}` to `{name}`; renamed crates cannot be bundled"
    )]
    Renamed {
        package: String,
        dependency: String,
        name: String,
    },
    /// Every place that cannot travel into one file, one per line.
    #[error(
        "{}",
        places.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    )]
    CannotTravel { places: Vec<Untravelled> },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot run rustc: {0}")]
    Rustc(#[source] std::io::Error),
    /// rustc's message, cut to a few thousand characters.
    #[error("the single file does not compile with `rustc --edition {KATTIS_EDITION}`:\n{message}")]
    DoesNotCompile { message: String },
}

/// A place in the sources that cannot go into one file.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {what}", path.display())]
pub(crate) struct Untravelled {
    pub(crate) path: PathBuf,
    pub(crate) line: usize,
    pub(crate) what: Travel,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum Travel {
    #[error("`use {path}` is needed, and crate `{krate}` is not part of the workspace")]
    ForeignUse { path: String, krate: String },
    #[error("uses crate `{krate}`, which is not part of the workspace")]
    ForeignCrate { krate: String },
    #[error("`{name}!` reads a file or Cargo's environment at compile time")]
    CompileTimeRead { name: String },
}
