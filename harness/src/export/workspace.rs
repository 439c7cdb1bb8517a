//! Where a workspace binary's sources are: its own file and the library
//! crates of the workspace it depends on (transitively), read from `cargo
//! metadata`, never guessed from folder names.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::compile::metadata::{self, Package};

use super::error::BundleError;

/// A library crate of the workspace that a program uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LibCrate {
    /// The name code uses for it (`judge_kit`).
    pub(crate) name: String,
    /// Its package (`judge-kit`), for messages.
    pub(crate) package: String,
    /// Its root file (`src/lib.rs`).
    pub(crate) root: PathBuf,
}

/// Everything one binary is built from.
#[derive(Debug, Clone)]
pub(crate) struct ProgramSources {
    pub(crate) bin: String,
    pub(crate) main: PathBuf,
    /// The workspace's library crates it depends on, directly or not.
    pub(crate) libs: Vec<LibCrate>,
    /// Crates from outside the workspace it depends on (`rand`): they
    /// cannot travel with a single file.
    pub(crate) foreign: BTreeSet<String>,
}

/// The workspace's packages, as cargo describes them.
pub(crate) struct Workspace {
    packages: Vec<Package>,
}

impl Workspace {
    /// Runs `cargo metadata` on the workspace at `root`.
    pub(crate) fn load(root: &Path) -> Result<Workspace, BundleError> {
        let metadata = metadata::load(&root.join("Cargo.toml"))?;
        Ok(Workspace {
            packages: metadata.packages,
        })
    }

    /// The sources of binary `bin`.
    pub(crate) fn program(&self, bin: &str) -> Result<ProgramSources, BundleError> {
        let (package, target) = self
            .packages
            .iter()
            .find_map(|p| {
                p.targets
                    .iter()
                    .find(|t| t.name == bin && t.is("bin"))
                    .map(|t| (p, t))
            })
            .ok_or_else(|| BundleError::NoBinary {
                bin: bin.to_string(),
            })?;
        let by_dir: HashMap<&Path, &Package> = self
            .packages
            .iter()
            .filter_map(|p| Some((p.manifest_path.parent()?, p)))
            .collect();
        let mut libs: Vec<LibCrate> = Vec::new();
        // A package's binaries use its own library by name, like a dependency.
        if let Some(lib) = package.targets.iter().find(|t| t.is("lib")) {
            libs.push(LibCrate {
                name: lib.name.replace('-', "_"),
                package: package.name.clone(),
                root: lib.src_path.clone(),
            });
        }
        let mut foreign = BTreeSet::new();
        let mut queue = vec![package];
        let mut seen = BTreeSet::from([package.name.as_str()]);
        while let Some(current) = queue.pop() {
            for dependency in current.dependencies.iter().filter(|d| d.kind.is_none()) {
                let code_name = dependency
                    .rename
                    .as_deref()
                    .unwrap_or(&dependency.name)
                    .replace('-', "_");
                let Some(dep) = dependency
                    .path
                    .as_deref()
                    .and_then(|path| by_dir.get(path).copied())
                else {
                    foreign.insert(code_name);
                    continue;
                };
                let lib = dep.targets.iter().find(|t| t.is("lib")).ok_or_else(|| {
                    BundleError::NoLibrary {
                        package: dep.name.clone(),
                    }
                })?;
                let name = lib.name.replace('-', "_");
                if dependency.rename.is_some() && code_name != name {
                    return Err(BundleError::Renamed {
                        package: current.name.clone(),
                        dependency: dep.name.clone(),
                        name: code_name,
                    });
                }
                if seen.insert(dep.name.as_str()) {
                    libs.push(LibCrate {
                        name,
                        package: dep.name.clone(),
                        root: lib.src_path.clone(),
                    });
                    queue.push(dep);
                }
            }
        }
        Ok(ProgramSources {
            bin: bin.to_string(),
            main: target.src_path.clone(),
            libs,
            foreign,
        })
    }
}
