//! Helpers for the play tests of the interactive packages' solutions (this
//! one's and `stone-game-vi-interactive`'s): every `[[solution]]` of a
//! `problem.toml` plays every committed test against the built interactor,
//! in the judge's order, and must get the verdict it declares.
//!
//! The verdict of one game follows the judge's rules as far as a test can
//! see them: killed at the deadline is TLE, a solution that exits non-zero
//! is RE (these solutions never crash because of a rejection: they crash,
//! or stop, on their own), otherwise the interactor's 42 is AC and 43 WA.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use judge_kit::testing::{
    Played, TempDir, committed_inputs, play_within, sibling_binary, wait_within,
};

/// A binary of another package of the workspace, built on demand with the
/// profile and target folder of the running test (Cargo builds only the
/// binaries of the package under test, and the play tests need the
/// interactor of the problem's tools package).
pub fn workspace_binary(package: &str, bin: &str) -> PathBuf {
    let path = sibling_binary(bin);
    let profile_dir = path.parent().expect("a profile folder");
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev",
        Some(other) => other,
    };
    let target_dir = profile_dir.parent().expect("a target folder");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--profile",
            profile,
            "-p",
            package,
            "--bin",
            bin,
        ])
        .arg("--target-dir")
        .arg(target_dir)
        .spawn()
        .expect("run cargo");
    let status = wait_within(status, &format!("cargo build --bin {bin}"));
    assert!(status.success(), "cannot build {bin}");
    path
}

/// One test: its name (`sample/01`) and the contents of its `.in` and `.ans`.
#[derive(Debug, Clone)]
pub struct Test {
    pub name: String,
    pub input: String,
    pub answer: String,
}

/// The committed tests in the judge's order: samples first, then the rest
/// in path order.
pub fn committed_tests(package_dir: impl AsRef<Path>) -> Vec<Test> {
    let package_dir = package_dir.as_ref();
    let data = package_dir.join("data");
    let mut tests: Vec<Test> = committed_inputs(package_dir)
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&data)
                .expect("under data/")
                .with_extension("");
            Test {
                name: name.to_string_lossy().into_owned(),
                input: std::fs::read_to_string(&path).expect("read a .in"),
                answer: std::fs::read_to_string(path.with_extension("ans"))
                    .unwrap_or_else(|e| panic!("{}: no .ans: {e}", path.display())),
            }
        })
        .collect();
    tests.sort_by_key(|t| (!t.name.starts_with("sample/"), t.name.clone()));
    tests
}

/// The package's committed tests, at least `at_least`: each one's answer
/// file is what the answer program (`answer` of its input) writes, and
/// the referee accepts the best play (`best_play` of the input gives the
/// referee's exit code and its message).
pub fn assert_committed_answers(
    package_dir: impl AsRef<Path>,
    at_least: usize,
    answer: impl Fn(&str) -> String,
    best_play: impl Fn(&str) -> (Option<i32>, String),
) {
    let tests = committed_tests(package_dir);
    assert!(tests.len() >= at_least, "{} committed tests", tests.len());
    for test in tests {
        assert_eq!(answer(&test.input), test.answer, "{}", test.name);
        let (code, message) = best_play(&test.input);
        assert_eq!(code, Some(42), "{}: {message}", test.name);
    }
}

/// What the referee told a person playing (its stderr) holds every one of
/// `lines`.
pub fn assert_told(stderr: &str, lines: &[&str]) {
    for line in lines {
        assert!(stderr.contains(line), "missing {line:?} in\n{stderr}");
    }
}

/// The verdict of one game (see the module documentation).
#[must_use]
pub fn verdict(played: &Played) -> &'static str {
    if played.timed_out {
        "TLE"
    } else if played.solution_code != Some(0) {
        "RE"
    } else {
        match played.interactor_code {
            Some(42) => "AC",
            Some(43) => "WA",
            _ => "JE",
        }
    }
}

/// A declared solution: how to run it and the verdicts it may get.
#[derive(Debug)]
pub struct Solution {
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub expect: Vec<String>,
}

/// The `[[solution]]` entries of `package_dir/problem.toml`. A `bin` is a
/// binary of the running test's package (Cargo built it); a `file` is run
/// with `python3`, or compiled with `g++` into `build`. A file whose tool is
/// missing is left out, with a `skipped:` line.
pub fn solutions(package_dir: &Path, build: &TempDir) -> Vec<Solution> {
    let text = std::fs::read_to_string(package_dir.join("problem.toml")).expect("problem.toml");
    let spec: toml::Table = text.parse().expect("problem.toml is TOML");
    let entries = spec["solution"].as_array().expect("[[solution]] entries");
    let mut found = Vec::new();
    for entry in entries {
        let expect = match &entry["expect"] {
            toml::Value::String(one) => vec![one.clone()],
            toml::Value::Array(many) => many
                .iter()
                .map(|v| v.as_str().expect("a verdict").to_owned())
                .collect(),
            other => panic!("expect = {other}"),
        };
        if let Some(bin) = entry.get("bin").and_then(toml::Value::as_str) {
            found.push(Solution {
                name: bin.to_owned(),
                program: sibling_binary(bin),
                args: Vec::new(),
                expect,
            });
        } else {
            let file = entry["file"].as_str().expect("bin or file");
            let source = package_dir.join(file);
            if let Some((program, args)) = runnable(&source, build) {
                found.push(Solution {
                    name: file.to_owned(),
                    program,
                    args,
                    expect,
                });
            }
        }
    }
    found
}

/// How to run a source file: python3 for `.py`, g++ for `.cpp` (compiled
/// here). `None`, with a `skipped:` line, when the tool is missing.
fn runnable(source: &Path, build: &TempDir) -> Option<(PathBuf, Vec<String>)> {
    let shown = source.display();
    match source.extension().and_then(|e| e.to_str()) {
        Some("py") => {
            let probe = Command::new("python3")
                .arg("--version")
                .stdout(Stdio::null())
                .spawn();
            if probe
                .map(|child| wait_within(child, "python3 --version"))
                .is_err()
            {
                judge_kit::testing::skip("python3", &shown.to_string());
                return None;
            }
            Some((
                PathBuf::from("python3"),
                vec![source.to_string_lossy().into_owned()],
            ))
        }
        Some("cpp") => {
            let binary = build.path().join(source.file_stem().expect("a file name"));
            let compiled = Command::new("g++")
                .args(["-O2", "-std=gnu++20", "-o"])
                .arg(&binary)
                .arg(source)
                .spawn()
                .map(|child| wait_within(child, "g++"));
            match compiled {
                Err(_) => {
                    judge_kit::testing::skip("g++", &shown.to_string());
                    None
                }
                Ok(status) => {
                    assert!(status.success(), "g++ rejected {shown}");
                    Some((binary, Vec::new()))
                }
            }
        }
        _ => panic!("no way to run {shown}"),
    }
}

/// Plays `solution` on every test in order until the first that is not
/// accepted, as the judge does; returns that test's verdict, name and the
/// interactor's message, or `AC` when every test passed.
pub fn first_failure(
    interactor: &Path,
    solution: &Solution,
    tests: &[Test],
    deadline: Duration,
) -> (&'static str, String, String) {
    for test in tests {
        let (verdict, message) = play_one(interactor, solution, test, deadline);
        if verdict != "AC" {
            return (verdict, test.name.clone(), message);
        }
    }
    ("AC", String::new(), String::new())
}

/// Plays `solution` on one test: the verdict and the interactor's message.
pub fn play_one(
    interactor: &Path,
    solution: &Solution,
    test: &Test,
    deadline: Duration,
) -> (&'static str, String) {
    let mut command = Command::new(&solution.program);
    // The crashing solutions' panic messages are expected, not news.
    command.args(&solution.args).stderr(Stdio::null());
    let played = play_within(
        Command::new(interactor),
        command,
        &test.input,
        &test.answer,
        deadline,
    );
    (verdict(&played), played.judgemessage)
}

/// Each wrong strategy loses on every test built to trap it: for each
/// `(binary, kind)`, the solution gets WA on every test whose name holds
/// `kind` (and there is at least one).
pub fn assert_traps_catch(
    package_dir: &Path,
    tools_package: &str,
    interactor_bin: &str,
    traps: &[(&str, &str)],
) {
    let interactor = workspace_binary(tools_package, interactor_bin);
    let tests = committed_tests(package_dir);
    for &(bin, kind) in traps {
        let solution = Solution {
            name: bin.to_owned(),
            program: sibling_binary(bin),
            args: Vec::new(),
            expect: vec!["WA".to_owned()],
        };
        let trapping: Vec<&Test> = tests.iter().filter(|t| t.name.contains(kind)).collect();
        assert!(!trapping.is_empty(), "no {kind} test");
        for test in trapping {
            let (verdict, message) =
                play_one(&interactor, &solution, test, Duration::from_secs(10));
            assert_eq!(verdict, "WA", "{bin} on {}: {message}", test.name);
        }
    }
}

/// Every declared solution of the package gets one of its expected verdicts
/// against the interactor of `tools_package`, and at least `at_least`
/// solutions were played.
pub fn assert_expected_verdicts(
    package_dir: &Path,
    tools_package: &str,
    interactor_bin: &str,
    at_least: usize,
    deadline: Duration,
) {
    let interactor = workspace_binary(tools_package, interactor_bin);
    let tests = committed_tests(package_dir);
    let build = TempDir::new("solutions");
    let solutions = solutions(package_dir, &build);
    assert!(solutions.len() >= at_least, "{} solutions", solutions.len());
    let mut wrong = Vec::new();
    for solution in &solutions {
        let (verdict, test, message) = first_failure(&interactor, solution, &tests, deadline);
        println!("{}: {verdict} {test} {message}", solution.name);
        if !solution.expect.iter().any(|e| e == verdict) {
            wrong.push(format!(
                "{}: expected {:?}, got {verdict} on {test}: {message}",
                solution.name, solution.expect
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
