//! TPS (the IOI 2017 Task Preparation System) tasks, as its documentation
//! lays them out and CMS's `cmscontrib/loaders/tps.py` imports them:
//! `problem.json` (`title`, `type`, `time_limit` in seconds,
//! `memory_limit` in MB), `subtasks.json` (each subtask's `index` and
//! `score`), the tests in `tests/` (`NAME.in`, `NAME.out`) with
//! `tests/mapping` (a line `subtask test` for each test of each subtask: a
//! test may be in several), a checker in `checker/checker.cpp` (CMS's
//! protocol), a grader in `grader/cpp/`, and the solutions in `solution/`
//! with their verdicts in `solutions.json` (`correct`, `model_solution`,
//! `incorrect`, `time_limit`, `memory_limit`, `runtime_error`, `failed`,
//! `time_limit_and_runtime_error`, `partially_correct`, and `except` by
//! subtask). Subtasks are scored by CMS's `GroupMin`; a test in several
//! subtasks is judged in each (`subtask/test`). `Batch` and
//! `Communication` tasks: the latter's manager, `grader/manager.cpp`,
//! talks to the solution (built with the grader, its stub) through FIFOs
//! and writes its outcome in CMS's protocol, as CMS runs it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::error::{FormatError, FormatResult};
use super::ioi::{
    IoiTask, cms_program, cpp_grader, file_name, required, solution, submission, subtask, test_case,
};
use super::package::UserIo;
use super::package::{Aggregation, Expectation, ExpectationRule, Package, PackageFormat};
use crate::verdict::Verdict;

/// Reads the TPS task in `dir`.
pub(crate) fn read_tps(dir: &Path) -> FormatResult<Package> {
    let path = dir.join("problem.json");
    let problem = json(&path)?;
    let field = |key: &str| problem.get(key).filter(|v| !v.is_null());
    let kind = field("type").and_then(Value::as_str).unwrap_or("Batch");
    let manager = match kind {
        "Batch" => None,
        "Communication" => Some(communication(dir, &problem, &path)?),
        _ => {
            return Err(FormatError::file(
                &path,
                format!(
                    "`type`: {kind} tasks are not supported (Batch and Communication tasks are)"
                ),
            ));
        }
    };
    let seconds = field("time_limit")
        .and_then(Value::as_f64)
        .filter(|s| *s > 0.0)
        .ok_or_else(|| FormatError::file(&path, "`time_limit`: a number of seconds is needed"))?;
    let name = field("title")
        .or(field("name"))
        .and_then(Value::as_str)
        .map_or_else(|| file_name(dir), str::to_string);
    let mut task = IoiTask {
        format: PackageFormat::Tps,
        dir: dir.to_path_buf(),
        name,
        time_limit: (
            Duration::from_secs_f64(seconds),
            "problem.json (time_limit)".into(),
        ),
        memory_mib: field("memory_limit").and_then(Value::as_u64),
        tests: Vec::new(),
        groups: Vec::new(),
        checker: checker(dir, &problem, manager.is_some())?,
        manager,
        grader: None,
        submissions: Vec::new(),
        warnings: Vec::new(),
    };
    let subtasks = read_subtasks(dir)?;
    let mapping = read_mapping(dir, &subtasks)?;
    for (subtask_name, points) in &subtasks {
        task.groups
            .push(subtask(subtask_name, *points, Aggregation::Min));
        for test in mapping.get(subtask_name).into_iter().flatten() {
            let input = required(dir.join(format!("tests/{test}.in")))?;
            let answer = required(dir.join(format!("tests/{test}.out")))?;
            task.tests.push(test_case(
                format!("{subtask_name}/{test}"),
                input,
                answer,
                subtask_name,
            ));
        }
    }
    let names: Vec<&str> = subtasks.iter().map(|(n, _)| n.as_str()).collect();
    // The grader's file name (`grader`, or a Communication task's `stub`).
    let grader_name = field("grader_name")
        .and_then(Value::as_str)
        .unwrap_or("grader");
    read_solutions(dir, &names, grader_name, &mut task)?;
    Ok(task.into_package())
}

/// The task's checker, `checker/checker.cpp` in CMS's protocol. A Batch
/// task's output is judged by it when it is there, unless `has_checker`
/// is false (else by `white-diff`); a
/// Communication task's manager writes its outcome itself unless
/// `has_checker` is true (TPS's default for Communication: false), when
/// the checker judges the manager's output, as TPS's `check_test.sh` runs
/// it (`checker input answer manager_output`).
fn checker(
    dir: &Path,
    problem: &Value,
    communication: bool,
) -> FormatResult<Option<super::package::Program>> {
    let source = dir.join("checker/checker.cpp");
    let has_checker = problem.get("has_checker").and_then(Value::as_bool);
    match communication {
        false if source.is_file() && has_checker != Some(false) => Ok(Some(cms_program(&source)?)),
        true if has_checker == Some(true) => {
            let source = required(source).map_err(|e| FormatError {
                message: "is missing: problem.json's `has_checker` is true".into(),
                ..e
            })?;
            Ok(Some(cms_program(&source)?))
        }
        _ => Ok(None),
    }
}

/// A Communication task's manager, `grader/manager.cpp`, and how
/// solutions reach it (`user_io`: `fifo_io`, TPS's default, or `std_io`).
/// More than one solution process (`num_processes`) is refused.
fn communication(
    dir: &Path,
    problem: &Value,
    path: &Path,
) -> FormatResult<(super::package::Program, UserIo)> {
    let field = |key: &str| problem.get(key).filter(|v| !v.is_null());
    if let Some(n) = field("num_processes")
        .and_then(Value::as_f64)
        .filter(|&n| n != 1.0)
    {
        return Err(FormatError::file(
            path,
            format!(
                "`num_processes`: {n} solution processes talking to the manager are not supported (one is)"
            ),
        ));
    }
    let user_io = match field("user_io").and_then(Value::as_str) {
        None | Some("fifo_io") => UserIo::Fifos,
        Some("std_io") => UserIo::Std,
        Some(other) => {
            return Err(FormatError::file(
                path,
                format!("`user_io`: `{other}` is not `std_io` or `fifo_io`"),
            ));
        }
    };
    let manager = required(dir.join("grader/manager.cpp")).map_err(|e| FormatError {
        message: "is missing: a Communication task's manager".into(),
        ..e
    })?;
    Ok((cms_program(&manager)?, user_io))
}

fn json(path: &Path) -> FormatResult<Value> {
    let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, &e))?;
    serde_json::from_str(&text).map_err(|e| FormatError {
        path: path.to_path_buf(),
        line: Some(e.line()),
        field: None,
        message: e.to_string(),
    })
}

/// `subtasks.json`'s subtasks, in the order of their `index`, with their
/// scores.
fn read_subtasks(dir: &Path) -> FormatResult<Vec<(String, f64)>> {
    let path = dir.join("subtasks.json");
    let root = json(&path)?;
    let Some(subtasks) = root.get("subtasks").and_then(Value::as_object) else {
        return Err(FormatError::file(
            &path,
            "`subtasks`: a map of subtasks is needed",
        ));
    };
    let mut read = Vec::new();
    for (name, subtask) in subtasks {
        let number = |key: &str| {
            subtask.get(key).and_then(Value::as_f64).ok_or_else(|| {
                FormatError::file(
                    &path,
                    format!("`subtasks.{name}.{key}`: a number is needed"),
                )
            })
        };
        read.push((number("index")?, name.clone(), number("score")?));
    }
    read.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(read
        .into_iter()
        .map(|(_, name, score)| (name, score))
        .collect())
}

/// `tests/mapping`: the tests of each subtask, in the file's order.
fn read_mapping(
    dir: &Path,
    subtasks: &[(String, f64)],
) -> FormatResult<BTreeMap<String, Vec<String>>> {
    let path = dir.join("tests/mapping");
    let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
    let mut mapping: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [subtask, test] if subtasks.iter().any(|(name, _)| name == subtask) => {
                mapping
                    .entry(subtask.to_string())
                    .or_default()
                    .push(test.to_string());
            }
            [subtask, _] => {
                return Err(FormatError::at(
                    &path,
                    number + 1,
                    *subtask,
                    "not a subtask of subtasks.json",
                ));
            }
            _ => {
                return Err(FormatError::at(
                    &path,
                    number + 1,
                    line,
                    "a line is `subtask test`",
                ));
            }
        }
    }
    Ok(mapping)
}

/// The solutions `solutions.json` names, each held to its verdict (and
/// its `except` verdicts by subtask); a solution not named is listed and
/// not run.
fn read_solutions(
    dir: &Path,
    subtasks: &[&str],
    grader_name: &str,
    task: &mut IoiTask,
) -> FormatResult<()> {
    let path = dir.join("solutions.json");
    let verdicts = json(&path)?;
    let Some(verdicts) = verdicts.as_object() else {
        return Err(FormatError::file(
            &path,
            "a map from solution file to its verdict is needed",
        ));
    };
    let grader = cpp_grader(&dir.join("grader/cpp"), &format!("{grader_name}.cpp"));
    for (file, said) in verdicts {
        let origin = format!("solutions.json: {file}");
        fn verdict_of<'v>(
            value: Option<&'v Value>,
            path: &Path,
            what: String,
        ) -> FormatResult<&'v str> {
            value
                .and_then(Value::as_str)
                .ok_or_else(|| FormatError::file(path, format!("`{what}`: a verdict is needed")))
        }
        let main = verdict_of(said.get("verdict"), &path, format!("{file}.verdict"))?;
        let except: BTreeMap<String, String> = said
            .get("except")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(subtask, v)| {
                let verdict = verdict_of(Some(v), &path, format!("{file}.except.{subtask}"))?;
                Ok((subtask.clone(), verdict.to_string()))
            })
            .collect::<FormatResult<_>>()?;
        let mut rules = Vec::new();
        let others: Vec<&str> = subtasks
            .iter()
            .copied()
            .filter(|s| !except.contains_key(*s))
            .collect();
        if !others.is_empty() {
            rules.push(rule(
                main,
                format!("{{{}}}", others.join(",")),
                &origin,
                &path,
                file,
            )?);
        }
        for (subtask, verdict) in &except {
            rules.push(rule(verdict, subtask.clone(), &origin, &path, file)?);
        }
        let program_path = dir.join("solution").join(file);
        match solution(
            &required(program_path)?,
            &format!("solution/{file}"),
            grader.as_ref(),
        )? {
            Ok(program) => {
                task.submissions
                    .push(submission(program, Expectation::Rules(rules), origin))
            }
            Err(why) => task.warnings.push(why),
        }
    }
    task.grader = grader;
    Ok(())
}

/// A TPS verdict over the tests of `tests` (a glob of subtasks): which
/// verdicts every test may get and which one must.
fn rule(
    verdict: &str,
    tests: String,
    origin: &str,
    path: &Path,
    file: &str,
) -> FormatResult<ExpectationRule> {
    use Verdict::*;
    let (permitted, required): (Option<Vec<Verdict>>, Option<Vec<Verdict>>) = match verdict {
        "correct" | "model_solution" => (Some(vec![Accepted]), None),
        "incorrect" => (Some(vec![Accepted, WrongAnswer]), Some(vec![WrongAnswer])),
        "time_limit" => (
            Some(vec![Accepted, TimeLimitExceeded]),
            Some(vec![TimeLimitExceeded]),
        ),
        "memory_limit" => (
            Some(vec![Accepted, MemoryLimitExceeded]),
            Some(vec![MemoryLimitExceeded]),
        ),
        "runtime_error" => (Some(vec![Accepted, RuntimeError]), Some(vec![RuntimeError])),
        "time_limit_and_runtime_error" => (
            Some(vec![Accepted, TimeLimitExceeded, RuntimeError]),
            Some(vec![TimeLimitExceeded, RuntimeError]),
        ),
        "failed" => (
            None,
            Some(vec![
                WrongAnswer,
                TimeLimitExceeded,
                MemoryLimitExceeded,
                RuntimeError,
                OutputLimitExceeded,
            ]),
        ),
        // Some test is given a part of its points (the checker's fraction
        // is an accepted test's share), or none.
        "partially_correct" => (Some(vec![Accepted, WrongAnswer]), None),
        other => {
            return Err(FormatError::file(
                path,
                format!("`{file}`: `{other}` is not a TPS verdict"),
            ));
        }
    };
    Ok(ExpectationRule {
        tests: Some(tests),
        permitted,
        required,
        score: None,
        message: None,
        origin: format!("{origin} ({verdict})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapping_line_of_an_unknown_subtask_is_refused_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tests")).unwrap();
        std::fs::write(dir.path().join("tests/mapping"), "full 01\nfill 02\n").unwrap();
        let subtasks = [("full".to_string(), 100.0)];
        let error = read_mapping(dir.path(), &subtasks).unwrap_err();
        assert_eq!(error.line, Some(2), "{error}");
        assert!(
            error.to_string().contains("not a subtask of subtasks.json"),
            "{error}"
        );
    }

    #[test]
    fn a_verdict_with_exceptions_is_a_rule_per_subtask() {
        let main = rule(
            "incorrect",
            "{full}".into(),
            "solutions.json: a",
            Path::new("s"),
            "a",
        )
        .unwrap();
        assert_eq!(main.required, Some(vec![Verdict::WrongAnswer]));
        assert_eq!(main.tests.as_deref(), Some("{full}"));
        let error = rule(
            "wrong",
            "full".into(),
            "o",
            Path::new("solutions.json"),
            "a.cpp",
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("`wrong` is not a TPS verdict"),
            "{error}"
        );
    }
}
