//! Shared helpers: the judge command (every call with a deadline),
//! fixture paths, and what a test needs from the machine.

use std::path::{Path, PathBuf};

/// The variable that points every root's builds at one cache.
pub use harness::compile::SHARED_CACHE_VAR;

// The library's unit tests have the same file as `crate::test_support`.
#[path = "../../src/test_support.rs"]
mod needs;
pub(crate) use needs::{Background, CLI_TIMEOUT, bounded, have, present, skip};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The path of the `judge` binary under test.
pub fn judge_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_judge"))
}

/// `judge` with colour off, bounded by `CLI_TIMEOUT`. Its builds go to one
/// cache shared by the whole suite (`shared_build_cache`).
pub fn judge() -> assert_cmd::Command {
    let mut cmd = bounded(std::process::Command::new(judge_binary()));
    cmd.arg("--color").arg("never");
    cmd.env(SHARED_CACHE_VAR, shared_build_cache());
    cmd
}

/// One build cache for every test: the same fixture compiled by ten tests,
/// each in its own temporary root, is compiled once. Entries are named by
/// a hash of all a build depends on, so no test sees another's program for
/// different sources. A test about the cache itself removes the variable.
pub fn shared_build_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-build-cache")
}

pub fn judge_fixtures() -> assert_cmd::Command {
    judge_at(fixtures())
}

/// The compiler or interpreter a source file needs, by its extension.
pub fn tool_for(file: &Path) -> Option<&'static str> {
    Some(match file.extension()?.to_str()? {
        "c" => "gcc",
        "cpp" => "g++",
        "py" => "python3",
        "rs" => "rustc",
        "java" => "javac",
        "js" => "node",
        "go" => "go",
        "kt" => "kotlinc",
        _ => return None,
    })
}

/// The program `tool` on PATH (`chromium`: Chromium or Chrome).
pub fn which(tool: &str) -> Option<PathBuf> {
    needs::find(tool)
}

/// The files under `dir`, sorted, without those whose tool is missing:
/// each of those is a skip (see `skip`).
pub fn runnable_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    assert!(!files.is_empty(), "no files in {}", dir.display());
    files.sort();
    files
        .into_iter()
        .filter(|file| match tool_for(file) {
            Some(tool) if !present(tool) => {
                skip(tool, &file.display().to_string());
                false
            }
            _ => true,
        })
        .collect()
}

pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A copy of a fixture problem in a fresh root, to break or change it.
pub fn scratch_root_with(problem: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    copy_dir(
        &fixtures().join("problems").join(problem),
        &root.path().join("problems").join(problem),
    );
    root
}

/// `scratch_root_with(problem)`, with every fixture submission beside it
/// (the ones its `problem.toml` names among them).
pub fn scratch_root_with_submissions(problem: &str) -> tempfile::TempDir {
    let root = scratch_root_with(problem);
    copy_dir(
        &fixtures().join("submissions"),
        &root.path().join("submissions"),
    );
    root
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Live processes whose command line mentions `marker` (not this test itself).
pub fn leftover_processes(marker: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == me {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let zombie = std::fs::read_to_string(entry.path().join("stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        });
        let is_judge = cmdline
            .split(' ')
            .next()
            .is_some_and(|program| program.ends_with("/judge"));
        if cmdline.contains(marker) && !is_judge && !zombie {
            found.push(format!("{name}: {cmdline}"));
        }
    }
    found
}

/// `judge ARGS...` with `root` as the problem root: (exit code, stdout).
pub fn judge_output<S: AsRef<std::ffi::OsStr>>(
    root: &Path,
    args: impl IntoIterator<Item = S>,
) -> (Option<i32>, String) {
    let output = judge_at(root).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.code(), stdout)
}

/// `judge` with colour off and `root` as the problem root.
pub fn judge_at(root: impl AsRef<Path>) -> assert_cmd::Command {
    let mut cmd = judge();
    cmd.arg("--root").arg(root.as_ref());
    cmd
}
