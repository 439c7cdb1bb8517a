//! The store as a cache. A test result is reused when nothing that decides
//! it has changed: the judge's own build, the isolation applied, the
//! program's build (its executable and the files it runs), the test's
//! input and answer, the limits, the comparison and the checker or
//! interactor (and a testlib interactor's checker). All of these are hashed
//! into the result's cache key.
//!
//! Results that must not stand for a run get no key when recorded: judge
//! errors (a broken judge is not the program's result) and timing-unstable
//! results (a busy machine decided them). Compile errors are not test
//! results and are settled by the build cache.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::Store;
use crate::compile::{Built, Executable};
use crate::errors::Error;
use crate::runner::{Reuse, RunPlan, Task, TaskReport, TestReport};
use crate::spec::{CompareMode, ProblemSpec};
use crate::verdict::Verdict;

/// Bumped when what a key covers changes.
const KEY_VERSION: &str = "judge-result-1";

/// The judge's version and a hash of its own executable: a rebuilt judge
/// may judge differently, so it never reuses an older judge's results.
pub fn judge_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let build = std::env::current_exe()
            .ok()
            .and_then(|exe| hash_file(&exe))
            .unwrap_or_else(|| "unknown".into());
        format!(
            "{} ({})",
            env!("CARGO_PKG_VERSION"),
            &build[..build.len().min(12)]
        )
    })
}

fn hash_file(path: &Path) -> Option<String> {
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader(std::fs::File::open(path).ok()?).ok()?;
    Some(hasher.finalize().to_hex().to_string())
}

/// File hashes, each file read once per command.
#[derive(Default)]
pub(super) struct FileHashes(HashMap<PathBuf, Option<String>>);

impl FileHashes {
    pub(super) fn of(&mut self, path: &Path) -> Option<String> {
        self.0
            .entry(path.to_path_buf())
            .or_insert_with(|| hash_file(path))
            .clone()
    }

    /// The build hash of a program: its executable, and each argument's
    /// contents when it is a file (an interpreter's script), else its text.
    pub(super) fn executable(&mut self, exe: &Executable) -> Option<String> {
        let mut hasher = blake3::Hasher::new();
        hasher.update(self.of(&exe.program)?.as_bytes());
        for arg in &exe.args {
            let path = Path::new(arg);
            let part = match path.is_file() {
                true => self.of(path)?,
                false => arg.to_string_lossy().into_owned(),
            };
            hasher.update(b"\0");
            hasher.update(part.as_bytes());
        }
        Some(hasher.finalize().to_hex().to_string())
    }
}

/// How a problem judges output, without its paths (the checker's own
/// contents are hashed with the program).
fn judging(problem: &ProblemSpec) -> String {
    let compare = match &problem.compare.mode {
        CompareMode::Tokens(options) => format!("tokens {options:?}"),
        CompareMode::Exact => "exact".into(),
        CompareMode::KattisFlags => "kattis-default".into(),
        CompareMode::Checker(tool) => format!("checker {:?} {:?}", tool.protocol, tool.args),
    };
    let interactor = problem
        .interactor
        .as_ref()
        .map(|tool| format!("interactor {:?} {:?}", tool.protocol, tool.args));
    format!(
        "{compare} {interactor:?} {:?} pe={}",
        problem.limits, problem.presentation_errors
    )
}

/// The keys of one plan's tests, and the stored results found for them.
pub struct ResultCache {
    /// Per task, per test: the cache key (`None` when a hash could not be made).
    keys: Vec<Vec<Option<String>>>,
    build_hashes: Vec<Option<String>>,
    found: HashMap<(usize, usize), TestReport>,
}

impl ResultCache {
    /// Hashes everything `plan` will judge and, unless `fresh`, looks every
    /// key up in `store`.
    pub fn prepare(
        store: &Store,
        plan: &RunPlan<'_>,
        isolation: &str,
        fresh: bool,
    ) -> Result<ResultCache, Error> {
        let mut files = FileHashes::default();
        let mut keys = Vec::new();
        let mut build_hashes = Vec::new();
        let mut found = HashMap::new();
        for (t, task) in plan.tasks.iter().enumerate() {
            let build = match &task.program {
                Built::Ready(exe) => files.executable(exe),
                _ => None,
            };
            let base = build.as_ref().and_then(|build| {
                let mut checker = String::new();
                for judge in [&task.checker, &task.output_checker] {
                    match judge {
                        Some(exe) => checker.push_str(&files.executable(exe)?),
                        None => checker.push('-'),
                    }
                }
                Some(format!(
                    "{KEY_VERSION}\0{}\0{isolation}\0{build}\0{checker}\0{}",
                    judge_version(),
                    judging(task.problem)
                ))
            });
            let mut task_keys = Vec::new();
            for (k, test) in task.tests.iter().enumerate() {
                // A test with a `.files` folder is never reused: the folder is not hashed.
                let key = base
                    .as_ref()
                    .filter(|_| test.files.is_none())
                    .and_then(|base| {
                        let input = files.of(&test.input)?;
                        let answer = files.of(&test.answer)?;
                        let text = format!(
                            "{base}\0{input}\0{answer}\0{:?}\0{:?}",
                            test.args, test.checker_args
                        );
                        Some(blake3::hash(text.as_bytes()).to_hex().to_string())
                    });
                if let (Some(key), false) = (&key, fresh) {
                    if let Some(report) = store.lookup(key)? {
                        // Stored under another name or group: take this test's.
                        let report = TestReport {
                            test: test.name.clone(),
                            group: test.group.clone(),
                            ..report
                        };
                        found.insert((t, k), report);
                    }
                }
                task_keys.push(key);
            }
            keys.push(task_keys);
            build_hashes.push(build);
        }
        Ok(ResultCache {
            keys,
            build_hashes,
            found,
        })
    }

    /// How many tests will take a stored result.
    pub fn hits(&self) -> usize {
        self.found.len()
    }

    pub fn build_hash(&self, task: usize) -> Option<String> {
        self.build_hashes.get(task).cloned().flatten()
    }

    /// Per test of `report` (task `t` of the plan): the key to record it
    /// under (`None` if it must never be reused) and whether it was reused.
    pub fn recorded(
        &self,
        t: usize,
        task: &Task<'_>,
        report: &TaskReport,
    ) -> Vec<(Option<String>, bool)> {
        report
            .tests
            .iter()
            .map(|test| {
                let Some(k) = task.tests.iter().position(|c| c.name == test.test) else {
                    return (None, false);
                };
                let reusable = test.verdict != Verdict::JudgeError && !test.timing_unstable();
                let key = self.keys[t][k].clone().filter(|_| reusable);
                (key, self.found.contains_key(&(t, k)))
            })
            .collect()
    }
}

impl Reuse for ResultCache {
    fn reused(&self, task: usize, test: usize) -> Option<TestReport> {
        self.found.get(&(task, test)).cloned()
    }
}
