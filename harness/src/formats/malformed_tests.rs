//! Broken packages: each error names the file, the line and the field.
//! Every test copies a fixture package and breaks one thing in it.

use std::path::{Path, PathBuf};

use super::*;

/// A copy of fixture `id` (symlinks kept as symlinks) in a temporary folder.
pub(super) fn copy_fixture(id: &str) -> (tempfile::TempDir, PathBuf) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ecosystem/problems")
        .join(id);
    let temp = tempfile::tempdir().unwrap();
    let target = temp.path().join(id);
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.unwrap();
        let to = target.join(entry.path().strip_prefix(&source).unwrap());
        if entry.path_is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &to).unwrap();
        } else if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    (temp, target)
}

pub(super) fn replace(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

fn line_of(path: &Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    1 + text
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no {needle:?}"))
}

pub(super) fn error_of(dir: &Path) -> FormatError {
    match read_package(dir) {
        Some(Err(error)) => error,
        Some(Ok(_)) => panic!("{} was read without error", dir.display()),
        None => panic!("{} is no package", dir.display()),
    }
}

/// Asserts the error points at `file` (relative to the package), `line`
/// and `field`, and mentions `words`.
fn assert_error(
    error: &FormatError,
    dir: &Path,
    file: &str,
    line: Option<usize>,
    field: Option<&str>,
    words: &str,
) {
    assert_eq!(error.path, dir.join(file), "{error}");
    assert_eq!(error.line, line, "{error}");
    assert_eq!(error.field.as_deref(), field, "{error}");
    assert!(error.message.contains(words), "{error}");
}

#[test]
fn unknown_legacy_limit_names_its_line_and_key() {
    let (_temp, dir) = copy_fixture("nimmove");
    let yaml = dir.join("problem.yaml");
    replace(&yaml, "  time_multiplier: 5", "  time_multipler: 5");
    let line = line_of(&yaml, "time_multipler");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.yaml",
        Some(line),
        Some("limits.time_multipler"),
        "unknown key",
    );
}

#[test]
fn bad_legacy_validation_and_memory() {
    let (_temp, dir) = copy_fixture("nimmove");
    let yaml = dir.join("problem.yaml");
    replace(&yaml, "validation: custom", "validation: custom fancy");
    let line = line_of(&yaml, "validation:");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.yaml",
        Some(line),
        Some("validation"),
        "fancy",
    );

    let (_temp, dir) = copy_fixture("nimmove");
    let yaml = dir.join("problem.yaml");
    replace(&yaml, "memory: 256", "memory: lots");
    let line = line_of(&yaml, "memory:");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.yaml",
        Some(line),
        Some("limits.memory"),
        "integer",
    );
}

#[test]
fn yaml_syntax_and_duplicate_keys() {
    let (_temp, dir) = copy_fixture("nimduel");
    let yaml = dir.join("problem.yaml");
    replace(
        &yaml,
        "limits:\n  memory: 256",
        "limits:\n  memory: 256\n  memory: 512",
    );
    let line = line_of(&yaml, "memory: 512");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.yaml",
        Some(line),
        None,
        "duplicate key `memory`",
    );

    let (_temp, dir) = copy_fixture("nimduel");
    let yaml = dir.join("problem.yaml");
    replace(&yaml, "name: Nim Duel", "name: [Nim Duel");
    let error = error_of(&dir);
    assert_eq!(error.path, yaml);
    assert!(
        error.line.is_some() && error.message.contains("invalid YAML"),
        "{error}"
    );
}

#[test]
fn unsupported_version_and_missing_custom_validator() {
    let (_temp, dir) = copy_fixture("subtraction");
    let yaml = dir.join("problem.yaml");
    replace(
        &yaml,
        "problem_format_version: 2025-09",
        "problem_format_version: 2024-01",
    );
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.yaml",
        Some(3),
        Some("problem_format_version"),
        "not a version of the format",
    );

    let (_temp, dir) = copy_fixture("nimmove");
    std::fs::remove_dir_all(dir.join("output_validators/nimmove_checker")).unwrap();
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.yaml",
        None,
        None,
        "output_validators/",
    );
}

#[test]
fn test_group_errors_name_the_group_file() {
    let (_temp, dir) = copy_fixture("subtraction");
    let group = dir.join("data/secret/group2/test_group.yaml");
    replace(&group, "score_aggregation: sum", "score_aggregation: max");
    let line = line_of(&group, "score_aggregation");
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/group2/test_group.yaml",
        Some(line),
        Some("score_aggregation"),
        "`max`",
    );

    let (_temp, dir) = copy_fixture("subtraction");
    replace(
        &dir.join("data/secret/group1/test_group.yaml"),
        "max_score: 40",
        "",
    );
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/group1/test_group.yaml",
        None,
        None,
        "`max_score` is required",
    );

    let (_temp, dir) = copy_fixture("subtraction");
    replace(
        &dir.join("data/secret/group2/test_group.yaml"),
        "secret/group1]",
        "secret/group3]",
    );
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/group2/test_group.yaml",
        None,
        None,
        "secret/group3",
    );
}

#[test]
fn scoring_keys_in_a_pass_fail_problem() {
    let (_temp, dir) = copy_fixture("subtraction");
    replace(
        &dir.join("problem.yaml"),
        "type: scoring",
        "type: pass-fail",
    );
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/group1/test_group.yaml",
        Some(2),
        Some("max_score"),
        "pass-fail",
    );
}

#[test]
fn submissions_yaml_errors() {
    let (_temp, dir) = copy_fixture("subtraction");
    let yaml = dir.join("submissions/submissions.yaml");
    replace(&yaml, "permitted: [AC, TLE]", "permitted: [AC, OK]");
    let line = line_of(&yaml, "permitted: [AC, OK]");
    assert_error(
        &error_of(&dir),
        &dir,
        "submissions/submissions.yaml",
        Some(line),
        Some("partial.permitted[1]"),
        "`OK`",
    );

    let (_temp, dir) = copy_fixture("subtraction");
    let yaml = dir.join("submissions/submissions.yaml");
    replace(&yaml, "accepted/cycle.cpp:", "accepted/**:");
    let line = line_of(&yaml, "model_solution");
    let error = error_of(&dir);
    assert_error(
        &error,
        &dir,
        "submissions/submissions.yaml",
        Some(line),
        Some("accepted/**"),
        "`**`",
    );
}

#[test]
fn test_data_errors_name_the_file() {
    let (_temp, dir) = copy_fixture("nimmove");
    std::fs::remove_file(dir.join("data/secret/04-large-won.ans")).unwrap();
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/04-large-won.in",
        None,
        None,
        ".ans",
    );

    let (_temp, dir) = copy_fixture("subtraction");
    let outside = dir.parent().unwrap().join("elsewhere.in");
    std::fs::write(&outside, "1 1\n1\n").unwrap();
    let link = dir.join("data/secret/group2/02-medium.in");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/group2/02-medium.in",
        None,
        None,
        "outside the package",
    );

    let (_temp, dir) = copy_fixture("subtraction");
    std::fs::write(dir.join("data/secret/group1/05-stray.ans"), "first\n").unwrap();
    assert_error(
        &error_of(&dir),
        &dir,
        "data/secret/group1/05-stray.ans",
        None,
        None,
        "without its .in",
    );
}

#[test]
fn polygon_errors_name_the_element_and_line() {
    let (_temp, dir) = copy_fixture("pebbles");
    let xml = dir.join("problem.xml");
    replace(
        &xml,
        "<time-limit>1000</time-limit>",
        "<time-limit>fast</time-limit>",
    );
    let line = line_of(&xml, "<time-limit>");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.xml",
        Some(line),
        Some("<time-limit>"),
        "not a number",
    );

    let (_temp, dir) = copy_fixture("pebbles");
    std::fs::remove_file(dir.join("tests/08")).unwrap();
    let line = line_of(
        &dir.join("problem.xml"),
        "gen 100000 10 1000000000000000000 2",
    );
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.xml",
        Some(line),
        Some("<test>"),
        "tests/08 is missing: generated",
    );

    let (_temp, dir) = copy_fixture("pebbles");
    let xml = dir.join("problem.xml");
    replace(
        &xml,
        "<solution tag=\"rejected\">",
        "<solution tag=\"very-wrong\">",
    );
    let line = line_of(&xml, "very-wrong");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.xml",
        Some(line),
        Some("tag"),
        "very-wrong",
    );

    let (_temp, dir) = copy_fixture("countdown");
    let xml = dir.join("problem.xml");
    replace(&xml, "</names>", "</nams>");
    let error = error_of(&dir);
    assert_eq!(
        (error.path.clone(), error.line),
        (xml.clone(), Some(line_of(&xml, "</nams>"))),
        "{error}"
    );

    let (_temp, dir) = copy_fixture("countdown");
    let xml = dir.join("problem.xml");
    replace(&xml, "input-file=\"\"", "input-file=\"input.txt\"");
    let line = line_of(&xml, "input.txt");
    assert_error(
        &error_of(&dir),
        &dir,
        "problem.xml",
        Some(line),
        Some("input-file"),
        "not supported",
    );
}

#[test]
fn tolerated_with_warnings() {
    let (_temp, dir) = copy_fixture("subtraction");
    let yaml = dir.join("problem.yaml");
    replace(
        &yaml,
        "type: scoring",
        "type: scoring interactive\nsource_url: https://example.com",
    );
    std::fs::create_dir_all(dir.join("output_validator")).unwrap();
    std::fs::write(dir.join("output_validator/referee.py"), "exit(42)\n").unwrap();
    std::fs::write(
        dir.join("submissions/accepted/notes.txt"),
        "not a program\n",
    )
    .unwrap();
    let package = match read_package(&dir) {
        Some(Ok(package)) => package,
        other => panic!("{other:?}"),
    };
    assert_eq!(package.interaction, Interaction::Interactive);
    assert!(package.scoring);
    let line = line_of(&yaml, "source_url");
    assert!(
        package.warnings.iter().any(|w| w.ends_with(&format!(
            "problem.yaml:{line}: `source_url` is a legacy key, read as source.url"
        ))),
        "{:?}",
        package.warnings
    );
    assert!(
        package
            .warnings
            .iter()
            .any(|w| w.contains("notes.txt: unknown language")),
        "{:?}",
        package.warnings
    );
    assert!(
        !package
            .submissions
            .iter()
            .any(|s| s.program.name.ends_with("notes.txt"))
    );
}
