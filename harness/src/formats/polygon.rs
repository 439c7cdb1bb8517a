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
    Constants, Expectation, ExpectationRule, Includes, InputValidator, Interaction, OutputJudging,
    Package, PackageFormat, PackageLimits, Program, SelfTests, Submission, TimeLimitBound,
    TimeLimitRule, ValidatorProtocol,
};
use super::program::{ProgramHints, language_of_polygon_type, read_program};

mod testset;

use self::testset::{checker_tests, read_tests, validator_tests};
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
    let id = problem_id(dir);
    let name = xml
        .english_name(root)
        .or_else(|| root.attribute("short-name").map(str::to_string))
        .unwrap_or_else(|| id.clone());
    let Judging {
        testset,
        percent,
        limits,
    } = xml.judging(root)?;

    let resources = read_resources(&xml, root, dir)?;
    let (tests, groups) = read_tests(&xml, testset, dir)?;
    let scoring = tests.iter().any(|t| t.points.unwrap_or(0.0) > 0.0);
    let assets = xml.require(root, "assets")?;
    let checker_node = xml.require(assets, "checker")?;
    let checker = read_checker(&xml, checker_node, dir, &resources)?;
    let interactor = xml
        .child(assets, "interactor")
        .map(|node| asset_program(&xml, node, dir, &resources, "interactor"))
        .transpose()?;
    let mut self_tests = SelfTests {
        outputs: checker_tests(&xml, checker_node, dir)?,
        ..SelfTests::default()
    };
    let input_validators = read_validators(&xml, assets, dir, &resources, &mut self_tests)?;
    let used = programs_in_use(&checker, interactor.as_ref(), &input_validators);
    let generators = read_generators(&xml, root, dir, &resources, &used)?;
    let submissions = read_solutions(&xml, assets, dir)?;
    let (interaction, output) = output_judging(checker, interactor, percent);
    Ok(Package {
        legacy_root: None,
        format: PackageFormat::Polygon,
        dir: dir.to_path_buf(),
        id,
        name,
        interaction,
        scoring,
        limits,
        rules: Default::default(),
        static_validator: None,
        output_visualizer: None,
        grader: None,
        static_cases: Vec::new(),
        tests,
        groups,
        input_validators,
        answer_validators: Vec::new(),
        output,
        submissions,
        generators,
        constants: Constants::default(),
        includes: Includes::default(),
        self_tests,
        warnings: Vec::new(),
    })
}

/// The problem's id: its folder's name.
fn problem_id(dir: &Path) -> String {
    dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The `<checker>` of `<assets>`: only testlib checkers are run.
fn read_checker(
    xml: &Xml<'_>,
    node: Node<'_, '_>,
    dir: &Path,
    resources: &[PathBuf],
) -> FormatResult<Program> {
    if let Some(kind) = node.attribute("type").filter(|k| *k != "testlib") {
        return Err(xml.error(
            node,
            "type",
            format!("checker type `{kind}` is not supported (only testlib)"),
        ));
    }
    asset_program(xml, node, dir, resources, "checker")
}

/// The sources of the checker, interactor and validators: the executables
/// left over are the generators.
fn programs_in_use(
    checker: &Program,
    interactor: Option<&Program>,
    validators: &[InputValidator],
) -> Vec<PathBuf> {
    std::iter::once(checker)
        .chain(interactor)
        .chain(validators.iter().filter_map(|v| match v {
            InputValidator::Program { program, .. } => Some(program),
            _ => None,
        }))
        .map(|p| p.path.clone())
        .collect()
}

/// An interactor makes the problem interactive (the checker then judges
/// what the interactor wrote); without one the checker judges the output.
fn output_judging(
    checker: Program,
    interactor: Option<Program>,
    points_are_percent: bool,
) -> (Interaction, OutputJudging) {
    match interactor {
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
                points_are_percent,
            },
        ),
    }
}

/// The testlib validators of `<assets>` (in a `<validators>` list or not),
/// their own tests added to `self_tests`.
fn read_validators<'a>(
    xml: &Xml<'a>,
    assets: Node<'a, 'a>,
    dir: &Path,
    resources: &[PathBuf],
    self_tests: &mut SelfTests,
) -> FormatResult<Vec<InputValidator>> {
    let nodes: Vec<Node<'_, '_>> = match xml.child(assets, "validators") {
        Some(list) => xml.children(list, "validator").collect(),
        None => xml.children(assets, "validator").collect(),
    };
    let mut validators = Vec::new();
    for node in nodes {
        let program = asset_program(xml, node, dir, resources, "validator")?;
        self_tests.inputs.extend(validator_tests(xml, node, dir)?);
        validators.push(InputValidator::Program {
            program,
            protocol: ValidatorProtocol::Testlib,
        });
    }
    Ok(validators)
}

/// What `<judging>` says: the `tests` testset, whether the checker's
/// points are percent, and the limits.
struct Judging<'a> {
    testset: Node<'a, 'a>,
    percent: bool,
    limits: PackageLimits,
}

impl<'a> Xml<'a> {
    /// The English `<names><name>`, else the first.
    fn english_name(&self, root: Node<'a, 'a>) -> Option<String> {
        let names = self.child(root, "names")?;
        let all: Vec<Node<'_, '_>> = self.children(names, "name").collect();
        all.iter()
            .find(|n| n.attribute("language") == Some("english"))
            .or(all.first())
            .and_then(|n| n.attribute("value"))
            .map(str::to_string)
    }

    /// `<judging>`, refusing what the judge does not support (files
    /// instead of standard streams, run-twice problems).
    fn judging(&self, root: Node<'a, 'a>) -> FormatResult<Judging<'a>> {
        let judging = self.require(root, "judging")?;
        for file_attr in ["input-file", "output-file"] {
            if let Some(file) = judging.attribute(file_attr).filter(|f| !f.is_empty()) {
                return Err(self.error(
                    judging,
                    file_attr,
                    format!("reading and writing files (`{file}`) is not supported"),
                ));
            }
        }
        if judging.attribute("run-count").is_some_and(|c| c != "1") {
            return Err(self.error(judging, "run-count", "run-twice problems are not supported"));
        }
        let percent = judging.attribute("treat-points-from-checker-as-percent") == Some("true");
        let testset = self
            .children(judging, "testset")
            .find(|t| t.attribute("name") == Some("tests"))
            .ok_or_else(|| self.error(judging, "<judging>", "no <testset name=\"tests\">"))?;
        let time_ms: u64 = self.text(testset, "time-limit")?;
        let memory: u64 = self.text(testset, "memory-limit")?;
        let limits = PackageLimits::time_and_memory(
            TimeLimitRule::Fixed {
                limit: Duration::from_millis(time_ms),
                origin: format!(
                    "problem.xml line {} (<testset name=\"tests\"> <time-limit>)",
                    self.line(self.require(testset, "time-limit")?)
                ),
            },
            Some(memory),
        );
        Ok(Judging {
            testset,
            percent,
            limits,
        })
    }
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
    // Every verdict a run can earn but AC (CE is a build's, JE the judge's).
    let rejected: Vec<Verdict> = Verdict::ALL
        .into_iter()
        .filter(|v| !matches!(v, Accepted | CompileError | JudgeError))
        .collect();
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
