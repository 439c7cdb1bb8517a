//! Reads a Polygon full package (`problem.xml`) into a `Package`: the
//! `tests` testset (limits, tests `tests/NN` with answers `tests/NN.a`,
//! groups and points), the testlib checker, validators and interactor with
//! the headers listed as resources (`files/testlib.h`), their self-tests,
//! generators, and the solutions with their tags.

use std::path::{Path, PathBuf};
use std::time::Duration;

use roxmltree::{Document, Node};

use super::error::{FormatError, FormatResult};
use super::package::{
    Aggregation, Constants, Expectation, ExpectationRule, Includes, InputSelfTest, InputValidator,
    Interaction, MaxScore, OutputJudging, OutputSelfTest, Package, PackageFormat, PackageLimits,
    Program, SelfTests, Submission, TestCase, TestGroup, TimeLimitBound, TimeLimitRule,
    ValidatorArgs, ValidatorProtocol,
};
use super::program::{ProgramHints, language_of_polygon_type, read_program};
use crate::verdict::Verdict;

/// The parsed `problem.xml` and how to name places in it.
struct Xml<'a> {
    path: &'a Path,
    doc: &'a Document<'a>,
}

impl<'a> Xml<'a> {
    fn line(&self, node: Node<'_, '_>) -> usize {
        self.doc.text_pos_at(node.range().start).row as usize
    }

    fn error(&self, node: Node<'_, '_>, field: &str, message: impl Into<String>) -> FormatError {
        FormatError::at(self.path, self.line(node), field, message)
    }

    fn child(&self, node: Node<'a, 'a>, tag: &str) -> Option<Node<'a, 'a>> {
        node.children().find(|n| n.has_tag_name(tag))
    }

    fn children(
        &self,
        node: Node<'a, 'a>,
        tag: &'a str,
    ) -> impl Iterator<Item = Node<'a, 'a>> + 'a {
        node.children().filter(move |n| n.has_tag_name(tag))
    }

    fn require(&self, node: Node<'a, 'a>, tag: &str) -> FormatResult<Node<'a, 'a>> {
        self.child(node, tag).ok_or_else(|| {
            self.error(
                node,
                &format!("<{}>", node.tag_name().name()),
                format!("missing <{tag}>"),
            )
        })
    }

    fn text<T: std::str::FromStr>(&self, node: Node<'a, 'a>, tag: &str) -> FormatResult<T> {
        let child = self.require(node, tag)?;
        child
            .text()
            .unwrap_or("")
            .trim()
            .parse()
            .map_err(|_| self.error(child, &format!("<{tag}>"), "not a number"))
    }

    fn attr_f64(&self, node: Node<'_, '_>, name: &str) -> FormatResult<Option<f64>> {
        node.attribute(name)
            .map(|text| {
                text.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| self.error(node, name, format!("`{text}` is not a number")))
            })
            .transpose()
    }
}

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

pub(crate) fn read_polygon(dir: &Path) -> FormatResult<Package> {
    let path = dir.join("problem.xml");
    let text = std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, &e))?;
    let doc = Document::parse(&text).map_err(|e| FormatError {
        path: path.clone(),
        line: Some(e.pos().row as usize),
        field: None,
        message: format!("invalid XML: {e}"),
    })?;
    let xml = Xml {
        path: &path,
        doc: &doc,
    };
    let root = doc.root_element();
    if !root.has_tag_name("problem") {
        return Err(xml.error(root, "<problem>", "the root element must be <problem>"));
    }
    let id = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let name = xml
        .child(root, "names")
        .and_then(|names| {
            let all: Vec<Node<'_, '_>> = xml.children(names, "name").collect();
            all.iter()
                .find(|n| n.attribute("language") == Some("english"))
                .or(all.first())
                .and_then(|n| n.attribute("value"))
                .map(str::to_string)
        })
        .or_else(|| root.attribute("short-name").map(str::to_string))
        .unwrap_or_else(|| id.clone());

    let judging = xml.require(root, "judging")?;
    for file_attr in ["input-file", "output-file"] {
        if let Some(file) = judging.attribute(file_attr).filter(|f| !f.is_empty()) {
            return Err(xml.error(
                judging,
                file_attr,
                format!("reading and writing files (`{file}`) is not supported"),
            ));
        }
    }
    if judging.attribute("run-count").is_some_and(|c| c != "1") {
        return Err(xml.error(judging, "run-count", "run-twice problems are not supported"));
    }
    let percent = judging.attribute("treat-points-from-checker-as-percent") == Some("true");
    let testset = xml
        .children(judging, "testset")
        .find(|t| t.attribute("name") == Some("tests"))
        .ok_or_else(|| xml.error(judging, "<judging>", "no <testset name=\"tests\">"))?;
    let time_ms: u64 = xml.text(testset, "time-limit")?;
    let memory: u64 = xml.text(testset, "memory-limit")?;
    let limits = PackageLimits {
        time: TimeLimitRule::Fixed {
            limit: Duration::from_millis(time_ms),
            origin: format!(
                "problem.xml line {} (<testset name=\"tests\"> <time-limit>)",
                xml.line(xml.require(testset, "time-limit")?)
            ),
        },
        memory: Some(memory),
        output: None,
        code: None,
        compilation_time: None,
        compilation_memory: None,
        validation_time: None,
        validation_memory: None,
        validation_output: None,
    };

    let resources = read_resources(&xml, root, dir)?;
    let (tests, groups) = read_tests(&xml, testset, dir)?;
    let scoring = tests.iter().any(|t| t.points.unwrap_or(0.0) > 0.0);
    let assets = xml.require(root, "assets")?;
    let checker_node = xml.require(assets, "checker")?;
    if let Some(kind) = checker_node.attribute("type").filter(|k| *k != "testlib") {
        return Err(xml.error(
            checker_node,
            "type",
            format!("checker type `{kind}` is not supported (only testlib)"),
        ));
    }
    let checker = asset_program(&xml, checker_node, dir, &resources, "checker")?;
    let interactor = xml
        .child(assets, "interactor")
        .map(|node| asset_program(&xml, node, dir, &resources, "interactor"))
        .transpose()?;
    let mut self_tests = SelfTests {
        outputs: checker_tests(&xml, checker_node, dir)?,
        ..SelfTests::default()
    };
    let mut input_validators = Vec::new();
    let validator_nodes: Vec<Node<'_, '_>> = match xml.child(assets, "validators") {
        Some(list) => xml.children(list, "validator").collect(),
        None => xml.children(assets, "validator").collect(),
    };
    for node in validator_nodes {
        let program = asset_program(&xml, node, dir, &resources, "validator")?;
        self_tests.inputs.extend(validator_tests(&xml, node, dir)?);
        input_validators.push(InputValidator::Program {
            program,
            protocol: ValidatorProtocol::Testlib,
        });
    }
    let used: Vec<PathBuf> = std::iter::once(&checker)
        .chain(interactor.as_ref())
        .chain(input_validators.iter().filter_map(|v| match v {
            InputValidator::Program { program, .. } => Some(program),
            _ => None,
        }))
        .map(|p| p.path.clone())
        .collect();
    let generators = read_generators(&xml, root, dir, &resources, &used)?;
    let submissions = read_solutions(&xml, assets, dir)?;
    let (interaction, output) = match interactor {
        Some(interactor) => (
            Interaction::Interactive,
            OutputJudging::TestlibInteractor {
                interactor,
                checker,
            },
        ),
        None => (
            Interaction::Batch,
            OutputJudging::TestlibChecker {
                checker,
                points_are_percent: percent,
            },
        ),
    };
    Ok(Package {
        format: PackageFormat::Polygon,
        dir: dir.to_path_buf(),
        id,
        name,
        interaction,
        scoring,
        limits,
        tests,
        groups,
        input_validators,
        output,
        submissions,
        generators,
        constants: Constants::default(),
        includes: Includes::default(),
        self_tests,
        warnings: Vec::new(),
    })
}

/// `<files><resources>`: files (headers) every checker, validator,
/// interactor and generator is built with.
fn read_resources(xml: &Xml<'_>, root: Node<'_, '_>, dir: &Path) -> FormatResult<Vec<PathBuf>> {
    let Some(files) = xml.child(root, "files") else {
        return Ok(Vec::new());
    };
    let Some(resources) = xml.child(files, "resources") else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for file in xml.children(resources, "file") {
        let Some(relative) = file.attribute("path") else {
            return Err(xml.error(file, "path", "a resource needs a path"));
        };
        // A resource without a type is for statements only (olymp.sty, ...).
        if file.attribute("type").is_none() {
            continue;
        }
        let path = dir.join(relative);
        if !path.is_file() {
            return Err(xml.error(file, "path", format!("{relative} is not in the package")));
        }
        found.push(path);
    }
    Ok(found)
}

/// The program of a `<checker>`, `<validator>`, `<interactor>` or
/// `<executable>`, from its `<source path type>`.
fn asset_program(
    xml: &Xml<'_>,
    node: Node<'_, '_>,
    dir: &Path,
    resources: &[PathBuf],
    role: &str,
) -> FormatResult<Program> {
    let source = xml.child(node, "source").ok_or_else(|| {
        xml.error(
            node,
            &format!("<{role}>"),
            "no <source>: only packages with the program's source can be run",
        )
    })?;
    let mut program = source_program(xml, source, dir, role)?;
    for resource in resources {
        if !program.extra_files.contains(resource) && !program.sources.contains(resource) {
            program.extra_files.push(resource.clone());
        }
        if let Some(parent) = resource
            .parent()
            .filter(|p| !program.include_dirs.iter().any(|d| d == p))
        {
            program.include_dirs.push(parent.to_path_buf());
        }
    }
    Ok(program)
}

fn source_program(
    xml: &Xml<'_>,
    source: Node<'_, '_>,
    dir: &Path,
    name: &str,
) -> FormatResult<Program> {
    let relative = source
        .attribute("path")
        .ok_or_else(|| xml.error(source, "path", "a <source> needs a path"))?;
    let path = dir.join(relative);
    if !path.is_file() {
        return Err(xml.error(source, "path", format!("{relative} is not in the package")));
    }
    let hints = ProgramHints {
        language: source
            .attribute("type")
            .and_then(language_of_polygon_type)
            .map(str::to_string),
        ..ProgramHints::default()
    };
    let name = if name.is_empty() { relative } else { name };
    read_program(&path, name, &hints).map_err(|e| xml.error(source, "path", e.message))
}

fn read_tests(
    xml: &Xml<'_>,
    testset: Node<'_, '_>,
    dir: &Path,
) -> FormatResult<(Vec<TestCase>, Vec<TestGroup>)> {
    let count: usize = xml.text(testset, "test-count")?;
    let input_pattern: String = xml.text(testset, "input-path-pattern")?;
    let answer_pattern: String = xml.text(testset, "answer-path-pattern")?;
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
    let mut tests = Vec::new();
    for (index, node) in nodes.iter().enumerate() {
        let number = index + 1;
        let pattern_error = || xml.error(*node, "<input-path-pattern>", "not a %d pattern");
        let input_rel = expand_pattern(&input_pattern, number).ok_or_else(pattern_error)?;
        let answer_rel = expand_pattern(&answer_pattern, number).ok_or_else(pattern_error)?;
        let (input, answer) = (dir.join(&input_rel), dir.join(&answer_rel));
        if !input.is_file() {
            let why = if node.attribute("method") == Some("generated") {
                "is missing: generated tests must be in the package (download the full package)"
            } else {
                "is missing"
            };
            return Err(xml.error(*node, "<test>", format!("test {number}: {input_rel} {why}")));
        }
        if !answer.is_file() {
            return Err(xml.error(
                *node,
                "<test>",
                format!("test {number}: answer {answer_rel} is missing"),
            ));
        }
        tests.push(TestCase {
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
            input_validator_args: node.attribute("group").map_or(ValidatorArgs::None, |g| {
                ValidatorArgs::Same(vec!["--group".to_string(), g.to_string()])
            }),
            output_validator_args: Vec::new(),
            points: xml.attr_f64(*node, "points")?,
            generator_command: node.attribute("cmd").map(str::to_string),
            description: node.attribute("description").map(str::to_string),
            hint: None,
        });
    }
    let mut groups = Vec::new();
    if let Some(list) = xml.child(testset, "groups") {
        for node in xml.children(list, "group") {
            let name = node
                .attribute("name")
                .ok_or_else(|| xml.error(node, "name", "a <group> needs a name"))?
                .to_string();
            let tests_points: f64 = tests
                .iter()
                .filter(|t| t.group.as_deref() == Some(&name))
                .filter_map(|t| t.points)
                .sum();
            let aggregation = match node.attribute("points-policy") {
                Some("each-test") | None => Aggregation::Sum,
                Some("complete-group") => Aggregation::PassFail,
                Some(other) => {
                    return Err(xml.error(
                        node,
                        "points-policy",
                        format!("unknown policy `{other}`"),
                    ));
                }
            };
            let points = xml.attr_f64(node, "points")?.unwrap_or(tests_points);
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
    }
    for test in &tests {
        if let Some(group) = test
            .group
            .as_deref()
            .filter(|g| !groups.iter().any(|x| &x.name == g))
        {
            groups.push(TestGroup {
                name: group.to_string(),
                parent: None,
                aggregation: Aggregation::Sum,
                max_score: MaxScore::Bounded(
                    tests
                        .iter()
                        .filter(|t| t.group.as_deref() == Some(group))
                        .filter_map(|t| t.points)
                        .sum(),
                ),
                require_pass: Vec::new(),
                legacy: None,
            });
        }
    }
    Ok((tests, groups))
}

fn validator_tests(
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

fn checker_tests(
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

/// Executables that are not the checker, a validator or the interactor:
/// the generators that test commands (`gen 10 3`) name by stem.
fn read_generators(
    xml: &Xml<'_>,
    root: Node<'_, '_>,
    dir: &Path,
    resources: &[PathBuf],
    used: &[PathBuf],
) -> FormatResult<Vec<Program>> {
    let Some(files) = xml.child(root, "files") else {
        return Ok(Vec::new());
    };
    let Some(executables) = xml.child(files, "executables") else {
        return Ok(Vec::new());
    };
    let mut generators = Vec::new();
    for executable in xml.children(executables, "executable") {
        let Some(source) = xml.child(executable, "source") else {
            continue;
        };
        let Some(relative) = source.attribute("path") else {
            continue;
        };
        if used.contains(&dir.join(relative)) {
            continue;
        }
        let stem = Path::new(relative)
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let mut program = asset_program(xml, executable, dir, resources, "executable")?;
        program.name = stem;
        generators.push(program);
    }
    Ok(generators)
}

/// What a Polygon solution tag promises: (permitted, required, bound).
type TagRule = (Option<Vec<Verdict>>, Option<Vec<Verdict>>, TimeLimitBound);

/// What each Polygon solution tag promises, as rules over test verdicts.
fn tag_rules(tag: &str) -> Option<TagRule> {
    use Verdict::*;
    let rejected = vec![
        WrongAnswer,
        PresentationError,
        TimeLimitExceeded,
        MemoryLimitExceeded,
        OutputLimitExceeded,
        RuntimeError,
    ];
    Some(match tag {
        "main" | "accepted" => (Some(vec![Accepted]), None, TimeLimitBound::Lower),
        "rejected" => (None, Some(rejected), TimeLimitBound::None),
        "wrong-answer" => (
            Some(vec![Accepted, WrongAnswer]),
            Some(vec![WrongAnswer]),
            TimeLimitBound::Lower,
        ),
        "presentation-error" => (
            Some(vec![Accepted, PresentationError]),
            Some(vec![PresentationError]),
            TimeLimitBound::Lower,
        ),
        "time-limit-exceeded" => (
            Some(vec![Accepted, TimeLimitExceeded]),
            Some(vec![TimeLimitExceeded]),
            TimeLimitBound::Upper,
        ),
        "time-limit-exceeded-or-accepted" => (
            Some(vec![Accepted, TimeLimitExceeded]),
            None,
            TimeLimitBound::None,
        ),
        "time-limit-exceeded-or-memory-limit-exceeded" => (
            Some(vec![Accepted, TimeLimitExceeded, MemoryLimitExceeded]),
            Some(vec![TimeLimitExceeded, MemoryLimitExceeded]),
            TimeLimitBound::None,
        ),
        "memory-limit-exceeded" => (
            Some(vec![Accepted, MemoryLimitExceeded]),
            Some(vec![MemoryLimitExceeded]),
            TimeLimitBound::None,
        ),
        "failed" => (
            Some(vec![Accepted, JudgeError]),
            Some(vec![JudgeError]),
            TimeLimitBound::None,
        ),
        _ => return None,
    })
}

fn read_solutions(
    xml: &Xml<'_>,
    assets: Node<'_, '_>,
    dir: &Path,
) -> FormatResult<Vec<Submission>> {
    let Some(list) = xml.child(assets, "solutions") else {
        return Ok(Vec::new());
    };
    let mut submissions = Vec::new();
    for node in xml.children(list, "solution") {
        let tag = node
            .attribute("tag")
            .ok_or_else(|| xml.error(node, "tag", "a <solution> needs a tag"))?;
        let source = xml.require(node, "source")?;
        let program = source_program(xml, source, dir, "")?;
        let origin = format!("problem.xml line {}: tag {tag}", xml.line(node));
        let (expectation, bound) = if tag == "do-not-run" {
            (Expectation::NotRun, TimeLimitBound::None)
        } else {
            let (permitted, required, bound) = tag_rules(tag)
                .ok_or_else(|| xml.error(node, "tag", format!("unknown solution tag `{tag}`")))?;
            let rule = ExpectationRule {
                tests: None,
                permitted,
                required,
                score: None,
                message: None,
                origin: origin.clone(),
            };
            (Expectation::Rules(vec![rule]), bound)
        };
        submissions.push(Submission {
            program,
            expectation,
            origin,
            model_solution: tag == "main",
            time_limit_bound: bound,
        });
    }
    if !submissions.iter().any(|s| s.model_solution) {
        return Err(xml.error(list, "<solutions>", "no solution tagged main"));
    }
    Ok(submissions)
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
