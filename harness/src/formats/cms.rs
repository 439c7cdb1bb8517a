//! CMS's "Italian" task layout (`cmscontrib/loaders/italy_yaml.py` reads
//! it): `task.yaml` (`name`, `title`, `time_limit` in seconds,
//! `memory_limit` in MiB, `n_input`, `infile`/`outfile`), the tests as
//! `input/inputN.txt` and `output/outputN.txt`, subtasks from the
//! `# ST: points` lines of `gen/GEN` (CMS's `GroupMin`; without them
//! `Sum`, `total_value` shared by the tests), a checker in
//! `check/checker.cpp` (or `cor/correttore.cpp`), a grader in
//! `sol/grader.cpp`, solutions in `sol/`. The format declares no verdict
//! for its solutions: `sol/soluzione.*` (or `solution.*`), the official
//! one, must score full points; the others are listed and not run.
//! A Communication task (a manager, `check/manager.cpp`, talking to the
//! solution, built with `sol/stub.cpp` if there is one) is interactive.
//! Output-only tasks, and tasks that read and write files, are refused on
//! their line.

use std::path::Path;
use std::time::Duration;

use super::error::{FormatError, FormatResult};
use super::ioi::{
    IoiTask, cms_program, cpp_grader, file_name, files_in, required, solution, submission, subtask,
    test_case,
};
use super::package::UserIo;
use super::package::{Aggregation, Expectation, ExpectationRule, Package, PackageFormat};
use super::program::language_of;
use super::yaml::YamlFile;
use crate::verdict::Verdict;

/// Reads the Italian-layout task in `dir`.
pub(crate) fn read_cms(dir: &Path) -> FormatResult<Package> {
    let path = dir.join("task.yaml");
    let yaml = YamlFile::read(&path)?;
    let root = yaml.root();
    let line = |key: &str| root.key_line(key).unwrap_or(1);
    let name = match (root.str("title")?, root.str("nome")?) {
        (Some(title), _) | (None, Some(title)) => title,
        (None, None) => file_name(dir),
    };
    let seconds = match (root.f64("time_limit")?, root.f64("timeout")?) {
        (Some(s), _) | (None, Some(s)) if s > 0.0 => s,
        _ => {
            return Err(FormatError::at(
                &path,
                1,
                "time_limit",
                "a time limit in seconds is needed",
            ));
        }
    };
    let memory_mib = match (root.f64("memory_limit")?, root.f64("memlimit")?) {
        (Some(mib), _) | (None, Some(mib)) => Some(mib as u64),
        (None, None) => None,
    };
    let manager = communication(dir, &root, &path)?;
    if manager.is_none() {
        refuse_files(&root, &path)?;
    }
    let n_input = root.f64("n_input")?.map(|n| n as usize);
    let subtasks = subtasks(dir, &root, n_input, &path)?;
    let count: usize = subtasks.iter().map(|(_, count)| count).sum();
    let mut task = IoiTask {
        format: PackageFormat::CmsItalian,
        dir: dir.to_path_buf(),
        name,
        time_limit: (
            Duration::from_secs_f64(seconds),
            format!("task.yaml line {} (time_limit)", line("time_limit")),
        ),
        memory_mib,
        tests: Vec::new(),
        groups: Vec::new(),
        checker: match manager {
            Some(_) => None,
            None => checker_of(dir)?,
        },
        manager,
        grader: None,
        submissions: Vec::new(),
        warnings: Vec::new(),
    };
    let sum = subtasks.len() == 1 && subtasks[0].0.is_none();
    let mut index = 0;
    for (k, (points, tests)) in subtasks.iter().enumerate() {
        let group = format!("subtask{}", k + 1);
        task.groups.push(match points {
            Some(points) => subtask(&group, *points, Aggregation::Min),
            None => subtask(&group, total_value(&root)?, Aggregation::Sum),
        });
        for _ in 0..*tests {
            let made = |path: std::path::PathBuf| {
                required(path).map_err(|e| FormatError {
                    message: "is missing: the tests must be in the task (CMS's cmsMake makes them from gen/GEN)".into(),
                    ..e
                })
            };
            let input = made(dir.join(format!("input/input{index}.txt")))?;
            let answer = made(dir.join(format!("output/output{index}.txt")))?;
            task.tests.push(test_case(
                format!("{group}/{index:03}"),
                input,
                answer,
                &group,
            ));
            index += 1;
        }
    }
    debug_assert_eq!(index, count);
    if sum {
        task.warnings.push(format!(
            "{}: no `# ST:` subtasks: scored by Sum, {} tests sharing {} points",
            dir.join("gen/GEN").display(),
            count,
            total_value(&root)?
        ));
    }
    read_solutions(dir, &mut task)?;
    Ok(task.into_package())
}

/// Whether the task is a Communication task (CMS: a manager in `check/`
/// or `cor/`; an output-only task is none, as CMS decides it first), and
/// then its manager, built from its source, and how solutions reach it:
/// `user_io` (`std_io`, or `fifo_io`, CMS's default when `sol/` has a
/// stub). One solution process only (`num_processes`).
fn communication(
    dir: &Path,
    root: &super::yaml::Map<'_>,
    path: &Path,
) -> FormatResult<Option<(super::package::Program, UserIo)>> {
    let line = |key: &str| root.key_line(key).unwrap_or(1);
    if root.bool("output_only")?.unwrap_or(false) {
        return Err(FormatError::at(
            path,
            line("output_only"),
            "output_only",
            "output-only tasks of this format are not supported",
        ));
    }
    let Some(folder) = ["check", "cor"].into_iter().find(|folder| {
        dir.join(folder).join("manager").exists() || dir.join(folder).join("manager.cpp").exists()
    }) else {
        return Ok(None);
    };
    let source = dir.join(folder).join("manager.cpp");
    if !source.is_file() {
        return Err(FormatError::file(
            &dir.join(folder).join("manager"),
            format!("the manager is run from its source, {folder}/manager.cpp, which is missing"),
        ));
    }
    if let Some(n) = root.f64("num_processes")?.filter(|&n| n != 1.0) {
        return Err(FormatError::at(
            path,
            line("num_processes"),
            "num_processes",
            format!("{n} solution processes talking to the manager are not supported (one is)"),
        ));
    }
    let user_io = match root.str("user_io")?.as_deref() {
        Some("std_io") => UserIo::Std,
        Some("fifo_io") => UserIo::Fifos,
        None if cpp_grader(&dir.join("sol"), "stub.cpp").is_some() => UserIo::Fifos,
        None => UserIo::Std,
        Some(other) => {
            return Err(FormatError::at(
                path,
                line("user_io"),
                "user_io",
                format!("`{other}` is not `std_io` or `fifo_io`"),
            ));
        }
    };
    Ok(Some((cms_program(&source)?, user_io)))
}

/// A Batch task reads and writes its standard streams: files instead
/// (`infile`/`outfile` not empty) are refused on their line.
fn refuse_files(root: &super::yaml::Map<'_>, path: &Path) -> FormatResult<()> {
    for (key, default) in [("infile", "input.txt"), ("outfile", "output.txt")] {
        // Present and empty (or null): the standard streams.
        let file = match root.key_line(key) {
            Some(_) => root.str(key)?.unwrap_or_default(),
            None => default.to_string(),
        };
        if !file.is_empty() {
            return Err(FormatError::at(
                path,
                root.key_line(key).unwrap_or(1),
                key,
                format!(
                    "reading and writing files (`{file}`, CMS's default when the key is missing) is not supported: set `{key}: \"\"` for standard input and output"
                ),
            ));
        }
    }
    Ok(())
}

/// The subtasks as (points, number of tests), in order; one of `None`
/// points when the task is scored by `Sum`. From `score_type` and
/// `score_type_parameters` when `task.yaml` gives both with `n_input` (as
/// CMS overrides), else from `gen/GEN`'s `# ST:` lines, else `n_input`
/// tests by `Sum`.
fn subtasks(
    dir: &Path,
    root: &super::yaml::Map<'_>,
    n_input: Option<usize>,
    path: &Path,
) -> FormatResult<Vec<(Option<f64>, usize)>> {
    let (score_type, parameters) = (root.str("score_type")?, root.get("score_type_parameters"));
    if let (Some(score_type), Some(parameters), Some(n)) = (&score_type, &parameters, n_input) {
        return match score_type.as_str() {
            "Sum" => Ok(vec![(None, n)]),
            "GroupMin" => parameters
                .items()?
                .iter()
                .map(|item| {
                    let pair = item.items()?;
                    match (pair.first(), pair.get(1)) {
                        (Some(points), Some(count)) => {
                            Ok((Some(points.number()?), count.unsigned()? as usize))
                        }
                        _ => Err(item.error("a subtask is [points, number of tests]")),
                    }
                })
                .collect(),
            other => Err(FormatError::at(
                path,
                root.key_line("score_type").unwrap_or(1),
                "score_type",
                format!("`{other}` is not supported (Sum and GroupMin are)"),
            )),
        };
    }
    let gen_file = dir.join("gen/GEN");
    let Ok(text) = std::fs::read_to_string(&gen_file) else {
        let n = n_input.ok_or_else(|| {
            FormatError::at(path, 1, "n_input", "without gen/GEN, `n_input` is needed")
        })?;
        return Ok(vec![(None, n)]);
    };
    let subtasks = gen_subtasks(&gen_file, &text)?;
    let count: usize = subtasks.iter().map(|(_, c)| c).sum();
    if let Some(n) = n_input.filter(|&n| n != count) {
        return Err(FormatError::at(
            path,
            root.key_line("n_input").unwrap_or(1),
            "n_input",
            format!("says {n} tests, gen/GEN makes {count}"),
        ));
    }
    Ok(subtasks)
}

/// `gen/GEN` as CMS reads it: a line not blank before a `#` makes a test,
/// so does a `# COPY:` comment; `# ST: points` starts a subtask.
fn gen_subtasks(gen_file: &Path, text: &str) -> FormatResult<Vec<(Option<f64>, usize)>> {
    let mut subtasks: Vec<(Option<f64>, usize)> = Vec::new();
    let mut loose = 0;
    for (number, line) in text.lines().enumerate() {
        let (command, comment) = match line.split_once('#') {
            Some((command, comment)) => (command.trim(), comment.trim()),
            None => (line.trim(), ""),
        };
        let makes_test = !command.is_empty() || comment.starts_with("COPY:");
        if let Some(points) = comment.strip_prefix("ST:") {
            if !command.is_empty() {
                return Err(FormatError::at(
                    gen_file,
                    number + 1,
                    "ST:",
                    "a test and a subtask on one line",
                ));
            }
            let points: f64 = points.trim().parse().map_err(|_| {
                FormatError::at(
                    gen_file,
                    number + 1,
                    "ST:",
                    format!("`{}` is not a number of points", points.trim()),
                )
            })?;
            subtasks.push((Some(points), 0));
        } else if makes_test {
            match subtasks.last_mut() {
                Some((_, count)) => *count += 1,
                None => loose += 1,
            }
        }
    }
    match (subtasks.is_empty(), loose) {
        (true, n) => Ok(vec![(None, n)]),
        (false, 0) => Ok(subtasks),
        (false, _) => Err(FormatError::file(
            gen_file,
            "tests before the first `# ST:` line",
        )),
    }
}

fn total_value(root: &super::yaml::Map<'_>) -> FormatResult<f64> {
    Ok(root.f64("total_value")?.unwrap_or(100.0))
}

/// `check/checker.cpp` (or `cor/correttore.cpp`), the source of the
/// checker CMS runs as `check/checker`.
fn checker_of(dir: &Path) -> FormatResult<Option<super::package::Program>> {
    for (source, binary) in [
        ("check/checker.cpp", "check/checker"),
        ("cor/correttore.cpp", "cor/correttore"),
    ] {
        if dir.join(source).is_file() {
            return cms_program(&dir.join(source)).map(Some);
        }
        if dir.join(binary).exists() {
            return Err(FormatError::file(
                &dir.join(binary),
                format!("the checker is run from its source, {source}, which is missing"),
            ));
        }
    }
    Ok(None)
}

/// The solutions in `sol/`: the official one must score full points, the
/// others (the format declares nothing of them) are listed and not run.
fn read_solutions(dir: &Path, task: &mut IoiTask) -> FormatResult<()> {
    let sol = dir.join("sol");
    // A Communication task's solutions are built with its stub, if any
    // (CMS's "stub" compilation), never with a Batch grader.
    let grader = match task.manager {
        Some(_) => cpp_grader(&sol, "stub.cpp"),
        None => cpp_grader(&sol, "grader.cpp"),
    };
    for path in files_in(&sol) {
        let name = format!("sol/{}", file_name(&path));
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if language_of(&path).is_none() || ["grader", "stub"].contains(&stem.as_str()) {
            continue;
        }
        if !["soluzione", "solution"].contains(&stem.as_str()) {
            task.warnings.push(format!(
                "{name}: the format declares no verdict for it: not run"
            ));
            continue;
        }
        match solution(&path, &name, grader.as_ref())? {
            Ok(program) => task.submissions.push(submission(
                program,
                Expectation::Rules(vec![ExpectationRule {
                    tests: None,
                    permitted: Some(vec![Verdict::Accepted]),
                    required: None,
                    score: Some((100.0, 100.0)),
                    message: None,
                    origin: "the official solution (sol/soluzione)".into(),
                }]),
                "the official solution".into(),
            )),
            Err(why) => task.warnings.push(why),
        }
    }
    task.grader = grader;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gen_makes_a_subtask_of_each_st_line_and_a_test_of_each_command() {
        let gen_file = Path::new("gen/GEN");
        let text = "# a comment\n# ST: 30\ngen 1\n# COPY: manual.txt\n\n# ST: 70\ngen 2 # big\n";
        let read = gen_subtasks(gen_file, text).unwrap();
        assert_eq!(read, vec![(Some(30.0), 2), (Some(70.0), 1)]);
        assert_eq!(
            gen_subtasks(gen_file, "gen 1\ngen 2\n").unwrap(),
            vec![(None, 2)]
        );
        let error = gen_subtasks(gen_file, "gen 0\n# ST: 100\ngen 1\n").unwrap_err();
        assert!(
            error.to_string().contains("before the first `# ST:`"),
            "{error}"
        );
        let error = gen_subtasks(gen_file, "# ST: many\n").unwrap_err();
        assert_eq!(error.line, Some(1), "{error}");
    }
}
