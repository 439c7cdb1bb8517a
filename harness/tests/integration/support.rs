//! Shared helpers: the judge command, fixture paths, optional tools.

use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `judge` with colour off and the fixtures as root.
pub fn judge() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("judge").unwrap();
    cmd.arg("--color").arg("never");
    cmd
}

pub fn judge_fixtures() -> assert_cmd::Command {
    judge_at(fixtures())
}

/// The tool a source file needs, if it is missing on this machine.
pub fn missing_tool(file: &Path) -> Option<&'static str> {
    let tool = match file.extension()?.to_str()? {
        "c" => "gcc",
        "cpp" => "g++",
        "py" => "python3",
        "rs" => "rustc",
        "java" => "javac",
        "js" => "node",
        "go" => "go",
        "kt" => "kotlinc",
        _ => return None,
    };
    which(tool).is_none().then_some(tool)
}

pub fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(tool))
            .find(|p| p.is_file())
    })
}

/// The files under `dir`, sorted, with those whose tool is missing reported
/// as skipped (never silently passed).
pub fn runnable_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .filter(|file| match missing_tool(file) {
            Some(tool) => {
                println!("skipped: no {tool}: {}", file.display());
                false
            }
            None => true,
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
