//! The `tests` testset of a Polygon package: tests `tests/NN` with answers
//! `tests/NN.a` (every file must be there: a full package), groups with
//! their points policy and dependencies, and the self-tests of the checker
//! and validators.

use std::path::{Path, PathBuf};

use roxmltree::Node;

use super::Xml;
use crate::formats::error::FormatResult;
use crate::formats::package::{
    Aggregation, InputSelfTest, MaxScore, OutputSelfTest, TestCase, TestGroup, ValidatorArgs,
};
use crate::verdict::Verdict;

/// `tests/%02d` with test number `n` → `tests/07`.
fn expand_pattern(pattern: &str, n: usize) -> Option<String> {
    let start = pattern.find('%')?;
    let rest = &pattern[start + 1..];
    let end = rest.find('d')?;
    let spec = &rest[..end];
    let width: usize = if spec.is_empty() {
        0
    } else {
        spec.trim_start_matches('0').parse().ok()?
    };
    Some(format!(
        "{}{n:0width$}{}",
        &pattern[..start],
        &rest[end + 1..]
    ))
}

/// Polygon runs validators with the testset and, in a group, its name.
fn validator_args(group: Option<&str>) -> ValidatorArgs {
    let mut args = vec!["--testset".to_string(), "tests".to_string()];
    if let Some(group) = group {
        args.extend(["--group".to_string(), group.to_string()]);
    }
    ValidatorArgs::Same(args)
}

pub(super) fn read_tests(
    xml: &Xml<'_>,
    testset: Node<'_, '_>,
    dir: &Path,
) -> FormatResult<(Vec<TestCase>, Vec<TestGroup>)> {
    let tests = read_test_cases(xml, testset, dir)?;
    let mut groups = match xml.child(testset, "groups") {
        Some(list) => read_groups(xml, list, &tests)?,
        None => Vec::new(),
    };
    add_unlisted_groups(&tests, &mut groups);
    Ok((tests, groups))
}

/// The `<test>` elements, as many as `<test-count>` says, each with its
/// input and answer found by the testset's path patterns.
fn read_test_cases(
    xml: &Xml<'_>,
    testset: Node<'_, '_>,
    dir: &Path,
) -> FormatResult<Vec<TestCase>> {
    let count: usize = xml.text(testset, "test-count")?;
    let patterns = TestPatterns {
        input: xml.text(testset, "input-path-pattern")?,
        answer: xml.text(testset, "answer-path-pattern")?,
    };
    let tests_node = xml.require(testset, "tests")?;
    let nodes: Vec<Node<'_, '_>> = xml.children(tests_node, "test").collect();
    if nodes.len() != count {
        return Err(xml.error(
            tests_node,
            "<tests>",
            format!(
                "{} <test> elements, but <test-count> is {count}",
                nodes.len()
            ),
        ));
    }
    nodes
        .iter()
        .enumerate()
        .map(|(index, node)| read_test(xml, *node, index + 1, &patterns, dir))
        .collect()
}

/// The testset's `<input-path-pattern>` and `<answer-path-pattern>`.
struct TestPatterns {
    input: String,
    answer: String,
}

/// Test `number`: its files must be in the package (a full package holds
/// generated tests too); its group, points and generator command.
fn read_test(
    xml: &Xml<'_>,
    node: Node<'_, '_>,
    number: usize,
    patterns: &TestPatterns,
    dir: &Path,
) -> FormatResult<TestCase> {
    let pattern_error = || xml.error(node, "<input-path-pattern>", "not a %d pattern");
    let input_rel = expand_pattern(&patterns.input, number).ok_or_else(pattern_error)?;
    let answer_rel = expand_pattern(&patterns.answer, number).ok_or_else(pattern_error)?;
    let (input, answer) = (dir.join(&input_rel), dir.join(&answer_rel));
    if !input.is_file() {
        let why = if node.attribute("method") == Some("generated") {
            "is missing: generated tests must be in the package (download the full package)"
        } else {
            "is missing"
        };
        return Err(xml.error(node, "<test>", format!("test {number}: {input_rel} {why}")));
    }
    if !answer.is_file() {
        return Err(xml.error(
            node,
            "<test>",
            format!("test {number}: answer {answer_rel} is missing"),
        ));
    }
    Ok(TestCase {
        name: input
            .file_name()
            .map_or_else(|| number.to_string(), |n| n.to_string_lossy().into_owned()),
        input,
        answer,
        sample: node.attribute("sample") == Some("true"),
        group: node.attribute("group").map(str::to_string),
        symlink_target: None,
        files_dir: None,
        args: Vec::new(),
        input_validator_args: validator_args(node.attribute("group")),
        answer_validator_args: Default::default(),
        output_validator_args: Vec::new(),
        output_visualizer_args: Vec::new(),
        points: xml.attr_f64(node, "points")?,
        generator_command: node.attribute("cmd").map(str::to_string),
        description: node.attribute("description").map(str::to_string),
        hint: None,
    })
}

/// The points of `group`'s tests together.
fn group_points(tests: &[TestCase], group: &str) -> f64 {
    tests
        .iter()
        .filter(|t| t.group.as_deref() == Some(group))
        .filter_map(|t| t.points)
        .sum()
}

/// The `<group>` elements of `<groups>`: points policy, points (by default
/// its tests' points) and the groups it depends on.
fn read_groups(
    xml: &Xml<'_>,
    list: Node<'_, '_>,
    tests: &[TestCase],
) -> FormatResult<Vec<TestGroup>> {
    let mut groups = Vec::new();
    for node in xml.children(list, "group") {
        let name = node
            .attribute("name")
            .ok_or_else(|| xml.error(node, "name", "a <group> needs a name"))?
            .to_string();
        let aggregation = match node.attribute("points-policy") {
            Some("each-test") | None => Aggregation::Sum,
            Some("complete-group") => Aggregation::PassFail,
            Some(other) => {
                return Err(xml.error(node, "points-policy", format!("unknown policy `{other}`")));
            }
        };
        let points = match xml.attr_f64(node, "points")? {
            Some(points) => points,
            None => group_points(tests, &name),
        };
        let require_pass = xml
            .child(node, "dependencies")
            .map(|deps| {
                xml.children(deps, "dependency")
                    .filter_map(|d| d.attribute("group"))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        groups.push(TestGroup {
            name,
            parent: None,
            aggregation,
            max_score: MaxScore::Bounded(points),
            require_pass,
            legacy: None,
        });
    }
    Ok(groups)
}

/// A group a test names but `<groups>` does not list is scored test by
/// test, worth its tests' points.
fn add_unlisted_groups(tests: &[TestCase], groups: &mut Vec<TestGroup>) {
    for test in tests {
        if let Some(group) = test
            .group
            .as_deref()
            .filter(|g| !groups.iter().any(|x| &x.name == g))
        {
            groups.push(TestGroup {
                name: group.to_string(),
                parent: None,
                aggregation: Aggregation::Sum,
                max_score: MaxScore::Bounded(group_points(tests, group)),
                require_pass: Vec::new(),
                legacy: None,
            });
        }
    }
}

pub(super) fn validator_tests(
    xml: &Xml<'_>,
    validator: Node<'_, '_>,
    dir: &Path,
) -> FormatResult<Vec<InputSelfTest>> {
    let Some(testset) = xml.child(validator, "testset") else {
        return Ok(Vec::new());
    };
    let pattern: String = xml.text(testset, "input-path-pattern")?;
    let Some(list) = xml.child(testset, "tests") else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for (index, node) in xml.children(list, "test").enumerate() {
        let relative = expand_pattern(&pattern, index + 1)
            .ok_or_else(|| xml.error(testset, "<input-path-pattern>", "not a %d pattern"))?;
        let valid = match node.attribute("verdict") {
            Some("valid") => true,
            Some("invalid") => false,
            other => {
                return Err(xml.error(
                    node,
                    "verdict",
                    format!("`{}` is not valid or invalid", other.unwrap_or("")),
                ));
            }
        };
        let mut args = Vec::new();
        for (attr, flag) in [("testset", "--testset"), ("group", "--group")] {
            if let Some(value) = node.attribute(attr) {
                args.extend([flag.to_string(), value.to_string()]);
            }
        }
        found.push(InputSelfTest {
            name: format!("validator test {}", index + 1),
            input: existing(xml, node, dir, &relative)?,
            valid,
            args: if args.is_empty() {
                ValidatorArgs::None
            } else {
                ValidatorArgs::Same(args)
            },
        });
    }
    Ok(found)
}

pub(super) fn checker_tests(
    xml: &Xml<'_>,
    checker: Node<'_, '_>,
    dir: &Path,
) -> FormatResult<Vec<OutputSelfTest>> {
    let Some(testset) = xml.child(checker, "testset") else {
        return Ok(Vec::new());
    };
    let patterns: [String; 3] = [
        xml.text(testset, "input-path-pattern")?,
        xml.text(testset, "output-path-pattern")?,
        xml.text(testset, "answer-path-pattern")?,
    ];
    let Some(list) = xml.child(testset, "tests") else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for (index, node) in xml.children(list, "test").enumerate() {
        let expected = match node.attribute("verdict") {
            Some("ok") => Verdict::Accepted,
            Some("wrong-answer") => Verdict::WrongAnswer,
            Some("presentation-error") => Verdict::PresentationError,
            Some("crashed" | "fail") => Verdict::JudgeError,
            other => {
                return Err(xml.error(
                    node,
                    "verdict",
                    format!("unknown checker verdict `{}`", other.unwrap_or("")),
                ));
            }
        };
        let mut paths = Vec::new();
        for pattern in &patterns {
            let relative = expand_pattern(pattern, index + 1)
                .ok_or_else(|| xml.error(testset, "<tests>", "not a %d pattern"))?;
            paths.push(existing(xml, node, dir, &relative)?);
        }
        let [input, output, answer]: [PathBuf; 3] = paths.try_into().expect("three patterns");
        found.push(OutputSelfTest {
            name: format!("checker test {}", index + 1),
            input,
            output,
            answer,
            expected,
            output_validator_args: Vec::new(),
            input_validator_args: None,
        });
    }
    Ok(found)
}

fn existing(
    xml: &Xml<'_>,
    node: Node<'_, '_>,
    dir: &Path,
    relative: &str,
) -> FormatResult<PathBuf> {
    let path = dir.join(relative);
    if path.is_file() {
        Ok(path)
    } else {
        Err(xml.error(node, "<test>", format!("{relative} is not in the package")))
    }
}

#[cfg(test)]
mod tests {
    use super::expand_pattern;

    #[test]
    fn path_patterns() {
        assert_eq!(expand_pattern("tests/%02d", 7).as_deref(), Some("tests/07"));
        assert_eq!(
            expand_pattern("tests/%02d.a", 12).as_deref(),
            Some("tests/12.a")
        );
        assert_eq!(
            expand_pattern("tests/%d", 123).as_deref(),
            Some("tests/123")
        );
        assert_eq!(
            expand_pattern("tests/%03d.in", 5).as_deref(),
            Some("tests/005.in")
        );
        assert_eq!(expand_pattern("tests/x", 5), None);
    }
}
