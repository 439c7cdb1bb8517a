//! The programs of a package (a workspace binary, a source file with the
//! headers it includes) as files of a Kattis package: a binary bundled
//! into one Rust file and checked to compile, a source with headers as a
//! folder.

use std::path::{Path, PathBuf};

use super::bundle::{self, Bundle};
use super::kattis::Content;
use super::workspace::Workspace;
use crate::errors::{Error, Result};
use crate::spec::ProgramRef;
use crate::spec::SpecError;

/// A program as it goes into the package: one file, or a folder for a
/// source that includes headers beside it.
pub(super) struct Exported {
    /// The file or folder name (`a_game_validator.rs`, `check`).
    pub(super) entry: String,
    /// Its files, relative to the folder the entry goes into.
    files: Vec<(PathBuf, Content)>,
    /// What it is, for the summary.
    pub(super) about: String,
}

impl Exported {
    /// Its files placed under `folder`, the entry renamed to `entry`.
    pub(super) fn place(self, folder: &Path, entry: &str) -> Vec<(PathBuf, Content)> {
        self.files
            .into_iter()
            .map(|(path, content)| {
                let rest = path.strip_prefix(&self.entry).unwrap_or(&path);
                let placed = if rest.as_os_str().is_empty() {
                    folder.join(entry)
                } else {
                    folder.join(entry).join(rest)
                };
                (placed, content)
            })
            .collect()
    }
}

/// Turns package programs into files of the Kattis package.
pub(super) struct Programs<'a> {
    root: &'a Path,
    scratch: &'a Path,
    workspace: Option<Workspace>,
    /// The package's `problem.toml`, which every refusal names.
    pub(super) manifest: &'a Path,
}

impl<'a> Programs<'a> {
    /// Programs of the package at `manifest` (`root`: the workspace
    /// folder; `scratch`: a folder for the compile checks).
    pub(super) fn new(root: &'a Path, scratch: &'a Path, manifest: &'a Path) -> Programs<'a> {
        Programs {
            root,
            scratch,
            workspace: None,
            manifest,
        }
    }

    /// Why the package cannot be exported, naming its `problem.toml`.
    pub(super) fn refuse(&self, message: String) -> Error {
        SpecError::Export {
            path: self.manifest.to_path_buf(),
            message,
        }
        .into()
    }

    /// The program as it goes into the package, or why it cannot.
    pub(super) fn program(&mut self, program: &ProgramRef) -> Result<Exported> {
        match program {
            ProgramRef::Bin(bin) => self.workspace_binary(bin),
            ProgramRef::File(file) | ProgramRef::Submitted(file) => self.source_file(file),
            ProgramRef::Sources(set) => Err(self.refuse(format!(
                "`{}` is a program of several files, which only Kattis and Polygon packages have",
                set.name
            ))),
            ProgramRef::Answers { path, .. } => Err(self.refuse(format!(
                "`{}` is an answer set: output-only problems are not exported",
                path.display()
            ))),
        }
    }

    /// A workspace binary as one Rust file, checked to compile the way
    /// problemtools builds it.
    fn workspace_binary(&mut self, bin: &str) -> Result<Exported> {
        if self.workspace.is_none() {
            let workspace = Workspace::load(self.root).map_err(|e| self.refuse(e.to_string()))?;
            self.workspace = Some(workspace);
        }
        let workspace = self.workspace.as_ref().expect("loaded above");
        let sources = workspace
            .program(bin)
            .map_err(|e| self.refuse(e.to_string()))?;
        let Bundle {
            text,
            libraries,
            kept,
        } = bundle::bundle(&sources, self.root)
            .map_err(|e| self.refuse(format!("binary `{bin}` cannot be made one file:\n{e}")))?;
        let stem = bin.replace('-', "_");
        let checked = bundle::check_compiles(&text, &stem, self.scratch)
            .map_err(|e| self.refuse(format!("binary `{bin}`: {e}")))?;
        let mut about = bin.to_string();
        if !libraries.is_empty() {
            about += &format!(
                " with {} ({} of {} library items)",
                libraries.join(", "),
                kept.items,
                kept.of
            );
        }
        about += if checked {
            ", compiles with rustc --edition 2021"
        } else {
            ", not compile-checked (no rustc here)"
        };
        let entry = format!("{stem}.rs");
        Ok(Exported {
            files: vec![(PathBuf::from(&entry), Content::Text(text))],
            entry,
            about,
        })
    }

    /// A source file as it is; with the headers it includes, a folder.
    fn source_file(&self, file: &Path) -> Result<Exported> {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| self.refuse(format!("{}: not a file name", file.display())))?;
        let bytes = std::fs::read(file)
            .map_err(|e| self.refuse(format!("{}: cannot read: {e}", file.display())))?;
        // The setter's own package: their links are followed.
        let headers = crate::compile::local_headers(file, &bytes, crate::untrusted::Links::Follow)
            .map_err(|e| self.refuse(e.to_string()))?;
        if headers.is_empty() {
            return Ok(Exported {
                files: vec![(PathBuf::from(&name), Content::Copy(file.to_path_buf()))],
                about: name.clone(),
                entry: name,
            });
        }
        // problemtools builds a folder as one program, headers beside it.
        let entry = file
            .file_stem()
            .map_or_else(|| "program".into(), |s| s.to_string_lossy().into_owned());
        let names: Vec<&str> = headers.iter().map(|(n, _)| n.as_str()).collect();
        let about = format!("{name} with {}", names.join(", "));
        let mut files = vec![(
            Path::new(&entry).join(&name),
            Content::Copy(file.to_path_buf()),
        )];
        for (header, bytes) in headers {
            files.push((Path::new(&entry).join(header), Content::Bytes(bytes)));
        }
        Ok(Exported {
            entry,
            files,
            about,
        })
    }
}
