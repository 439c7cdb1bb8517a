//! `submissions/` of a Kattis package: every file or folder in a verdict
//! folder is a submission; what it must get comes from its folder and, in
//! 2025-09, from `submissions.yaml` (globs over submission paths, nested
//! globs over test names).

use std::path::Path;

use super::expected_results::expected_results;
use super::sorted_entries;
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::glob::{check_glob, glob_matches};
use crate::formats::package::{
    Expectation, ExpectationRule, PackageFormat, Program, Submission, TimeLimitBound,
};
use crate::formats::program::{ProgramHints, has_known_language, read_program};
use crate::formats::yaml::{Map, Value, YamlFile};
use crate::verdict::Verdict;

const SUBMISSION_KEYS: &[&str] = &[
    "language",
    "entrypoint",
    "authors",
    "model_solution",
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];
const RULE_KEYS: &[&str] = &[
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];

/// Legacy folders and the overall verdict problemtools expects.
const LEGACY_FOLDERS: &[(&str, Verdict)] = &[
    ("accepted", Verdict::Accepted),
    ("partially_accepted", Verdict::Accepted),
    ("wrong_answer", Verdict::WrongAnswer),
    ("time_limit_exceeded", Verdict::TimeLimitExceeded),
    ("run_time_error", Verdict::RuntimeError),
];

use Verdict::{Accepted as AC, RuntimeError as RTE, TimeLimitExceeded as TLE, WrongAnswer as WA};

/// A verdict set of a rule; `None`: not constrained.
type VerdictSet = Option<&'static [Verdict]>;

/// 2025-09 "Default directories": (folder, permitted, required).
const DEFAULT_FOLDERS: &[(&str, VerdictSet, VerdictSet)] = &[
    ("accepted", Some(&[AC]), None),
    ("rejected", None, Some(&[RTE, TLE, WA])),
    ("wrong_answer", Some(&[AC, WA]), Some(&[WA])),
    ("time_limit_exceeded", Some(&[AC, TLE]), Some(&[TLE])),
    ("run_time_error", Some(&[AC, RTE]), Some(&[RTE])),
    ("brute_force", Some(&[AC, RTE, TLE]), Some(&[RTE, TLE])),
];

fn verdict_code(value: &Value<'_>) -> FormatResult<Verdict> {
    match value.string()?.as_str() {
        "AC" => Ok(AC),
        "WA" => Ok(WA),
        "TLE" => Ok(TLE),
        "RTE" => Ok(RTE),
        other => Err(value.error(format!("`{other}` is not AC, WA, TLE or RTE"))),
    }
}

fn verdicts(value: &Value<'_>) -> FormatResult<Vec<Verdict>> {
    value.items()?.iter().map(verdict_code).collect()
}

/// One entry of `submissions.yaml` (top level or nested under a test glob).
#[derive(Debug, Clone)]
struct Entry {
    rule: ExpectationRule,
    use_for_time_limit: Option<TimeLimitBound>,
    has_rule: bool,
}

fn read_rule(map: &Map<'_>, tests: Option<String>, origin: String) -> FormatResult<Entry> {
    let mut rule = ExpectationRule {
        tests,
        permitted: map.get("permitted").map(|v| verdicts(&v)).transpose()?,
        required: map.get("required").map(|v| verdicts(&v)).transpose()?,
        score: None,
        message: map.str("message")?,
        origin,
    };
    if let Some(value) = map.get("score") {
        rule.score = Some(if value.is_map() {
            return Err(value.error("expected a number or [low, high]"));
        } else if let Ok(items) = value.items() {
            match items.as_slice() {
                [low, high] => (low.number()?, high.number()?),
                _ => return Err(value.error("expected [low, high]")),
            }
        } else {
            let score = value.number()?;
            (score, score)
        });
    }
    let use_for_time_limit = match map.get("use_for_time_limit") {
        None => None,
        Some(value) => Some(match value.string()?.as_str() {
            "false" => TimeLimitBound::None,
            "lower" => TimeLimitBound::Lower,
            "upper" => TimeLimitBound::Upper,
            "true" => return Err(value.error("use `lower` or `upper` (or false)")),
            other => return Err(value.error(format!("`{other}` is not false, lower or upper"))),
        }),
    };
    let has_rule = rule.permitted.is_some()
        || rule.required.is_some()
        || rule.score.is_some()
        || rule.message.is_some();
    Ok(Entry {
        rule,
        use_for_time_limit,
        has_rule,
    })
}

/// `submissions.yaml`: per top-level glob, its line, submission keys and rules.
struct Spec {
    glob: String,
    line: usize,
    language: Option<String>,
    entrypoint: Option<String>,
    model_solution: bool,
    entries: Vec<Entry>,
}

fn read_submissions_yaml(path: &Path) -> FormatResult<Vec<Spec>> {
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let file = YamlFile::read(path)?;
    let mut specs = Vec::new();
    for (glob, value) in file.root().entries() {
        check_glob(&glob).map_err(|why| value.error(why.to_string()))?;
        let map = value.map()?;
        let origin = format!("submissions.yaml line {}", value.line());
        let mut entries = vec![read_rule(&map, None, origin)?];
        for (key, nested) in map.entries() {
            if SUBMISSION_KEYS.contains(&key.as_str()) {
                continue;
            }
            check_glob(&key).map_err(|why| nested.error(why.to_string()))?;
            let nested_map = nested.map()?;
            nested_map.only_keys(RULE_KEYS)?;
            let origin = format!("submissions.yaml line {} ({key})", nested.line());
            entries.push(read_rule(&nested_map, Some(key), origin)?);
        }
        specs.push(Spec {
            glob,
            line: value.line(),
            language: map.str("language")?,
            entrypoint: map.str("entrypoint")?,
            model_solution: map.bool("model_solution")?.unwrap_or(false),
            entries,
        });
    }
    Ok(specs)
}

/// Every submission under `dir/submissions`, folders in name order.
pub(crate) fn read_submissions(
    dir: &Path,
    format: PackageFormat,
    scoring: bool,
    submit_answer: bool,
    warnings: &mut Vec<String>,
) -> FormatResult<Vec<Submission>> {
    let root = dir.join("submissions");
    if !root.is_dir() {
        return Err(FormatError::file(
            &root,
            "no submissions/ folder (at least one accepted submission is required)",
        ));
    }
    let specs = submission_specs(&root.join("submissions.yaml"), format, warnings)?;
    let mut reading = Reading {
        format,
        submit_answer,
        specs: &specs,
        warnings,
    };
    let mut submissions = Vec::new();
    for (folder_name, folder) in sorted_entries(&root)? {
        if !folder.is_dir() {
            if folder_name != "submissions.yaml" {
                reading.warnings.push(format!(
                    "{}: not in a folder such as submissions/accepted/; not run",
                    folder.display()
                ));
            }
            continue;
        }
        if folder_name == "partially_accepted" && !scoring && !format.has_2025_groups() {
            return Err(FormatError::file(
                &folder,
                "partially_accepted needs `type: scoring`",
            ));
        }
        let folder_says = Folder::new(&folder_name, format);
        for (entry_name, path) in sorted_entries(&folder)? {
            if let Some(submission) = reading.submission(&folder_says, &entry_name, &path)? {
                submissions.push(submission);
            }
        }
    }
    if !submissions
        .iter()
        .any(|s| s.program.name.starts_with("accepted/"))
    {
        return Err(FormatError::file(
            &root,
            "no submission in submissions/accepted/",
        ));
    }
    Ok(submissions)
}

/// The entries of `submissions.yaml` that the package's version reads.
fn submission_specs(
    yaml: &Path,
    format: PackageFormat,
    warnings: &mut Vec<String>,
) -> FormatResult<Vec<Spec>> {
    Ok(match format {
        PackageFormat::Kattis2025 => read_submissions_yaml(yaml)?,
        // problemtools reads no submissions.yaml in draft packages: its
        // languages and entry points are used, its rules are not.
        PackageFormat::Kattis2023Draft => match read_submissions_yaml(yaml) {
            Ok(specs) => {
                if let Some(spec) = specs.iter().find(|s| s.entries.iter().any(|e| e.has_rule)) {
                    warnings.push(format!(
                        "{}:{}: expectation rules are not used in 2023-07-draft packages (the folders say what each submission gets)",
                        yaml.display(),
                        spec.line
                    ));
                }
                specs
            }
            Err(error) => {
                warnings.push(format!("{error} (ignored in a 2023-07-draft package)"));
                Vec::new()
            }
        },
        _ => {
            if yaml.is_file() {
                warnings.push(format!("{}: ignored in a legacy package", yaml.display()));
            }
            Vec::new()
        }
    })
}

/// A folder of `submissions/` and what its name says of its submissions.
struct Folder<'a> {
    name: &'a str,
    /// The overall verdict a legacy folder of this name expects.
    legacy_verdict: Option<Verdict>,
    /// Whether the folder says what its submissions get (the draft also
    /// knows 2025-09's `rejected/` and `brute_force/`).
    meaningful: bool,
}

impl Folder<'_> {
    fn new(name: &str, format: PackageFormat) -> Folder<'_> {
        let legacy_verdict = LEGACY_FOLDERS
            .iter()
            .find(|(folder, _)| *folder == name)
            .map(|(_, v)| *v);
        let default_rules = DEFAULT_FOLDERS.iter().any(|(folder, _, _)| *folder == name);
        let meaningful = match format {
            PackageFormat::KattisLegacy => legacy_verdict.is_some(),
            PackageFormat::Kattis2023Draft => legacy_verdict.is_some() || default_rules,
            _ => default_rules,
        };
        Folder {
            name,
            legacy_verdict,
            meaningful,
        }
    }
}

/// What every submission of a package is read with.
struct Reading<'a> {
    format: PackageFormat,
    submit_answer: bool,
    specs: &'a [Spec],
    warnings: &'a mut Vec<String>,
}

impl Reading<'_> {
    /// The submission at `path` (`entry_name` in `folder`), or `None`
    /// (with a warning) for one that is not run.
    fn submission(
        &mut self,
        folder: &Folder<'_>,
        entry_name: &str,
        path: &Path,
    ) -> FormatResult<Option<Submission>> {
        let (format, folder_name) = (self.format, folder.name);
        let name = format!("{folder_name}/{entry_name}");
        let matching: Vec<&Spec> = self
            .specs
            .iter()
            .filter(|s| glob_matches(&s.glob, &name))
            .collect();
        let hints = ProgramHints {
            language: matching.iter().rev().find_map(|s| s.language.clone()),
            entry: matching.iter().rev().find_map(|s| s.entrypoint.clone()),
            substitute_constants: format.substitutes_constants(),
        };
        let program = match self.submit_answer {
            // The spec's own example has programs here (issue 578 of
            // the format asks whether code may be submitted at all).
            true if path.is_file() && has_known_language(path) => {
                self.warnings.push(format!(
                    "{}: a program; submit-answer submissions are answer files (a folder of them): not run",
                    path.display()
                ));
                return Ok(None);
            }
            true => answer_set(path, &name),
            false if hints.language.is_none() && !has_known_language(path) => {
                self.warnings
                    .push(format!("{}: unknown language; not run", path.display()));
                return Ok(None);
            }
            false => read_program(path, &name, &hints)?,
        };
        let tag = expected_results(&program);
        let yaml_rules = format == PackageFormat::Kattis2025
            && matching
                .iter()
                .any(|s| s.entries.iter().any(|e| e.has_rule));
        let meaningful = folder.meaningful;
        if let Some(tag) = &tag {
            for word in &tag.unknown {
                self.warnings.push(format!(
                    "{}: @EXPECTED_RESULTS@: `{word}` is not a verdict, left out",
                    tag.origin
                ));
            }
            // Quiet where the line says what the folder says.
            let agrees = folder.legacy_verdict.is_some_and(|v| tag.verdicts == [v]);
            if (meaningful && !agrees) || yaml_rules {
                self.warnings.push(format!(
                    "{}: @EXPECTED_RESULTS@ ignored: {} says what {name} gets (as DOMjudge and BAPCtools do)",
                    tag.origin,
                    if meaningful { "its folder" } else { "submissions.yaml" }
                ));
            }
        }
        let submission = match (format, folder.legacy_verdict, tag) {
            (_, _, Some(tag)) if !meaningful && !yaml_rules && !tag.verdicts.is_empty() => {
                Submission {
                    program,
                    expectation: Expectation::OneOf {
                        verdicts: tag.verdicts,
                        score: tag.score,
                    },
                    origin: format!("@EXPECTED_RESULTS@ in {}", tag.origin),
                    model_solution: false,
                    time_limit_bound: TimeLimitBound::None,
                }
            }
            (PackageFormat::Kattis2025, _, _) => with_rules(program, folder_name, &matching)?,
            (_, Some(verdict), _) => Submission {
                program,
                expectation: Expectation::Overall {
                    verdict,
                    partial: folder_name == "partially_accepted",
                },
                origin: format!("folder {folder_name}"),
                model_solution: matching.iter().any(|s| s.model_solution),
                time_limit_bound: match folder_name {
                    "accepted" => TimeLimitBound::Lower,
                    "time_limit_exceeded" => TimeLimitBound::Upper,
                    _ => TimeLimitBound::None,
                },
            },
            _ if meaningful => with_rules(program, folder_name, &[])?,
            _ => {
                self.warnings.push(format!(
                    "{}: not in a {} verdict folder and has no @EXPECTED_RESULTS@ line; not run",
                    path.display(),
                    format.version_name()
                ));
                return Ok(None);
            }
        };
        Ok(Some(submission))
    }
}

/// A submit-answer submission: its answer files, never built (the judge
/// reads them as `ProgramRef::Answers`).
fn answer_set(path: &Path, name: &str) -> Program {
    Program {
        name: name.to_string(),
        path: path.to_path_buf(),
        language: "answers".to_string(),
        sources: Vec::new(),
        entry: path.to_path_buf(),
        extra_files: Vec::new(),
        include_dirs: Vec::new(),
        substitute_constants: false,
    }
}

/// 2025-09: the folder's default rule (replaced key by key by an entry
/// named exactly like the folder) plus every other matching entry.
fn with_rules(
    program: crate::formats::package::Program,
    folder: &str,
    matching: &[&Spec],
) -> FormatResult<Submission> {
    let mut rules = Vec::new();
    let mut uses = Vec::new();
    let default = DEFAULT_FOLDERS.iter().find(|(name, _, _)| *name == folder);
    let override_spec = matching.iter().find(|s| s.glob == folder);
    if default.is_some() || override_spec.is_some() {
        let mut rule = ExpectationRule {
            tests: None,
            permitted: default.and_then(|(_, p, _)| p.map(<[Verdict]>::to_vec)),
            required: default.and_then(|(_, _, r)| r.map(<[Verdict]>::to_vec)),
            score: None,
            message: None,
            origin: format!("folder {folder}"),
        };
        if let Some(spec) = override_spec {
            let top = &spec.entries[0];
            rule.permitted = top.rule.permitted.clone().or(rule.permitted);
            rule.required = top.rule.required.clone().or(rule.required);
            rule.score = top.rule.score;
            rule.message = top.rule.message.clone();
            rule.origin = format!(
                "folder {folder}, changed by submissions.yaml line {}",
                spec.line
            );
            uses.extend(top.use_for_time_limit);
        }
        rules.push(rule);
    }
    for spec in matching {
        for (index, entry) in spec.entries.iter().enumerate() {
            let is_override = spec.glob == folder && index == 0;
            if !is_override {
                uses.extend(entry.use_for_time_limit);
                if entry.has_rule {
                    rules.push(entry.rule.clone());
                }
            }
        }
    }
    let origin = rules
        .iter()
        .map(|r| r.origin.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    let bound = uses
        .last()
        .copied()
        .unwrap_or_else(|| implied_bound(&rules));
    Ok(Submission {
        program,
        origin: if origin.is_empty() {
            format!("folder {folder} (no rules: any verdict)")
        } else {
            origin
        },
        expectation: Expectation::Rules(rules),
        model_solution: matching.iter().any(|s| s.model_solution),
        time_limit_bound: bound,
    })
}

/// Spec "Timelimit inference": `required: [TLE]` bounds the limit from
/// above; a `permitted` set without TLE bounds it from below.
fn implied_bound(rules: &[ExpectationRule]) -> TimeLimitBound {
    if rules.iter().any(|r| r.required.as_deref() == Some(&[TLE])) {
        TimeLimitBound::Upper
    } else if rules
        .iter()
        .any(|r| r.permitted.as_ref().is_some_and(|p| !p.contains(&TLE)))
    {
        TimeLimitBound::Lower
    } else {
        TimeLimitBound::None
    }
}
