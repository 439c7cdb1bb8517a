//! Turning `ProgramRef`s into runnable programs: workspace binaries through
//! one `cargo build` (`cargo.rs`); single files and programs of several
//! files through the language table, each first prepared as the set of files
//! of its build folder (`files.rs`), then built once per content hash
//! (`cached.rs`); an output-only problem's submission, its answer files,
//! read as an `AnswerSet` (`answer_set.rs`). What a build gives, or why
//! not, is `built.rs`'s `Built`.

mod answer_set;
mod built;
mod cache;
mod cached;
mod cargo;
mod error;
#[cfg(test)]
pub(crate) mod fake;
mod files;
mod main_class;
pub(crate) mod metadata;
pub(crate) use files::local_headers;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use crate::lang::{Language, Languages};
use crate::sandbox::{Containment, Limits, RunRequest, Runs, Sandbox, Worker};
use crate::spec::{ProgramRef, SourceSet};
use crate::untrusted::Links;

pub use answer_set::AnswerSet;
pub use built::{Built, CompileError, NotBuilt, NotProgram};
use cache::BuildCache;
pub use cache::{BUDGET as CACHE_BUDGET, Pruned};
pub use error::BuildError;
use files::BuildFiles;
pub use files::SourceSetError;

/// How much compiler output a CE keeps.
const MESSAGE_KEEP: usize = 8 << 10;

/// A runnable program: the command line that starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executable {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Folders it must read besides its own (an interpreter's toolchain).
    pub read_only: Vec<PathBuf>,
    /// What the judge decided about how it runs that the user may not
    /// expect (a JVM program's main class, found in its class files).
    pub note: Option<String>,
}

impl Executable {
    /// A request to run this program (its arguments, the folders it
    /// reads) in `workdir` under `limits`.
    pub fn request(&self, workdir: &Path, limits: Limits, containment: Containment) -> RunRequest {
        RunRequest {
            args: self.args.clone(),
            read_only: self.read_only.clone(),
            ..RunRequest::new(
                self.program.clone(),
                workdir.to_path_buf(),
                limits,
                containment,
            )
        }
    }

    pub fn with_args(&self, extra: impl IntoIterator<Item = impl Into<OsString>>) -> Executable {
        let mut exe = self.clone();
        exe.args.extend(extra.into_iter().map(Into::into));
        exe
    }
}

/// What builds programs for the plan stage and the verbs: the real
/// [`Builder`], or in tests of what drives it a fake that starts no
/// compiler (`fake.rs`).
pub(crate) trait Builds {
    /// The built program, or why it did not build.
    fn build(&mut self, program: &ProgramRef) -> Built;
    /// Builds at once what is cheaper built together (a workspace's
    /// binaries: one `cargo build`) before `build` is asked for each.
    fn build_workspace(&mut self, programs: &[&ProgramRef]) -> Result<(), BuildError>;
    /// The compiler or interpreter `program` needs that this machine lacks.
    fn unavailable_tool(&mut self, program: &ProgramRef) -> Option<String>;
    /// The language table programs are built with.
    fn languages(&self) -> &Languages;
    /// The box its compiles run in, which the command line's trusted
    /// programs (validators, generators, a checker run by hand) share.
    fn worker(&self) -> &dyn Runs;
}

impl Builds for Builder {
    fn build(&mut self, program: &ProgramRef) -> Built {
        Builder::build(self, program)
    }

    fn build_workspace(&mut self, programs: &[&ProgramRef]) -> Result<(), BuildError> {
        Builder::build_workspace(self, programs.iter().copied())
    }

    fn unavailable_tool(&mut self, program: &ProgramRef) -> Option<String> {
        Builder::unavailable_tool(self, program)
    }

    fn languages(&self) -> &Languages {
        Builder::languages(self)
    }

    fn worker(&self) -> &dyn Runs {
        Builder::worker(self)
    }
}

/// Builds programs for a problem root (the folder holding `problems/` and,
/// for workspace binaries, `Cargo.toml`). Its compiles run in a box of the
/// thread that made it, where it stays.
pub struct Builder {
    root: PathBuf,
    languages: Languages,
    worker: Worker,
    cache: BuildCache,
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
            worker: sandbox.worker(),
            cache: BuildCache {
                dir: cache_dir(root),
            },
            bin_packages: HashMap::new(),
            package_ids: HashMap::new(),
            cargo_bins: HashMap::new(),
            tools: HashMap::new(),
        }
    }

    pub fn languages(&self) -> &Languages {
        &self.languages
    }

    /// The box its compiles run in: the box of the thread that holds the
    /// builder, for its other runs too (the command line's trusted
    /// programs).
    pub fn worker(&self) -> &Worker {
        &self.worker
    }

    /// The built program. Workspace binaries must have gone through
    /// `build_workspace` first; files are compiled here (or found in the cache).
    pub fn build(&mut self, program: &ProgramRef) -> Built {
        match program {
            ProgramRef::Bin(name) => {
                if !self.cargo_bins.contains_key(name) {
                    if let Err(error) = self.build_workspace([program]) {
                        return Built::judge_error(error);
                    }
                }
                self.cargo_bins.get(name).cloned().unwrap_or_else(|| {
                    Built::judge_error(BuildError::NoSuchBinary { name: name.clone() })
                })
            }
            ProgramRef::File(path) => self
                .compile_file(path, Links::Follow)
                .unwrap_or_else(Built::judge_error),
            ProgramRef::Submitted(path) => self
                .compile_file(path, Links::Refuse)
                .unwrap_or_else(Built::judge_error),
            ProgramRef::Sources(set) => self.compile_sources(set),
            ProgramRef::Answers {
                path, submitted, ..
            } => {
                let links = if *submitted {
                    Links::Refuse
                } else {
                    Links::Follow
                };
                match AnswerSet::read(path, links) {
                    Ok(set) => Built::Answers(std::sync::Arc::new(set)),
                    // A link or a FIFO among the answers is the submitter's doing.
                    Err(refused) if refused.is_submitters() && *submitted => {
                        Built::CompileError(CompileError::Refused(Arc::new(refused)))
                    }
                    Err(refused) => Built::judge_error(refused),
                }
            }
        }
    }

    /// A single source with the headers beside it; a file the submitter
    /// got wrong (a link, a FIFO, a huge file) is their compile error.
    fn compile_file(&mut self, source: &Path, links: Links) -> Result<Built, BuildError> {
        let Some((key, language)) = self.languages.for_file(source) else {
            return Err(BuildError::UnknownLanguage {
                path: source.to_path_buf(),
                known: self.languages.known_extensions(),
            });
        };
        match BuildFiles::single(source, key, language, links) {
            Ok(files) => self.build_files(files),
            Err(refused) if refused.is_submitters() && links == Links::Refuse => Ok(
                Built::CompileError(CompileError::Refused(Arc::new(refused))),
            ),
            Err(refused) => Ok(Built::judge_error(refused)),
        }
    }

    /// A program of several files; what is wrong with the set itself (an
    /// unknown language, two sources of one name) is JE naming the program.
    fn compile_sources(&mut self, set: &SourceSet) -> Built {
        let Some(language) = self.languages.get(&set.language) else {
            return Built::judge_error(BuildError::UnknownLanguageKey {
                program: set.name.clone(),
                language: set.language.clone(),
                known: self.languages.known_keys(),
            });
        };
        match BuildFiles::set(set, language) {
            Ok(files) => self.build_files(files).unwrap_or_else(|source| {
                Built::judge_error(BuildError::Program {
                    program: set.name.clone(),
                    source: Box::new(source),
                })
            }),
            // A handed-in file the judge refuses is the submitter's doing.
            Err(SourceSetError::Submitted(refused)) if refused.is_submitters() => {
                Built::CompileError(CompileError::Refused(Arc::new(refused)))
            }
            Err(source) => Built::judge_error(BuildError::Sources {
                program: set.name.clone(),
                source,
            }),
        }
    }

    /// The compiler or interpreter a `file` or source-set program needs that
    /// this machine lacks, if any: `judge verify` skips such a solution and
    /// says so, instead of charging the package for the machine.
    pub fn unavailable_tool(&mut self, program: &ProgramRef) -> Option<String> {
        let language: Language = match program {
            ProgramRef::Bin(_) | ProgramRef::Answers { .. } => return None,
            ProgramRef::File(path) | ProgramRef::Submitted(path) => {
                self.languages.for_file(path)?.1.clone()
            }
            // A language the table does not know is one this machine
            // cannot run either (a package's Scala or Haskell solution).
            ProgramRef::Sources(set) => match self.languages.get(&set.language) {
                Some(language) => language.clone(),
                None => return Some(set.language.clone()),
            },
        };
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
}

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

/// Removes the least recently used builds of programs under `root` until
/// the rest hold at most `budget` bytes (`judge cache prune`).
pub fn prune_cache(root: &Path, budget: u64) -> Pruned {
    BuildCache {
        dir: cache_dir(root),
    }
    .evict(budget)
}

/// The variable naming a build cache shared by every root (several
/// checkouts, a class's folders, a test suite's temporary packages).
pub const SHARED_CACHE_VAR: &str = "JUDGE_BUILD_CACHE";

/// Where the builds of programs under `root` are cached: `$JUDGE_BUILD_CACHE`
/// when set, else `target/judge-cache` under the root. Sharing is safe: an
/// entry is named by the hash of everything its build depends on, and put
/// in place whole.
pub fn cache_dir(root: &Path) -> PathBuf {
    match std::env::var_os(SHARED_CACHE_VAR) {
        Some(shared) if !shared.is_empty() => PathBuf::from(shared),
        _ => root.join("target").join("judge-cache"),
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
